import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import type { StoredEvent, VaultSnapshot } from "../model/indexed-records";
import { pnlHistoryPoints, portfolioHistoryPoints, positionSeries } from "./position-history";
import { seriesPointCount, seriesTimestamps } from "../model/series-timestamps";
import { percentRoundTowardZero, sharePriceChangePercent } from "../model/share-math";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2025, 5, 2, 10, 30); // a Monday, 10:30 UTC

function event(name: string, atMs: number, slot: number, data: Record<string, string>): StoredEvent {
  return {
    signature: `sig${slot}`,
    eventIndex: 0,
    vault: "vault",
    name,
    owner: "wallet",
    requestId: null,
    slot,
    blockTime: new Date(atMs),
    data: { ...data, timestamp: String(atMs / 1000) },
  };
}

function strike(atMs: number, slot: number, totalAssets: bigint, totalShares: bigint): VaultSnapshot {
  return {
    vault: "vault",
    source: "event",
    slot,
    takenAt: new Date(atMs),
    navSequence: BigInt(slot),
    navUpdatedAt: new Date(atMs),
    totalAssets,
    totalShares,
    queueTail: null,
    queueFunded: null,
    queueClaimed: null,
    reserveBalance: null,
  };
}

const TOKENS = {
  asset: { mint: new PublicKey(new Uint8Array(32).fill(1)), symbol: "USDC", decimals: 6 },
  shares: { mint: new PublicKey(new Uint8Array(32).fill(2)), symbol: "vUSDC", decimals: 9 },
};

describe("series timestamps", () => {
  it("gives the start, every UTC boundary inside the window and the end", () => {
    const points = seriesTimestamps(T0, T0 + 3 * HOUR, "hour");
    expect(points.map((ms) => new Date(ms).toISOString())).toEqual([
      "2025-06-02T10:30:00.000Z",
      "2025-06-02T11:00:00.000Z",
      "2025-06-02T12:00:00.000Z",
      "2025-06-02T13:00:00.000Z",
      "2025-06-02T13:30:00.000Z",
    ]);
    expect(seriesPointCount(T0, T0 + 3 * HOUR, "hour")).toBe(points.length);
  });

  it.each([
    ["minute", T0, T0 + 3 * HOUR],
    ["minute", T0 + 15_500, T0 + 15_500 + 59_000],
    ["minute", T0 - 1, T0 + 16 * HOUR],
    ["hour", T0, T0 + 3 * HOUR],
    ["hour", Date.UTC(2025, 0, 1), Date.UTC(2025, 0, 2)],
    ["day", T0, T0 + 30 * DAY],
    ["day", Date.UTC(2025, 0, 1), Date.UTC(2025, 0, 1, 0, 0, 1)],
    ["week", T0 - 1, T0 + 60 * DAY],
    ["week", Date.UTC(2025, 5, 2), Date.UTC(2025, 5, 16)],
    ["day", T0, T0],
  ] as const)("counts what it builds (%s, %i → %i)", (interval, from, to) => {
    expect(seriesPointCount(from, to, interval)).toBe(seriesTimestamps(from, to, interval).length);
  });

  it("puts minutes on the minute, never repeating the window's ends", () => {
    const minutes = seriesTimestamps(T0 + 15_500, T0 + 3 * 60_000, "minute");
    expect(minutes.map((ms) => new Date(ms).toISOString())).toEqual([
      "2025-06-02T10:30:15.500Z",
      "2025-06-02T10:31:00.000Z",
      "2025-06-02T10:32:00.000Z",
      "2025-06-02T10:33:00.000Z",
    ]);
    // From a whole minute, the cap of 1,000 points per response holds 999 minutes (16 h 39 min).
    expect(seriesPointCount(T0, T0 + 999 * 60_000, "minute")).toBe(1_000);
    expect(seriesPointCount(T0, T0 + 999 * 60_000 + 1, "minute")).toBe(1_001);
  });

  it("puts weeks on Mondays and days on midnights, never repeating the window's ends", () => {
    const weeks = seriesTimestamps(Date.UTC(2025, 5, 2), Date.UTC(2025, 5, 16), "week");
    expect(weeks.map((ms) => new Date(ms).toISOString())).toEqual([
      "2025-06-02T00:00:00.000Z",
      "2025-06-09T00:00:00.000Z",
      "2025-06-16T00:00:00.000Z",
    ]);
    for (const ms of seriesTimestamps(T0, T0 + 10 * DAY, "day").slice(1, -1)) {
      expect(new Date(ms).toISOString()).toMatch(/T00:00:00\.000Z$/);
    }
  });
});

describe("percent from integers", () => {
  it("is percent truncated toward zero at six decimals, null over nothing", () => {
    expect(percentRoundTowardZero(824n, 10_000n)).toBe(8.24);
    expect(percentRoundTowardZero(1n, 3n)).toBe(33.333333);
    expect(percentRoundTowardZero(-1n, 3n)).toBe(-33.333333);
    // Beyond a double's 2^53 the integers stay exact.
    expect(percentRoundTowardZero(2n ** 70n + 1n, 2n ** 71n)).toBe(50);
    expect(percentRoundTowardZero(5n, 0n)).toBeNull();
  });

  it("measures the share price's move from the totals", () => {
    // Totals plus the virtual asset and shares: 100 / 100,000, then 220 / 200,000.
    expect(
      sharePriceChangePercent(
        { totalAssets: 99n, totalShares: 99_000n },
        { totalAssets: 219n, totalShares: 199_000n },
      ),
    ).toBe(10);
    expect(
      sharePriceChangePercent({ totalAssets: 0n, totalShares: 0n }, { totalAssets: 1n, totalShares: 1n }),
    ).toBeNull();
  });
});

describe("positionSeries", () => {
  // Deposit 1,000 at 1.0, NAV to 1.1, request 400 shares, claim them at 1.1 (net 440), NAV to 1.2;
  // shares have 9 decimals, and the virtual asset and shares shave a raw unit off some values.
  const events = [
    event("Deposited", T0 + HOUR / 2, 10, {
      assets: "1000000000",
      shares: "1000000000000",
      totalAssets: "1000000000",
      totalShares: "1000000000000",
    }),
    event("WithdrawalRequested", T0 + 2 * HOUR + 1_000, 30, { shares: "400000000000" }),
    event("WithdrawalClaimed", T0 + 3 * HOUR + 1_000, 40, {
      shares: "400000000000",
      net: "439999999",
      totalAssets: "660000001",
      totalShares: "600000000000",
    }),
  ];
  const timestamps = seriesTimestamps(T0, T0 + 5 * HOUR, "hour");
  const strikes = [
    strike(T0 + 2 * HOUR - 1_000, 20, 1_100_000_000n, 1_000_000_000_000n),
    strike(T0 + 4 * HOUR, 50, 720_000_000n, 600_000_000_000n),
  ];
  // What the store's navAt answers: the newest strike at or before each instant.
  const navAt = timestamps.map(
    (ms) => strikes.filter((snapshot) => snapshot.takenAt.getTime() <= ms).at(-1) ?? null,
  );
  const points = positionSeries(events, navAt, timestamps);

  it("replays the wallet's events at each point and values them at the newest price", () => {
    expect(
      points.map((point) => ({
        at: new Date(point.atMs).toISOString().slice(11, 16),
        held: point.heldShares,
        pending: point.pendingShares,
        value: point.value,
        basis: point.costBasis,
        pnl: point.pnl,
        realized: point.realizedPnl,
      })),
    ).toEqual([
      { at: "10:30", held: 0n, pending: 0n, value: 0n, basis: 0n, pnl: 0n, realized: 0n },
      // The deposit's own totals price it before any strike (exactly 1:1000 raw).
      {
        at: "11:00",
        held: 1_000_000_000_000n,
        pending: 0n,
        value: 1_000_000_000n,
        basis: 1_000_000_000n,
        pnl: 0n,
        realized: 0n,
      },
      {
        at: "12:00",
        held: 1_000_000_000_000n,
        pending: 0n,
        value: 1_000_000_000n,
        basis: 1_000_000_000n,
        pnl: 0n,
        realized: 0n,
      },
      // The strike at 12:29:59 lifts the price to 1.1; the request escrows 400 of the shares.
      {
        at: "13:00",
        held: 600_000_000_000n,
        pending: 400_000_000_000n,
        value: 1_099_999_999n,
        basis: 1_000_000_000n,
        pnl: 99_999_999n,
        realized: 0n,
      },
      // The claim pays 440 less a unit for shares that cost 400; basis 600 for the 600 left.
      {
        at: "14:00",
        held: 600_000_000_000n,
        pending: 0n,
        value: 660_000_000n,
        basis: 600_000_000n,
        pnl: 60_000_000n,
        realized: 39_999_999n,
      },
      {
        at: "15:00",
        held: 600_000_000_000n,
        pending: 0n,
        value: 719_999_999n,
        basis: 600_000_000n,
        pnl: 119_999_999n,
        realized: 39_999_999n,
      },
      {
        at: "15:30",
        held: 600_000_000_000n,
        pending: 0n,
        value: 719_999_999n,
        basis: 600_000_000n,
        pnl: 119_999_999n,
        realized: 39_999_999n,
      },
    ]);
  });

  it("gives portfolio-history's percentages in percent and pnl-history's points", () => {
    const portfolio = portfolioHistoryPoints(TOKENS, points);
    expect(portfolio.map((point) => [point.pnlPct, point.sharePriceChangePct])).toEqual([
      [null, null],
      [0, 0],
      [0, 0],
      [9.999999, 9.999999],
      [10, 10],
      [19.999999, 19.999999],
      [19.999999, 19.999999],
    ]);
    expect(portfolio[5]).toEqual({
      timestamp: "2025-06-02T15:00:00.000Z",
      sharePrice: 1.199999999666,
      shares: {
        mint: TOKENS.shares.mint.toBase58(),
        symbol: "vUSDC",
        amount: "600000000000",
        decimals: 9,
        uiAmount: 600,
      },
      pendingShares: {
        mint: TOKENS.shares.mint.toBase58(),
        symbol: "vUSDC",
        amount: "0",
        decimals: 9,
        uiAmount: 0,
      },
      value: {
        mint: TOKENS.asset.mint.toBase58(),
        symbol: "USDC",
        amount: "719999999",
        decimals: 6,
        uiAmount: 719.999999,
      },
      costBasis: {
        mint: TOKENS.asset.mint.toBase58(),
        symbol: "USDC",
        amount: "600000000",
        decimals: 6,
        uiAmount: 600,
      },
      pnl: { amount: "119999999", uiAmount: 119.999999 },
      realizedPnl: { amount: "39999999", uiAmount: 39.999999 },
      pnlPct: 19.999999,
      sharePriceChangePct: 19.999999,
    });
    expect(pnlHistoryPoints(TOKENS, points)[3]).toEqual({
      timestamp: "2025-06-02T13:00:00.000Z",
      pnl: { amount: "99999999", uiAmount: 99.999999 },
      realizedPnl: { amount: "0", uiAmount: 0 },
      pnlPct: 9.999999,
    });
  });
});
