import { describe, expect, it } from "vitest";

import { DAY_SECONDS, HOUR_SECONDS, capWindow, firstOverflow, storedWindows, windowsAt } from "./cap-window";

const HOUR = HOUR_SECONDS;

describe("capWindow", () => {
  it("keeps the stored usage inside the window and rolls over after it, as the program does", () => {
    const window = { cap: 100n, used: 60n, windowStart: 36_000n, length: HOUR };
    expect(capWindow(window, 36_000 + 10)).toEqual({
      cap: 100n,
      used: 60n,
      remaining: 40n,
      resetsAt: 39_600,
    });
    expect(capWindow(window, 39_600)).toEqual({ cap: 100n, used: 0n, remaining: 100n, resetsAt: 43_200 });
    expect(capWindow({ ...window, cap: 0n }, 36_010).remaining).toBeNull();
    expect(capWindow({ ...window, used: 150n }, 36_010).remaining).toBe(0n);
  });
});

describe("the vault's two windows", () => {
  const stored = storedWindows({
    hourlyCap: 100n,
    hourlyUsed: 60n,
    hourlyWindowStart: 36_000n,
    dailyCap: 1_000n,
    dailyUsed: 950n,
    dailyWindowStart: 0n,
  });

  it("are read from the account's six fields with their lengths", () => {
    expect(stored).toEqual({
      hourly: { cap: 100n, used: 60n, windowStart: 36_000n, length: HOUR },
      daily: { cap: 1_000n, used: 950n, windowStart: 0n, length: DAY_SECONDS },
    });
  });

  it("name the first one a withdrawal overflows, hourly before daily, or none", () => {
    const windows = windowsAt(stored, 36_010);
    expect(firstOverflow(windows, 40n)).toBeNull();
    expect(firstOverflow(windows, 41n)).toEqual({
      window: "hourly",
      capacity: { cap: 100n, used: 60n, remaining: 40n, resetsAt: 39_600 },
    });
    // Next hour: the hourly window is empty again, the daily one still holds 950.
    const later = windowsAt(stored, 39_600);
    expect(firstOverflow(later, 51n)).toEqual({
      window: "daily",
      capacity: { cap: 1_000n, used: 950n, remaining: 50n, resetsAt: 86_400 },
    });
    expect(
      firstOverflow(windowsAt({ ...stored, hourly: { ...stored.hourly, cap: 0n } }, 36_010), 50n),
    ).toBeNull();
  });
});
