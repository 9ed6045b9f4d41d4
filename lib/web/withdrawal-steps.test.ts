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
      earliest: new Date(NOW + 40_000).toISOString(),
      latest: new Date(NOW + 2 * 60_000).toISOString(),
    },
    awaiting: ["nav"],
  },
  fundedFraction: 1,
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

  it("waiting for the NAV with the queue funded: Funded is done, not 'upcoming · 100% funded' (issue 29)", () => {
    const steps = withdrawalSteps(waitingForNav, NOW, utc);
    expect(steps.map((step) => `${step.key}:${step.state}`)).toEqual([
      "requested:done",
      "funded:done",
      "nav:current",
      "ready:upcoming",
      "claimed:upcoming",
    ]);
    expect(steps[0]?.detail).toBe("13:57 UTC (~3 min ago)");
    expect(steps[1]?.detail).toBe("the queue is funded up to your request");
    expect(steps.map((step) => step.detail)).not.toContain("100% funded");
  });

  it("measures 'in ~N' to the band's start, not its end (issue 29: 'in ~80 s' for a band starting in 15 s)", () => {
    expect(withdrawalSteps(waitingForNav, NOW, utc)[3]?.detail).toBe(
      "expected between 14:00 UTC and 14:02 UTC (in ~40 s)",
    );
    const started = {
      ...waitingForNav,
      estimate: {
        kind: "nav" as const,
        band: { earliest: new Date(NOW).toISOString(), latest: new Date(NOW + 80_000).toISOString() },
        awaiting: ["nav" as const],
      },
    };
    expect(withdrawalSteps(started, NOW, utc)[3]?.detail).toBe(
      "expected between 14:00 UTC and 14:01 UTC (from now on)",
    );
  });

  it("dates the expected band when it crosses midnight or ends more than 12 h away", () => {
    const late = Date.UTC(2026, 10, 26, 23, 50);
    const input: StepsInput = {
      ...waitingForNav,
      estimate: {
        kind: "staging",
        band: {
          earliest: new Date(late + 5 * 60_000).toISOString(),
          latest: new Date(late + 20 * 60_000).toISOString(),
        },
        awaiting: ["staging"],
      },
    };
    expect(withdrawalSteps(input, late, utc)[3]?.detail).toBe(
      "expected between 26 Nov, 23:55 UTC and 27 Nov, 00:10 UTC (in ~5 min)",
    );
  });

  it("never ticks 'NAV struck' for a strike made before the request (issue 29)", () => {
    // The staging binds (its time is later), but no strike has come since the request.
    const input: StepsInput = {
      ...waitingForNav,
      estimate: { kind: "staging", band: null, awaiting: ["nav", "staging"] },
      fundedFraction: 0.4,
    };
    const steps = withdrawalSteps(input, NOW, utc);
    expect(steps.map((step) => `${step.key}:${step.state}`)).toEqual([
      "requested:done",
      "nav:current",
      "funded:current",
      "ready:upcoming",
      "claimed:upcoming",
    ]);
    expect(steps[1]?.detail).toBe("waiting for the vault's next NAV strike after your request");
    expect(steps[2]?.detail).toBe("40% funded");
    // An indexed strike from before the request (the milestone source's floor slipped) is not taken.
    const stale = withdrawalSteps(
      {
        ...input,
        estimate: { kind: "staging", band: null },
        milestones: {
          navStruckAt: new Date(NOW - 5 * 60_000).toISOString(),
          fundedAt: null,
          claimableAt: null,
        },
      },
      NOW,
      utc,
    );
    expect(stale[1]?.state).toBe("current");
  });

  it("lists the steps done in the order they happened (issue 29: 'NAV struck 12:49' before 'Funded 12:48')", () => {
    const steps = withdrawalSteps(
      {
        ...waitingForNav,
        canClaimNow: true,
        estimate: { kind: "ready", band: null, awaiting: [] },
        milestones: {
          navStruckAt: new Date(NOW - 60_000).toISOString(),
          fundedAt: new Date(NOW - 120_000).toISOString(),
          claimableAt: new Date(NOW - 60_000).toISOString(),
        },
      },
      NOW,
      utc,
    );
    expect(steps.map((step) => [step.label, step.detail])).toEqual([
      ["Requested", "13:57 UTC (~3 min ago)"],
      ["Funded", "13:58 UTC (~2 min ago)"],
      ["NAV struck", "13:59 UTC (~60 s ago)"],
      ["Claimable", "since 13:59 UTC (~60 s ago)"],
      ["Claimed", "claim it below"],
    ]);
  });

  it("waiting for the queue, then ready, then the claim is what is left", () => {
    const staging = {
      ...waitingForNav,
      estimate: { kind: "staging" as const, band: null, awaiting: ["staging" as const] },
      fundedFraction: 0.4,
    };
    expect(states(staging)).toEqual([
      "requested:done",
      "nav:done",
      "funded:current",
      "ready:upcoming",
      "claimed:upcoming",
    ]);
    expect(withdrawalSteps(staging, NOW, utc)[1]?.detail).toBe("struck after your request");
    const ready = {
      ...waitingForNav,
      canClaimNow: true,
      estimate: { kind: "ready" as const, band: null, awaiting: [] },
    };
    expect(states(ready)).toEqual([
      "requested:done",
      "nav:done",
      "funded:done",
      "ready:done",
      "claimed:current",
    ]);
  });

  it("says nothing it does not know: no request time", () => {
    const steps = withdrawalSteps({ ...waitingForNav, createdAt: null }, NOW, utc);
    expect(steps[0]?.detail).toBe("");
  });

  it("with the milestones: when the NAV was struck, the queue funded, and since when it is claimable", () => {
    const ready: StepsInput = {
      ...waitingForNav,
      canClaimNow: true,
      estimate: { kind: "ready", band: null, awaiting: [] },
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
