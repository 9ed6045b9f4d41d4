import { describe, expect, it } from "vitest";

import { arrivalBandText, formatClock, relativeFromNow } from "./time";

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
});
