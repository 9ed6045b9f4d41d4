import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { vaultAccount } from "../../../tests/fixtures/vault-account";
import type { VaultAccount, WithdrawalReceiptAccount } from "../program/accounts";
import { StagingPace } from "../model/staging-pace";
import { capWindow } from "../model/cap-window";
import { estimateArrival, holeSharesBetween, withdrawalProgress } from "./withdrawal-status";

const key = PublicKey.default;
const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const schedule = { navIntervalSeconds: 60, stageIntervalSeconds: 20 };

function vault(overrides: Partial<VaultAccount>): VaultAccount {
  return vaultAccount({ navUpdatedAt: BigInt(NOW / 1000 - 30), ...overrides });
}

const receipt: WithdrawalReceiptAccount = {
  vault: key,
  owner: key,
  shares: 100n,
  assetsAtRequest: 100n,
  navFloor: 5n,
  requestId: 2n,
  requestedAt: BigInt(NOW / 1000 - 10),
  queueStart: 200n,
  queueEnd: 300n,
  feeBps: 10,
  bump: 0,
  lastHolderExit: false,
};

describe("withdrawal progress", () => {
  it("counts staged shares of this request and the shares still ahead of it", () => {
    expect(withdrawalProgress(vault({ queueFunded: 150n }), receipt)).toEqual({
      stagedShares: "0",
      totalShares: "100",
      sharesAhead: "50",
      fraction: 0,
    });
    expect(withdrawalProgress(vault({ queueFunded: 225n }), receipt)).toMatchObject({
      stagedShares: "25",
      sharesAhead: "0",
      fraction: 0.25,
    });
    expect(withdrawalProgress(vault({ queueFunded: 900n }), receipt)).toMatchObject({
      stagedShares: "100",
      fraction: 1,
    });
  });

  it("does not count cancelled requests (holes) between the funded frontier and this one as ahead", () => {
    // Funded to 150; holes [160, 180) and [190, 250) (the second partly beyond this request's start,
    // which a real queue never has: only its part before 200 counts); 50 − 20 − 10 = 20 ahead.
    const holes = [
      { start: 160n, end: 180n },
      { start: 190n, end: 250n },
      { start: 400n, end: 500n },
    ];
    expect(withdrawalProgress(vault({ queueFunded: 150n }), receipt, holes).sharesAhead).toBe("20");
    expect(holeSharesBetween(holes, 150n, 200n)).toBe(30n);
    expect(holeSharesBetween(holes, 0n, 1_000n)).toBe(180n);
    expect(holeSharesBetween([], 0n, 1_000n)).toBe(0n);
  });
});

describe("arrival estimate", () => {
  it("is ready without a band when claimable", () => {
    expect(estimateArrival(vault({}), receipt, true, NOW, schedule, 1)).toEqual({
      kind: "ready",
      band: null,
    });
  });

  it("waits on the next NAV strike when the queue is funded", () => {
    const estimate = estimateArrival(vault({ queueFunded: 300n }), receipt, false, NOW, schedule, null);
    expect(estimate).toEqual({
      kind: "nav",
      band: { earliest: new Date(NOW + 30_000).toISOString(), latest: new Date(NOW + 90_000).toISOString() },
    });
  });

  it("waits on staging at the observed pace when the NAV has passed the floor", () => {
    const estimate = estimateArrival(vault({ navSequence: 6n }), receipt, false, NOW, schedule, 10);
    // 150 shares at 10/s: 15 s; late edge twice that plus one staging interval.
    expect(estimate).toEqual({
      kind: "staging",
      band: { earliest: new Date(NOW + 15_000).toISOString(), latest: new Date(NOW + 50_000).toISOString() },
    });
  });

  it("leaves the holes before the request out of the shares still to stage", () => {
    // 150 shares to go, 50 of them a cancelled request's hole: 100 at 10/s, 10 s; late edge 20 + 20 s.
    const estimate = estimateArrival(vault({ navSequence: 6n }), receipt, false, NOW, schedule, 10, [
      { start: 160n, end: 210n },
    ]);
    expect(estimate).toEqual({
      kind: "staging",
      band: { earliest: new Date(NOW + 10_000).toISOString(), latest: new Date(NOW + 40_000).toISOString() },
    });
  });

  it("names the later condition and has no band while the pace is unknown", () => {
    expect(estimateArrival(vault({}), receipt, false, NOW, schedule, null)).toEqual({
      kind: "staging",
      band: null,
    });
    expect(estimateArrival(vault({}), receipt, false, NOW, schedule, 1)?.kind).toBe("staging");
    expect(estimateArrival(vault({}), receipt, false, NOW, schedule, 1_000)?.kind).toBe("nav");
  });
});

describe("staging pace", () => {
  it("is funded shares over elapsed time, null without progress", () => {
    const pace = new StagingPace();
    pace.observe("v", 0, 100n);
    expect(pace.sharesPerSecond("v")).toBeNull();
    pace.observe("v", 10_000, 100n);
    expect(pace.sharesPerSecond("v")).toBeNull();
    pace.observe("v", 20_000, 300n);
    expect(pace.sharesPerSecond("v")).toBe(10);
  });
});

describe("cap windows", () => {
  it("roll over on UTC boundaries and report what remains", () => {
    const hourStart = BigInt(NOW / 1000);
    const hour = (cap: bigint, windowStart: bigint, used: bigint) => ({
      cap,
      used,
      windowStart,
      length: 3600,
    });
    expect(capWindow(hour(100n, hourStart, 40n), NOW / 1000 + 10)).toEqual({
      cap: 100n,
      used: 40n,
      remaining: 60n,
      resetsAt: NOW / 1000 + 3600,
    });
    expect(capWindow(hour(100n, hourStart - 3600n, 40n), NOW / 1000).used).toBe(0n);
    expect(capWindow(hour(0n, 0n, 5n), NOW / 1000).remaining).toBeNull();
    expect(capWindow(hour(10n, hourStart, 40n), NOW / 1000).remaining).toBe(0n);
  });
});
