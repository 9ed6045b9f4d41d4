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

/**
 * "arrives between 14:05 and 14:35". Minutes round outward (earliest down, latest up), so a band of a
 * few seconds still reads as a real window and never promises earlier than computed.
 */
export function arrivalBandText(
  band: { earliest: string; latest: string },
  options: ClockOptions = {},
): string {
  const earliest = Math.floor(Date.parse(band.earliest) / 60_000) * 60_000;
  let latest = Math.ceil(Date.parse(band.latest) / 60_000) * 60_000;
  if (latest <= earliest) {
    latest = earliest + 60_000;
  }
  return `arrives between ${formatClock(earliest, options)} and ${formatClock(latest, options)}`;
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
