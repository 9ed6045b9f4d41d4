// The instants of a series read (portfolio-, pnl- and nav-history) on a UTC grid, shared by the API,
// which builds them, and the vault page's chart, which picks a window that fits under the cap. No
// imports: the browser bundles this file.
export const SERIES_INTERVALS = ["minute", "hour", "day", "week"] as const;
export type SeriesInterval = (typeof SERIES_INTERVALS)[number];

const INTERVAL_MS: Readonly<Record<SeriesInterval, number>> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
};
// Week points fall on Mondays 00:00 UTC; the Unix epoch was a Thursday, four days after one.
const INTERVAL_OFFSET_MS: Readonly<Record<SeriesInterval, number>> = {
  minute: 0,
  hour: 0,
  day: 0,
  week: 4 * 86_400_000,
};

/** The first interval boundary strictly after `ms`. */
function boundaryAfter(ms: number, interval: SeriesInterval): number {
  const step = INTERVAL_MS[interval];
  const offset = INTERVAL_OFFSET_MS[interval];
  return (Math.floor((ms - offset) / step) + 1) * step + offset;
}

/**
 * How many points seriesTimestamps gives for the window, counted without building them so an
 * oversized window is refused before any work.
 */
export function seriesPointCount(fromMs: number, toMs: number, interval: SeriesInterval): number {
  if (toMs <= fromMs) {
    return 1;
  }
  const first = boundaryAfter(fromMs, interval);
  const inside = first >= toMs ? 0 : Math.ceil((toMs - first) / INTERVAL_MS[interval]);
  return 2 + inside;
}

/**
 * The series' instants: the window's start, every UTC interval boundary inside it (top of the minute,
 * of the hour, midnight, Monday midnight) and its end, so charts line up across wallets and the last point is the
 * position as of `to`.
 */
export function seriesTimestamps(fromMs: number, toMs: number, interval: SeriesInterval): number[] {
  if (toMs <= fromMs) {
    return [fromMs];
  }
  const points = [fromMs];
  for (let at = boundaryAfter(fromMs, interval); at < toMs; at += INTERVAL_MS[interval]) {
    points.push(at);
  }
  points.push(toMs);
  return points;
}
