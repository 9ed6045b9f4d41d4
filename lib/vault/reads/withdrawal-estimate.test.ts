import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { vaultAccount } from "../../../tests/fixtures/vault-account";
import type { VaultState, ReceiptState } from "../program/accounts";
import { estimateArrival, type EstimateInput, type KeeperPace } from "./withdrawal-estimate";
import { nextScheduledStrikeSeconds } from "../model/withdrawal-rules";

const SHARE = 1_000_000_000n; // shares have 9 decimals
const USDC = 1_000_000n;
// 12:00:00 UTC; the NAV periods are minute-aligned.
const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);
const NOW_S = BigInt(NOW / 1000);
// The local chain's keeper: a strike a minute, a staging of at most 25,000 shares every 20 s, a look a second.
const pace: KeeperPace = {
  navIntervalSeconds: 60,
  stageIntervalSeconds: 20,
  stageMaxShares: 25_000n * SHARE,
  keeperTickSeconds: 1,
};
// One tick and one confirmation: how late a due keeper action may land.
const SLACK_MS = 5_000;

const iso = (ms: number) => new Date(ms).toISOString();

/** A vault at 1 USDC per share holding 1,000,000 USDC, struck 44 s ago (NAV #7), queue empty before the request. */
function vault(overrides: Partial<VaultState> = {}): VaultState {
  return vaultAccount({
    totalAssets: 1_000_000n * USDC,
    totalShares: 1_000_000n * SHARE,
    navSequence: 7n,
    navUpdatedAt: NOW_S - 44n,
    queueClaimed: 0n,
    queueFunded: 0n,
    queueTail: 25_000n * SHARE,
    stagedAt: NOW_S - 300n,
    ...overrides,
  });
}

function receipt(shares: bigint, queueStart = 0n, overrides: Partial<ReceiptState> = {}) {
  return {
    vault: PublicKey.default,
    owner: PublicKey.default,
    shares,
    assetsAtRequest: shares / 1_000n,
    navFloor: 7n,
    requestId: 1n,
    requestedAt: NOW_S - 1n,
    queueStart,
    queueEnd: queueStart + shares,
    feeBps: 10,
    bump: 0,
    lastHolderExit: false,
    ...overrides,
  } satisfies ReceiptState;
}

function input(overrides: Partial<EstimateInput> = {}): EstimateInput {
  return {
    state: vault(),
    receipt: receipt(25_000n * SHARE),
    reserveBalance: 1_000_000n * USDC,
    holes: [],
    claimable: false,
    nowMs: NOW,
    ...overrides,
  };
}

describe("the arrival estimate", () => {
  it("gives a 25,000 USDC request seconds, not hours: the next strike 16 s away binds (issue 29's case)", () => {
    // Struck at 12:00:02; requested at 12:00:43, read at 12:00:44.
    const state = vault({ navUpdatedAt: NOW_S + 2n, stagedAt: NOW_S - 300n });
    const request = receipt(25_000n * SHARE, 0n, { requestedAt: NOW_S + 43n });
    const estimate = estimateArrival(input({ state, receipt: request, nowMs: NOW + 44_000 }), pace);
    // The next period starts at 12:01:00, 16 s after now (12:00:44); the staging is due at once.
    expect(estimate).toEqual({
      kind: "nav",
      band: { earliest: iso(NOW + 60_000), latest: iso(NOW + 60_000 + SLACK_MS) },
      awaiting: ["nav", "staging"],
    });
    const hours = (Date.parse(estimate.band?.latest ?? "") - (NOW + 44_000)) / 3_600_000;
    expect(hours).toBeLessThan(0.01);
  });

  it("counts one staging per cap's worth of shares, an interval apart, from the last staging", () => {
    // 60,000 shares ahead of the end: three stagings of ≤ 25,000; the last one was stamped 5 s ago, so
    // the first is due in 15 s (14 s if the keeper looked a second before the stamp), the third 40 s
    // later. NAV already struck past the floor.
    const state = vault({ navSequence: 8n, stagedAt: NOW_S - 5n, queueTail: 60_000n * SHARE });
    const estimate = estimateArrival(
      input({ state, receipt: receipt(10_000n * SHARE, 50_000n * SHARE) }),
      pace,
    );
    expect(estimate).toEqual({
      kind: "staging",
      band: {
        earliest: iso(NOW + 14_000 + 2 * 20_000),
        latest: iso(NOW + 15_000 + 2 * (20_000 + SLACK_MS) + SLACK_MS),
      },
      awaiting: ["staging"],
    });
  });

  it("lets the next staging land a second before an interval past staged_at: the keeper counts from its look", () => {
    // bench:estimates' first run (request #39): the keeper looked at 10:27:55, its staging was stamped
    // 10:27:56 (the chain's whole second turned in between), and it staged again at 10:28:15, an
    // interval after its look; the band said 10:28:16–10:28:21. Here: looked 11:59:55, stamped
    // 11:59:56, read 12:00:01.
    const state = vault({ navSequence: 8n, stagedAt: NOW_S - 4n, queueTail: 10_000n * SHARE });
    const request = receipt(10_000n * SHARE, 0n, { requestedAt: NOW_S });
    const estimate = estimateArrival(input({ state, receipt: request, nowMs: NOW + 1_000 }), pace);
    const stagedAgainMs = NOW - 5_000 + 20_000;
    expect(Date.parse(estimate.band?.earliest ?? "")).toBeLessThanOrEqual(stagedAgainMs);
    // The latest edge still counts from the stamp: the look was at most that late.
    expect(estimate).toEqual({
      kind: "staging",
      band: { earliest: iso(NOW + 15_000), latest: iso(NOW + 16_000 + SLACK_MS) },
      awaiting: ["staging"],
    });
  });

  it("does not count cancelled requests' holes against the cap", () => {
    // 60,000 shares to the end, 40,000 of them a hole: 20,000 to fund, one staging, due at once.
    const state = vault({ navSequence: 8n, queueTail: 60_000n * SHARE });
    const estimate = estimateArrival(
      input({
        state,
        receipt: receipt(10_000n * SHARE, 50_000n * SHARE),
        holes: [{ start: 5_000n * SHARE, end: 45_000n * SHARE }],
      }),
      pace,
    );
    expect(estimate.band).toEqual({ earliest: iso(NOW), latest: iso(NOW + SLACK_MS) });
  });

  it("is the later of the strike and the staging, the latest edge the later of both", () => {
    // Strike due in 16 s; two stagings needed (40,000 shares), the first at once, the second 20 s later.
    const state = vault({ navUpdatedAt: NOW_S + 2n, queueTail: 40_000n * SHARE });
    const request = receipt(40_000n * SHARE, 0n, { requestedAt: NOW_S + 43n });
    const estimate = estimateArrival(input({ state, nowMs: NOW + 44_000, receipt: request }), pace);
    expect(estimate).toEqual({
      kind: "staging",
      band: { earliest: iso(NOW + 64_000), latest: iso(NOW + 44_000 + 25_000 + SLACK_MS) },
      awaiting: ["nav", "staging"],
    });
  });

  it("has no time at all when the reserve's idle assets cannot fund the request", () => {
    // 25,000 shares at 1 USDC need 25,000 USDC idle; the reserve holds 30,000 with 10,000 already owed.
    const state = vault({ navSequence: 8n, queueFunded: 10_000n * SHARE, queueTail: 35_000n * SHARE });
    const estimate = estimateArrival(
      input({ state, receipt: receipt(25_000n * SHARE, 10_000n * SHARE), reserveBalance: 30_000n * USDC }),
      pace,
    );
    expect(estimate).toEqual({ kind: "staging", band: null, awaiting: ["staging"] });
    // With 35,000 it can.
    expect(
      estimateArrival(
        input({ state, receipt: receipt(25_000n * SHARE, 10_000n * SHARE), reserveBalance: 35_000n * USDC }),
        pace,
      ).band,
    ).not.toBeNull();
  });

  it("has no time at all when the keeper is a period behind its strikes (it is not running)", () => {
    const state = vault({ navUpdatedAt: NOW_S - 600n, queueFunded: 25_000n * SHARE });
    expect(estimateArrival(input({ state }), pace)).toEqual({ kind: "nav", band: null, awaiting: ["nav"] });
  });

  it("has no time at all when the keeper left a fundable queue unstaged past its interval", () => {
    // Requested 2 min ago, last staging 5 min ago, struck: the keeper would have staged within 20 s.
    const state = vault({ navSequence: 8n });
    const old = receipt(25_000n * SHARE, 0n, { requestedAt: NOW_S - 120n });
    expect(estimateArrival(input({ state, receipt: old }), pace)).toEqual({
      kind: "staging",
      band: null,
      awaiting: ["staging"],
    });
  });

  it("is ready with no band when claimable, and says a struck, funded request waits on the reserve", () => {
    expect(estimateArrival(input({ claimable: true }), pace)).toEqual({
      kind: "ready",
      band: null,
      awaiting: [],
    });
    const state = vault({ navSequence: 8n, queueFunded: 25_000n * SHARE });
    expect(estimateArrival(input({ state, reserveBalance: 0n }), pace)).toEqual({
      kind: "staging",
      band: null,
      awaiting: ["reserve"],
    });
  });
});

describe("the next scheduled strike", () => {
  it("is the start of the period after the last strike's, at once for a vault never struck", () => {
    expect(nextScheduledStrikeSeconds({ navSequence: 3n, navUpdatedAt: 1_000_030n }, 60)).toBe(1_000_080n);
    expect(nextScheduledStrikeSeconds({ navSequence: 3n, navUpdatedAt: 1_000_020n }, 60)).toBe(1_000_080n);
    expect(nextScheduledStrikeSeconds({ navSequence: 0n, navUpdatedAt: 1_000_030n }, 60)).toBe(1_000_030n);
  });
});
