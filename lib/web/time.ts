// Times as the pages say them, in the reader's locale and time zone: one format for a time of day
// ("14:05" in de-DE and en-GB, "2:05 PM" in en-US), with the date when it is not within the same day
// and the zone where it matters; and the withdrawal's arrival band.

export interface ClockOptions {
  /** For tests; the reader's zone by default. */
  timeZone?: string;
  /** The reader's locale; en-GB (a 24-hour clock) when absent, as in server-made messages. */
  locale?: string;
  /** Add the zone's short name ("14:05 GMT+1"), for a time a person may compare with another place's. */
  zone?: boolean;
}

const DEFAULT_CLOCK_LOCALE = "en-GB";

/** "2-digit" for a 24-hour locale ("00:48"), "numeric" for a 12-hour one ("12:48 AM", "2:05 PM"). */
function hourStyle(locale: string): "numeric" | "2-digit" {
  const cycle = new Intl.DateTimeFormat(locale, { hour: "numeric" }).resolvedOptions().hourCycle;
  return cycle === "h11" || cycle === "h12" ? "numeric" : "2-digit";
}

function asDate(time: Date | number | string): Date {
  return time instanceof Date ? time : new Date(time);
}

/** "14:05" (en-GB, de-DE), "2:05 PM" (en-US): the reader's own way to write a time of day. */
export function formatClock(time: Date | number | string, options: ClockOptions = {}): string {
  const locale = options.locale ?? DEFAULT_CLOCK_LOCALE;
  return new Intl.DateTimeFormat(locale, {
    hour: hourStyle(locale),
    minute: "2-digit",
    timeZone: options.timeZone,
    timeZoneName: options.zone === true ? "short" : undefined,
  }).format(asDate(time));
}

/** "Nov 22, 14:05" (en-GB "22 Nov, 14:05", de-DE "22. Nov., 14:05"), the same clock as formatClock. */
export function formatDateTime(time: Date | number | string, options: ClockOptions = {}): string {
  const locale = options.locale ?? DEFAULT_CLOCK_LOCALE;
  return new Intl.DateTimeFormat(locale, {
    month: "short",
    day: "numeric",
    hour: hourStyle(locale),
    minute: "2-digit",
    timeZone: options.timeZone,
    timeZoneName: options.zone === true ? "short" : undefined,
  }).format(asDate(time));
}

function calendarDay(timeMs: number, options: ClockOptions): string {
  return new Intl.DateTimeFormat("en-CA", {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    timeZone: options.timeZone,
  }).format(new Date(timeMs));
}

/**
 * A time as a person needs it relative to now: the clock alone when it falls on today's date and
 * within 12 h, otherwise with its date ("Resets at 01:00" 24 h away is "Nov 29, 01:00 GMT+1").
 */
export function formatWhen(timeMs: number, nowMs: number, options: ClockOptions = {}): string {
  const sameDay = calendarDay(timeMs, options) === calendarDay(nowMs, options);
  return sameDay && Math.abs(timeMs - nowMs) <= 12 * 3_600_000
    ? formatClock(timeMs, options)
    : formatDateTime(timeMs, options);
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
