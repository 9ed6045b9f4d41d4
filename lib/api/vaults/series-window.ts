// The window of a series read (portfolio-, pnl- and nav-history): defaults, the order of from and to,
// and the cap on points, each refused with a 400 that names the field to change.
import { seriesPointCount, seriesTimestamps, type SeriesInterval } from "../../vault/model/series-timestamps";
import { ApiError } from "../errors";
import { DEFAULT_SERIES_DAYS, MAX_SERIES_POINTS } from "../schemas/position-history";

const DAY_MS = 86_400_000;

export interface SeriesWindow {
  fromMs: number;
  toMs: number;
  interval: SeriesInterval;
  timestamps: number[];
}

export function resolveSeriesWindow(
  query: { from?: number; to?: number; interval?: SeriesInterval },
  nowMs: number,
): SeriesWindow {
  // A point after now would show today's position under a future date.
  const toMs = Math.min(query.to ?? nowMs, nowMs);
  const fromMs = query.from ?? toMs - DEFAULT_SERIES_DAYS * DAY_MS;
  const interval = query.interval ?? "day";
  if (fromMs > toMs) {
    throw new ApiError(
      "INVALID_REQUEST",
      `from: must not be after to (${new Date(toMs).toISOString()}${query.to === undefined || query.to > nowMs ? ", now" : ""})`,
    );
  }
  const count = seriesPointCount(fromMs, toMs, interval);
  if (count > MAX_SERIES_POINTS) {
    throw new ApiError(
      "INVALID_REQUEST",
      `interval: ${new Date(fromMs).toISOString()} to ${new Date(toMs).toISOString()} by ${interval} is ${count} points; at most ${MAX_SERIES_POINTS} per response: choose a longer interval or a shorter from–to window`,
    );
  }
  return { fromMs, toMs, interval, timestamps: seriesTimestamps(fromMs, toMs, interval) };
}

export function seriesFields(vaultId: string, window: SeriesWindow) {
  return {
    vaultId,
    from: new Date(window.fromMs).toISOString(),
    to: new Date(window.toMs).toISOString(),
    interval: window.interval,
  };
}
