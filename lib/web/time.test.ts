import { describe, expect, it } from "vitest";

import { arrivalBandText, formatClock, formatDateTime, formatWhen, relativeFromNow } from "./time";

const utc = { timeZone: "UTC" };

describe("times in words", () => {
  it("formats a 24-hour clock", () => {
    expect(formatClock("2026-11-22T14:05:59Z", utc)).toBe("14:05");
    expect(formatClock(Date.UTC(2026, 0, 1, 0, 0), utc)).toBe("00:00");
  });

  it("says the arrival band with minutes rounded outward", () => {
    expect(arrivalBandText({ earliest: "2026-11-22T14:05:40Z", latest: "2026-11-22T14:34:10Z" }, utc)).toBe(
      "arrives between 14:05 and 14:35",
    );
    expect(arrivalBandText({ earliest: "2026-11-22T14:05:10Z", latest: "2026-11-22T14:05:20Z" }, utc)).toBe(
      "arrives between 14:05 and 14:06",
    );
  });

  it("says how far away a time is", () => {
    expect(relativeFromNow(1_000, 5_000)).toBe("now");
    expect(relativeFromNow(50_000, 5_000)).toBe("in 45 s");
    expect(relativeFromNow(5_000 + 600_000, 5_000)).toBe("in 10 min");
  });

  it("writes one clock per locale, with the zone when asked (never '12:48 AM GMT+1' beside '00:49')", () => {
    const berlin = { timeZone: "Europe/Berlin" };
    const at = "2026-11-27T23:48:00Z";
    expect(formatClock(at, { ...berlin, locale: "de-DE" })).toBe("00:48");
    expect(formatClock(at, { ...berlin, locale: "de-DE", zone: true })).toBe("00:48 MEZ");
    expect(formatClock(at, { ...berlin, locale: "en-US" })).toBe("12:48 AM");
    expect(formatClock(at, { ...berlin, locale: "en-US", zone: true })).toBe("12:48 AM GMT+1");
    expect(formatDateTime(at, { ...berlin, locale: "de-DE" })).toBe("28. Nov., 00:48");
    expect(formatDateTime(at, { ...berlin, locale: "en-US" })).toBe("Nov 28, 12:48 AM");
  });

  it("dates a time that is not within today (a daily reset 24 h away)", () => {
    const now = Date.parse("2026-11-28T00:00:30Z");
    const inAnHour = Date.parse("2026-11-28T01:00:00Z");
    const tomorrow = Date.parse("2026-11-29T00:00:00Z");
    expect(formatWhen(inAnHour, now, { ...utc, zone: true })).toBe("01:00 UTC");
    expect(formatWhen(tomorrow, now, { ...utc, zone: true })).toBe("29 Nov, 00:00 UTC");
    expect(formatWhen(tomorrow, now, { ...utc, locale: "de-DE", zone: true })).toBe("29. Nov., 00:00 UTC");
    // Same date but more than 12 h away also carries the date.
    expect(formatWhen(Date.parse("2026-11-28T13:00:00Z"), now, utc)).toBe("28 Nov, 13:00");
  });
});
