import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { Progress } from "./progress";

describe("progress of slow start-up work", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("says what is pending and for how long every few seconds, until it is done", () => {
    const said: string[] = [];
    const progress = new Progress((pending) => said.push(pending), { everyMs: 5_000 });
    const home = progress.begin("/");
    vi.advanceTimersByTime(4_000);
    expect(said).toEqual([]);
    const vault = progress.begin("/vault/abc");
    vi.advanceTimersByTime(1_000);
    expect(said).toEqual(["/ (5 s), /vault/abc (1 s)"]);
    home();
    vi.advanceTimersByTime(5_000);
    expect(said.at(-1)).toBe("/vault/abc (6 s)");
    vault();
    vi.advanceTimersByTime(60_000);
    expect(said).toHaveLength(2);
  });

  it("keeps quiet while other news is heard, and speaks after a quiet spell", () => {
    const said: string[] = [];
    const progress = new Progress((pending) => said.push(pending), { everyMs: 5_000 });
    const done = progress.begin("app");
    for (let second = 0; second < 20; second += 1) {
      vi.advanceTimersByTime(1_000);
      progress.heard();
    }
    expect(said).toEqual([]);
    vi.advanceTimersByTime(5_000);
    expect(said).toEqual(["app (25 s)"]);
    done();
  });

  it("tells the same work begun twice apart", () => {
    const said: string[] = [];
    const progress = new Progress((pending) => said.push(pending), { everyMs: 1_000 });
    const first = progress.begin("/");
    const second = progress.begin("/");
    vi.advanceTimersByTime(1_000);
    expect(said).toEqual(["/ (1 s), / #2 (1 s)"]);
    first();
    second();
  });
});
