// APY from NAV points: the share price's growth between two strikes, compounded to a year. Exact
// integer arithmetic up to the growth fraction; only that fraction becomes a float.
import { sharePriceGrowth } from "./share-math";

export interface NavPoint {
  /** When the NAV was struck. */
  at: Date;
  totalAssets: bigint;
  totalShares: bigint;
}

const SECONDS_PER_YEAR = 365 * 24 * 3600;

/**
 * Compounded annual growth of the share price from `start` to `end`; null when it is not defined, or
 * when the two points are less than `minSpanSeconds` apart: compounding a few minutes to a year turns
 * one withdrawal fee left with the holders into thousands of percent.
 */
export function annualizedYield(start: NavPoint, end: NavPoint, minSpanSeconds = 0): number | null {
  const seconds = (end.at.getTime() - start.at.getTime()) / 1000;
  if (seconds <= 0 || seconds < minSpanSeconds || start.totalShares === 0n || end.totalShares === 0n) {
    return null;
  }
  const exact = sharePriceGrowth(start, end);
  const growth = Number(exact.part) / Number(exact.whole);
  if (growth <= -1) {
    return -1;
  }
  return Math.expm1(Math.log1p(growth) * (SECONDS_PER_YEAR / seconds));
}

/**
 * APY over the trailing `windowSeconds` before the newest point: from the oldest point inside the
 * window (the history may be shorter than the window) to the newest. Points oldest first.
 */
export function trailingApy(points: readonly NavPoint[], windowSeconds: number): number | null {
  const end = points.at(-1);
  if (end === undefined) {
    return null;
  }
  const from = end.at.getTime() - windowSeconds * 1000;
  const start = points.find((point) => point.at.getTime() >= from && point.totalShares > 0n);
  return start === undefined || start === end ? null : annualizedYield(start, end);
}
