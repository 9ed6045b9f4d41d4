// The share price over time from the vault's NAV strikes (GET /api/vault/{id}/nav-history): which
// window and interval to ask for, the strikes in the answer, the APY they show, and the geometry of
// the chart that draws them.
import { feesKeptSinceStrike, type FeesKept } from "../vault/model/fees-kept";
import { SERIES_INTERVALS, seriesPointCount, type SeriesInterval } from "../vault/model/series-timestamps";

export interface NavPoint {
  /** Unix seconds of the strike (of the chain's read, for the live point). */
  time: number;
  sharePrice: number;
  /** The chain's price now, after the last strike (withLivePrice); strikes leave it out. */
  live?: true;
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

export type { FeesKept };

export interface PriceSeries {
  /** The strikes, then the chain's price now: the header, the chart and the change tile all read these. */
  points: NavPoint[];
  feesKept: FeesKept | null;
}

/**
 * One source for every share price a page shows: the NAV strikes, ended by the price the chain holds
 * now (the header's), so the chart ends where the header stands and the change tile measures the same
 * line; a rise since the last strike is named as exit fees kept by the holders.
 */
export function withLivePrice(
  strikes: readonly NavPoint[],
  live: { time: number; sharePrice: number },
): PriceSeries {
  const last = strikes.at(-1);
  if (last === undefined) {
    return { points: [], feesKept: null };
  }
  const points: NavPoint[] = [
    ...strikes,
    { time: Math.max(live.time, last.time), sharePrice: live.sharePrice, live: true },
  ];
  const feesKept = feesKeptSinceStrike(last, live.sharePrice);
  return { points, feesKept };
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

/** The chart's ranges: the last day, the last week, or everything the chart window holds. */
export const CHART_RANGES = ["24h", "7d", "all"] as const;
export type ChartRange = (typeof CHART_RANGES)[number];

const RANGE_SECONDS: Record<ChartRange, number> = { "24h": 86_400, "7d": 7 * 86_400, all: Infinity };

/**
 * The strikes a range draws: those in its last `range` before the latest strike, led by the strike in
 * force when the range starts (so the line begins at the range's start, not at its first change).
 */
export function pointsInRange(points: readonly NavPoint[], range: ChartRange): NavPoint[] {
  const last = points.at(-1);
  if (last === undefined || range === "all") {
    return [...points];
  }
  const from = last.time - RANGE_SECONDS[range];
  const firstInside = points.findIndex((point) => point.time >= from);
  return points.slice(Math.max(0, firstInside - 1));
}

/**
 * The smallest price range the chart's axis spans, as a fraction of the price: a 0.011% move in a
 * young vault is a gentle slope on a 0.2% axis, not a cliff from the bottom to the top.
 */
export const MIN_PRICE_RANGE_FRACTION = 0.002;

export interface AxisTick {
  value: number;
  /** Position along the axis in the box (y for prices, x for times). */
  at: number;
}

export interface ChartPoint {
  x: number;
  y: number;
  time: number;
  sharePrice: number;
}

export interface ChartGeometry {
  /** SVG path of the line, in a width × height box. */
  line: string;
  /** The same line closed along the bottom, for the fill under it. */
  area: string;
  /** The axis' bounds: the prices' own, widened to at least MIN_PRICE_RANGE_FRACTION of the price. */
  minPrice: number;
  maxPrice: number;
  startTime: number;
  endTime: number;
  /** Three price ticks (bottom, middle, top of the axis) and three time ticks (start, middle, end). */
  priceTicks: AxisTick[];
  timeTicks: AxisTick[];
  points: ChartPoint[];
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
  const mid = (minPrice + maxPrice) / 2;
  const minRange = Math.max(Math.abs(mid) * MIN_PRICE_RANGE_FRACTION, 1e-9);
  if (maxPrice - minPrice < minRange) {
    minPrice = mid - minRange / 2;
    maxPrice = mid + minRange / 2;
  }
  const span = Math.max(1, last.time - first.time);
  const x = (time: number): number => padding + ((time - first.time) / span) * (width - 2 * padding);
  const y = (price: number): number =>
    height - padding - ((price - minPrice) / (maxPrice - minPrice)) * (height - 2 * padding);
  const chartPoints = points.map((point) => ({
    x: x(point.time),
    y: y(point.sharePrice),
    time: point.time,
    sharePrice: point.sharePrice,
  }));
  const coordinates = chartPoints.map((point) => `${point.x.toFixed(2)},${point.y.toFixed(2)}`);
  const line = `M${coordinates.join("L")}`;
  const bottom = (height - padding).toFixed(2);
  const area = `${line}L${x(last.time).toFixed(2)},${bottom}L${x(first.time).toFixed(2)},${bottom}Z`;
  const priceTicks = [minPrice, (minPrice + maxPrice) / 2, maxPrice].map((value) => ({
    value,
    at: y(value),
  }));
  const timeTicks = [first.time, (first.time + last.time) / 2, last.time].map((value) => ({
    value,
    at: x(value),
  }));
  return {
    line,
    area,
    minPrice,
    maxPrice,
    startTime: first.time,
    endTime: last.time,
    priceTicks,
    timeTicks,
    points: chartPoints,
  };
}

/** The point nearest to `x` in the box (points in time order), for the chart's readout. */
export function nearestPoint(points: readonly ChartPoint[], x: number): ChartPoint | null {
  let best: ChartPoint | null = null;
  for (const point of points) {
    if (best === null || Math.abs(point.x - x) < Math.abs(best.x - x)) {
      best = point;
    }
  }
  return best;
}

/**
 * Fraction digits that tell an axis' ticks apart: enough for a tenth of the step between them, at least
 * 2 and at most 8 (1.000000, 1.001000, 1.002000 → 4: "1.0000", "1.0010", "1.0020").
 */
export function tickDecimals(minPrice: number, maxPrice: number): number {
  const step = (maxPrice - minPrice) / 2;
  if (!(step > 0)) {
    return 6;
  }
  // Less a hair, so a step of 0.001 computed as 0.000999… asks for 4 digits, not 5.
  return Math.min(8, Math.max(2, Math.ceil(-Math.log10(step / 10) - 1e-9)));
}
