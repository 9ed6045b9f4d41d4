import { describe, expect, it } from "vitest";

import {
  arrivedText,
  clockWithZone,
  roughlyFromNow,
  withdrawalSteps,
  type StepsInput,
} from "./withdrawal-steps";

const NOW = Date.UTC(2026, 10, 26, 14, 0);
const utc = { timeZone: "UTC" };
const berlin = { timeZone: "Europe/Berlin" };

const waitingForNav: StepsInput = {
  canClaimNow: false,
  createdAt: new Date(NOW - 3 * 60_000).toISOString(),
  estimate: {
    kind: "nav",
    band: {
      earliest: new Date(NOW + 60_000).toISOString(),
      latest: new Date(NOW + 2 * 60_000).toISOString(),
    },
  },
  fundedFraction: 1,
  lastNavAt: BigInt((NOW - 10 * 60_000) / 1000),
};

function states(input: StepsInput) {
  return withdrawalSteps(input, NOW, utc).map((step) => `${step.key}:${step.state}`);
}

describe("the pending withdrawal's steps", () => {
  it("times carry the reader's zone and a rough distance", () => {
    expect(clockWithZone(NOW, utc)).toBe("14:00 UTC");
    expect(clockWithZone(NOW, berlin)).toBe("15:00 CET");
    expect(roughlyFromNow(NOW + 2 * 60_000, NOW)).toBe("in ~2 min");
    expect(roughlyFromNow(NOW - 3 * 60_000, NOW)).toBe("~3 min ago");
    expect(roughlyFromNow(NOW + 42_000, NOW)).toBe("in ~40 s");
    expect(roughlyFromNow(NOW + 3_000, NOW)).toBe("just now");
    expect(roughlyFromNow(NOW + 5 * 3_600_000, NOW)).toBe("in ~5 h");
  });

  it("waiting for the NAV: a queue already funded is not shown as done, the arrival is expected with its zone", () => {
    const steps = withdrawalSteps(waitingForNav, NOW, utc);
    expect(steps.map((step) => `${step.key}:${step.state}`)).toEqual([
      "requested:done",
      "nav:current",
      "funded:upcoming",
      "ready:upcoming",
      "claimed:upcoming",
    ]);
    expect(steps[0]?.detail).toBe("13:57 UTC (~3 min ago)");
    expect(steps[2]?.detail).toBe("100% funded");
    expect(steps[3]?.detail).toBe("expected between 14:01 UTC and 14:02 UTC (in ~2 min)");
  });

  it("waiting for the queue, then ready, then the claim is what is left", () => {
    expect(
      states({ ...waitingForNav, estimate: { kind: "staging", band: null }, fundedFraction: 0.4 }),
    ).toEqual(["requested:done", "nav:done", "funded:current", "ready:upcoming", "claimed:upcoming"]);
    const staging = withdrawalSteps(
      { ...waitingForNav, estimate: { kind: "staging", band: null }, fundedFraction: 0.4 },
      NOW,
      utc,
    );
    expect(staging[1]?.detail).toBe("last strike 13:50 UTC (~10 min ago)");
    expect(staging[2]?.detail).toBe("40% funded");
    const ready = { ...waitingForNav, canClaimNow: true, estimate: { kind: "ready" as const, band: null } };
    expect(states(ready)).toEqual([
      "requested:done",
      "nav:done",
      "funded:done",
      "ready:done",
      "claimed:current",
    ]);
  });

  it("says nothing it does not know: no request time, no strike yet", () => {
    const steps = withdrawalSteps(
      { ...waitingForNav, createdAt: null, estimate: { kind: "staging", band: null }, lastNavAt: 0n },
      NOW,
      utc,
    );
    expect(steps[0]?.detail).toBe("");
    expect(steps[1]?.detail).toBe("");
  });

  it("with the milestones: when the NAV was struck, the queue funded, and since when it is claimable", () => {
    const ready: StepsInput = {
      ...waitingForNav,
      canClaimNow: true,
      estimate: { kind: "ready", band: null },
      milestones: {
        navStruckAt: new Date(NOW - 150_000).toISOString(),
        fundedAt: new Date(NOW - 120_000).toISOString(),
        claimableAt: new Date(NOW - 120_000).toISOString(),
      },
    };
    const steps = withdrawalSteps(ready, NOW, utc);
    expect(steps.map((step) => [step.label, step.detail])).toEqual([
      ["Requested", "13:57 UTC (~3 min ago)"],
      ["NAV struck", "13:57 UTC (~3 min ago)"],
      ["Funded", "13:58 UTC (~2 min ago)"],
      ["Claimable", "since 13:58 UTC (~2 min ago)"],
      ["Claimed", "claim it below"],
    ]);
    // In the reader's locale: a US reader sees a 12-hour clock.
    expect(withdrawalSteps(ready, NOW, { timeZone: "UTC", locale: "en-US" })[1]?.detail).toBe(
      "1:57 PM UTC (~3 min ago)",
    );
    // The chain's clock a little ahead of the reader's: a strike already made is not "in ~10 s".
    const ahead: StepsInput = {
      ...ready,
      milestones: {
        navStruckAt: new Date(NOW + 12_000).toISOString(),
        fundedAt: null,
        claimableAt: null,
      },
    };
    expect(withdrawalSteps(ahead, NOW, utc)[1]?.detail).toBe("14:00 UTC (just now)");
    // Milestones not indexed yet: the page falls back to what the vault's state says.
    expect(withdrawalSteps({ ...ready, milestones: null }, NOW, utc)[3]?.detail).toBe("claimable now");
  });

  it("says a delivered withdrawal arrived, with its amount and time; not the owner's own claim, not days later", () => {
    const delivered = { claimedAt: new Date(NOW - 2 * 60_000).toISOString(), claimedBy: "keeper" };
    expect(arrivedText(delivered, "99.90 USDC", NOW, utc)).toBe(
      "Arrived: 99.90 USDC in your wallet at 13:58 UTC",
    );
    expect(arrivedText(delivered, "99.90 USDC", NOW, berlin)).toBe(
      "Arrived: 99.90 USDC in your wallet at 14:58 CET",
    );
    expect(arrivedText({ ...delivered, claimedBy: "owner" }, "99.90 USDC", NOW, utc)).toBeNull();
    expect(arrivedText({ ...delivered, claimedAt: null }, "99.90 USDC", NOW, utc)).toBeNull();
    expect(arrivedText(delivered, "99.90 USDC", NOW + 25 * 3_600_000, utc)).toBeNull();
    expect(arrivedText(null, "99.90 USDC", NOW, utc)).toBeNull();
  });
});
