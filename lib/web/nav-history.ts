// The share price over time from the vault's NAV strikes (GET /api/vault/{id}/nav-history): which
// window and interval to ask for, the strikes in the answer, the APY they show, and the geometry of
// the chart that draws them.
import { SERIES_INTERVALS, seriesPointCount, type SeriesInterval } from "../vault/series-timestamps";

export interface NavPoint {
  /** Unix seconds of the strike. */
  time: number;
  sharePrice: number;
}

const DAY_MS = 86_400_000;
/**
 * Points per chart: enough for a 640-wide line, well under the API's 1,000, and a small answer. By
 * minute that is the first 6½ hours, by hour 16 days, by day a year.
 */
export const CHART_MAX_POINTS = 400;
/** An older vault's chart shows its last year. */
export const CHART_MAX_DAYS = 365;

export interface ChartWindow {
  fromMs: number;
  interval: SeriesInterval;
}

/**
 * The window the chart asks for: from the vault's first NAV strike (at most a year back) to now, by
 * the finest interval that fits in CHART_MAX_POINTS, so a vault minutes old is drawn by minute rather
 * than as the two points an hourly series would give it.
 */
export function chartWindow(firstNavAtMs: number, nowMs: number): ChartWindow {
  const fromMs = Math.min(nowMs, Math.max(firstNavAtMs, nowMs - CHART_MAX_DAYS * DAY_MS));
  // SERIES_INTERVALS runs finest first.
  const interval =
    SERIES_INTERVALS.find((candidate) => seriesPointCount(fromMs, nowMs, candidate) <= CHART_MAX_POINTS) ??
    "week";
  return { fromMs, interval };
}

/** A nav-history point as the API gives it (the fields the chart reads). */
export interface SeriesNavPoint {
  sharePrice: number | null;
  navSequence: string | null;
  struckAt: string | null;
}

/**
 * The distinct NAV strikes in a nav-history series, at the time each was struck, oldest first:
 * consecutive points repeat a strike until the next one, and points before the first have none.
 */
export function strikesOf(points: readonly SeriesNavPoint[]): NavPoint[] {
  const strikes: NavPoint[] = [];
  let lastSequence: string | null = null;
  for (const point of points) {
    const struckMs = point.struckAt === null ? Number.NaN : Date.parse(point.struckAt);
    if (point.sharePrice === null || point.navSequence === null || Number.isNaN(struckMs)) {
      continue;
    }
    if (point.navSequence !== lastSequence) {
      strikes.push({ time: struckMs / 1000, sharePrice: point.sharePrice });
      lastSequence = point.navSequence;
    }
  }
  return strikes;
}

const YEAR_SECONDS = 365 * 86_400;
/** Below this span there is no change worth showing. */
const MIN_SPAN_SECONDS = 60;
/**
 * Below this span the change is shown as it is, not annualised: compounding minutes to a year turns a
 * withdrawal fee left with the holders into thousands of percent (the API's APY_MIN_SPAN_SECONDS too).
 */
const MIN_ANNUALISED_SPAN_SECONDS = 86_400;

export interface ObservedApy {
  /** Fraction: 0.0824 is 8.24%; null when the span is under a day. */
  apy: number | null;
  /** The share price's change over the span, as a fraction. */
  change: number;
  /** The span of strikes the figure rests on, in seconds (at most the window asked for). */
  spanSeconds: number;
}

/**
 * Compounded yearly rate between the first strike inside the window and the latest one. Points must
 * be in time order; null when they cover less than a minute, and no annual rate under a day.
 */
export function observedApy(points: readonly NavPoint[], windowSeconds: number): ObservedApy | null {
  const last = points.at(-1);
  if (last === undefined) {
    return null;
  }
  const first = points.find((point) => point.time >= last.time - windowSeconds);
  if (first === undefined || first.sharePrice <= 0) {
    return null;
  }
  const span = last.time - first.time;
  if (span < MIN_SPAN_SECONDS) {
    return null;
  }
  const growth = last.sharePrice / first.sharePrice;
  return {
    apy: span < MIN_ANNUALISED_SPAN_SECONDS ? null : Math.pow(growth, YEAR_SECONDS / span) - 1,
    change: growth - 1,
    spanSeconds: span,
  };
}

/** "7 d", "3 h", "12 min". */
export function describeSpan(seconds: number): string {
  if (seconds >= 86_400) {
    return `${Math.round(seconds / 86_400)} d`;
  }
  if (seconds >= 3_600) {
    return `${Math.round(seconds / 3_600)} h`;
  }
  return `${Math.max(1, Math.round(seconds / 60))} min`;
}

export interface ChartGeometry {
  /** SVG path of the line, in a width × height box. */
  line: string;
  /** The same line closed along the bottom, for the fill under it. */
  area: string;
  minPrice: number;
  maxPrice: number;
  startTime: number;
  endTime: number;
}

export function chartGeometry(
  points: readonly NavPoint[],
  width: number,
  height: number,
  padding = 4,
): ChartGeometry | null {
  const first = points[0];
  const last = points.at(-1);
  if (first === undefined || last === undefined || points.length < 2) {
    return null;
  }
  const prices = points.map((point) => point.sharePrice);
  let minPrice = Math.min(...prices);
  let maxPrice = Math.max(...prices);
  if (maxPrice - minPrice < 1e-9) {
    minPrice -= 1e-6;
    maxPrice += 1e-6;
  }
  const span = Math.max(1, last.time - first.time);
  const x = (time: number): number => padding + ((time - first.time) / span) * (width - 2 * padding);
  const y = (price: number): number =>
    height - padding - ((price - minPrice) / (maxPrice - minPrice)) * (height - 2 * padding);
  const coordinates = points.map((point) => `${x(point.time).toFixed(2)},${y(point.sharePrice).toFixed(2)}`);
  const line = `M${coordinates.join("L")}`;
  const bottom = (height - padding).toFixed(2);
  const area = `${line}L${x(last.time).toFixed(2)},${bottom}L${x(first.time).toFixed(2)},${bottom}Z`;
  return { line, area, minPrice, maxPrice, startTime: first.time, endTime: last.time };
}
