import { afterEach, describe, expect, it, vi } from "vitest";

import { withRoomInWindow } from "./window-room";

afterEach(() => {
  vi.useRealTimers();
});

async function waitedMs(at: string, window: "hourly" | "daily"): Promise<number> {
  vi.useFakeTimers();
  vi.setSystemTime(new Date(at));
  const started = Date.now();
  let done = false;
  const waiting = withRoomInWindow(window, 120).then(() => {
    done = true;
  });
  await vi.runAllTimersAsync();
  await waiting;
  expect(done).toBe(true);
  return Date.now() - started;
}

describe("withRoomInWindow", () => {
  it("goes on at once with two minutes or more left in the window", async () => {
    expect(await waitedMs("2026-11-28T16:57:59.000Z", "hourly")).toBe(0);
    expect(await waitedMs("2026-11-28T23:57:00.000Z", "daily")).toBe(0);
  });

  it("waits into the next window when the roll-over is closer", async () => {
    // 16:59:30 → 17:00:01, the new hourly window's first second.
    expect(await waitedMs("2026-11-28T16:59:30.000Z", "hourly")).toBe(31_000);
    expect(await waitedMs("2026-11-28T23:59:00.000Z", "daily")).toBe(61_000);
  });
});
