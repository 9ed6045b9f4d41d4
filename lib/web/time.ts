// Times as the pages say them: "14:05" in the reader's time zone, and the withdrawal's arrival band.

export interface ClockOptions {
  /** For tests; the reader's zone by default. */
  timeZone?: string;
}

/** "14:05" (24-hour clock). */
export function formatClock(time: Date | number | string, options: ClockOptions = {}): string {
  const date = time instanceof Date ? time : new Date(time);
  return new Intl.DateTimeFormat("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: options.timeZone,
  }).format(date);
}

/** "Nov 22, 14:05". */
export function formatDateTime(time: Date | number | string, options: ClockOptions = {}): string {
  const date = time instanceof Date ? time : new Date(time);
  return new Intl.DateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: options.timeZone,
  }).format(date);
}

/** The calendar day of a time in the reader's zone, as "2026-11-22". */
function dayOf(timeMs: number, options: ClockOptions): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: options.timeZone }).format(new Date(timeMs));
}

/** How far ahead a time of day alone is unambiguous; further, a time carries its date. */
const UNDATED_AHEAD_MS = 12 * 3_600_000;

/**
 * Whether a band's times need their date: either edge is on another day than today (the band crosses
 * midnight, or starts tomorrow), or it ends more than 12 h from now.
 */
export function bandNeedsDate(
  earliestMs: number,
  latestMs: number,
  nowMs: number,
  options: ClockOptions = {},
): boolean {
  const today = dayOf(nowMs, options);
  return (
    dayOf(earliestMs, options) !== today ||
    dayOf(latestMs, options) !== today ||
    latestMs - nowMs > UNDATED_AHEAD_MS
  );
}

/**
 * "arrives between 14:05 and 14:35", or with dates ("between Nov 22, 23:50 and Nov 23, 00:20") when
 * the band is not all today or ends more than 12 h away. Minutes round outward (earliest down, latest
 * up), so a band of a few seconds still reads as a real window and never promises earlier than computed.
 */
export function arrivalBandText(
  band: { earliest: string; latest: string },
  nowMs: number,
  options: ClockOptions = {},
): string {
  const earliest = Math.floor(Date.parse(band.earliest) / 60_000) * 60_000;
  let latest = Math.ceil(Date.parse(band.latest) / 60_000) * 60_000;
  if (latest <= earliest) {
    latest = earliest + 60_000;
  }
  const format = bandNeedsDate(earliest, latest, nowMs, options) ? formatDateTime : formatClock;
  return `arrives between ${format(earliest, options)} and ${format(latest, options)}`;
}

/** "in 3 min", "in 45 s", "now". */
export function relativeFromNow(timeMs: number, nowMs: number): string {
  const seconds = Math.round((timeMs - nowMs) / 1000);
  if (seconds <= 0) {
    return "now";
  }
  if (seconds < 90) {
    return `in ${seconds} s`;
  }
  return `in ${Math.round(seconds / 60)} min`;
}
