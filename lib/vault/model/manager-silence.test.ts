import { describe, expect, it } from "vitest";

import { navSilent } from "./manager-silence";

describe("navSilent (the program's exit after a long silence)", () => {
  const struck = 1_767_225_600n;
  it("starts 7 days after the last strike by default (silence_seconds 0), to the second", () => {
    const state = { navUpdatedAt: struck, silenceSeconds: 0 };
    expect(navSilent(state, Number(struck + 604_799n) * 1000)).toBe(false);
    expect(navSilent(state, Number(struck + 604_800n) * 1000)).toBe(true);
  });

  it("follows the period the admin set for the vault", () => {
    const state = { navUpdatedAt: struck, silenceSeconds: 86_400 };
    expect(navSilent(state, Number(struck + 86_399n) * 1000 + 999)).toBe(false);
    expect(navSilent(state, Number(struck + 86_400n) * 1000)).toBe(true);
  });
});
