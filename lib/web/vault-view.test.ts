import { describe, expect, it } from "vitest";

import {
  depositorsText,
  claimNet,
  largestSharesWorthAtMost,
  positionValue,
  previewDeposit,
  previewWithdrawal,
  withdrawVerdict,
} from "./vault-view";
import {
  assetsForSharesRoundDown,
  sharesForAssetsRoundUp,
  withdrawalAmounts,
} from "../vault/model/share-math";
import type { VaultView } from "../vault/model/vault-view";

const USDC = 1_000_000n;
/** One whole share: the asset's 6 decimals plus the program's offset of 3. */
const SHARE = 1_000_000_000n;
const HOUR = 3_600;

function vault(overrides: Partial<VaultView> = {}): VaultView {
  return {
    id: "vault",
    name: "USDC Prime",
    asset: { mint: "mint", symbol: "USDC", decimals: 6 },
    shares: { mint: "shares", symbol: "vUSDC", decimals: 9 },
    totalAssets: 1_100n * USDC,
    totalShares: 1_000n * SHARE,
    sharePrice: 1.1,
    navSequence: 3n,
    navUpdatedAt: 0n,
    feeBps: 10,
    minWithdrawalShares: SHARE,
    hourly: { cap: 25_000n * USDC, used: 24_950n * USDC, windowStart: 36_000n, length: HOUR },
    daily: { cap: 100_000n * USDC, used: 30_000n * USDC, windowStart: 0n, length: 86_400 },
    paused: false,
    pause: null,
    queueTail: 0n,
    queueFunded: 0n,
    queueClaimed: 0n,
    pendingRequests: 0n,
    pendingConfig: null,
    ...overrides,
  };
}

describe("previews", () => {
  it("a deposit mints shares rounded down at the current price, virtual shares and assets counted", () => {
    // floor(110e6 × (1e12 + 1000) / (1.1e9 + 1))
    expect(previewDeposit(vault(), 110n * USDC)).toEqual({
      shares: 100_000_000_009n,
      sharePrice: 1.0999999999,
    });
    expect(previewDeposit(vault(), 1n)).toEqual({ shares: 909n, sharePrice: 1.0999999999 });
    // A leftover of 1,100 USDC with no shares: one raw unit buys nothing of it.
    expect(previewDeposit(vault({ totalShares: 0n }), 1n)).toBeNull();
    expect(previewDeposit(vault({ totalAssets: 0n, totalShares: 0n }), 5n)).toEqual({
      shares: 5_000n,
      sharePrice: 1,
    });
  });

  it("a withdrawal shows gross, the fee rounded up and net, with both windows", () => {
    const preview = previewWithdrawal(vault(), 10n * SHARE, 500n * SHARE, 36_010);
    // floor(1e10 × (1.1e9 + 1) / (1e12 + 1000)); fee ceil(gross × 10 / 10000)
    expect(preview.gross).toBe(10_999_999n);
    expect(preview.fee).toBe(11_000n);
    expect(preview.net).toBe(10_988_999n);
    expect(preview.hourly.remaining).toBe(50n * USDC);
    expect(preview.daily.remaining).toBe(70_000n * USDC);
    expect(preview.overCap).toBeNull();
    expect(preview.belowMinimum).toBe(false);
    expect(preview.exceedsBalance).toBe(false);
  });

  it("names the first window a withdrawal would overflow, with its reset time", () => {
    const preview = previewWithdrawal(vault(), 100n * SHARE, 500n * SHARE, 36_010);
    expect(preview.overCap).toEqual({ window: "hourly", remaining: 50n * USDC, resetsAt: 39_600 });
    const nextHour = previewWithdrawal(vault(), 100n * SHARE, 500n * SHARE, 39_700);
    expect(nextHour.overCap).toBeNull();
  });

  it("flags amounts below the minimum or above the balance", () => {
    const preview = previewWithdrawal(vault(), SHARE / 2n, SHARE / 4n, 36_010);
    expect(preview.belowMinimum).toBe(true);
    expect(preview.exceedsBalance).toBe(true);
    // A wallet holding less than the minimum can still request all of it.
    const everything = previewWithdrawal(vault(), SHARE / 4n, SHARE / 4n, 36_010);
    expect(everything.belowMinimum).toBe(false);
    expect(everything.exceedsBalance).toBe(false);
  });

  it("converts a value to shares rounding up, so the gross covers it", () => {
    const shares = sharesForAssetsRoundUp(11n * USDC + 1n, vault().totalAssets, vault().totalShares);
    expect(positionValue(vault(), shares)).toBeGreaterThanOrEqual(11n * USDC + 1n);
    expect(positionValue(vault(), shares - 1n)).toBeLessThan(11n * USDC + 1n);
    expect(shares).toBe(10_000_000_911n);
    expect(claimNet(vault(), 10n * SHARE, 10)).toBe(10_988_999n);
    // The fee its receipt fixed, not the vault's current one.
    expect(claimNet(vault({ feeBps: 1000 }), 10n * SHARE, 10)).toBe(10_988_999n);
    expect(claimNet(vault(), 10n * SHARE, 0)).toBe(10_999_999n);
  });
});

describe("what the withdrawal form refuses, once, and what fits instead", () => {
  /** 25,000 left this hour (used 0 of 25,000), 70,000 today; the wallet holds 30,000 shares. */
  const roomy = () =>
    vault({
      totalAssets: 1_000_000n * USDC,
      totalShares: 1_000_000n * SHARE,
      hourly: { cap: 25_000n * USDC, used: 0n, windowStart: 36_000n, length: HOUR },
    });
  const NOW = 36_010;

  it("the largest shares within an amount: one more share would be worth more (checked at odd prices)", () => {
    for (const [assets, shares] of [
      [1_100n * USDC, 1_000n * SHARE],
      [1_000_003n, 999_997n],
      [7n, 3n],
      [123_456_789n * USDC, 98_765_432n * SHARE],
    ] as const) {
      const view = vault({ totalAssets: assets, totalShares: shares });
      for (const limit of [0n, 1n, 999n, 25_000n * USDC, 25_000n * USDC + 7n]) {
        const largest = largestSharesWorthAtMost(view, limit);
        expect(assetsForSharesRoundDown(largest, assets, shares)).toBeLessThanOrEqual(limit);
        expect(assetsForSharesRoundDown(largest + 1n, assets, shares)).toBeGreaterThan(limit);
      }
    }
  });

  it("26,000 typed with 25,000 left this hour: blocked by the hourly cap, 25,000 offered, the rest after the hour", () => {
    const view = roomy();
    const typed = 26_000n * SHARE;
    const preview = previewWithdrawal(view, typed, 30_000n * SHARE, NOW);
    const verdict = withdrawVerdict(view, preview, 30_000n * SHARE);
    expect(verdict.block).toEqual({
      kind: "cap",
      window: "hourly",
      remaining: 25_000n * USDC,
      resetsAt: 39_600,
    });
    const fit = verdict.fit;
    expect(fit?.restAfter).toBe(39_600);
    expect(fit?.assets).toBeLessThanOrEqual(25_000n * USDC);
    // What the offer promises is what the request pays: its value less the fee.
    expect(fit?.net).toBe(
      withdrawalAmounts(fit?.shares ?? 0n, view.totalAssets, view.totalShares, view.feeBps).net,
    );
    expect(fit?.net).toBeLessThan(fit?.assets ?? 0n);
    // The offer passes every check the form makes; one share more would not.
    const offered = previewWithdrawal(view, fit?.shares ?? 0n, 30_000n * SHARE, NOW);
    expect(withdrawVerdict(view, offered, 30_000n * SHARE).block).toBeNull();
    const oneMore = previewWithdrawal(view, (fit?.shares ?? 0n) + 1n, 30_000n * SHARE, NOW);
    expect(withdrawVerdict(view, oneMore, 30_000n * SHARE).block?.kind).toBe("cap");
  });

  it("the daily cap binds when it has less left than the hour, and its reset is the one named", () => {
    const view = vault({
      ...roomy(),
      daily: { cap: 100_000n * USDC, used: 90_000n * USDC, windowStart: 0n, length: 86_400 },
    });
    const preview = previewWithdrawal(view, 20_000n * SHARE, 30_000n * SHARE, NOW);
    const verdict = withdrawVerdict(view, preview, 30_000n * SHARE);
    expect(verdict.block).toEqual({
      kind: "cap",
      window: "daily",
      remaining: 10_000n * USDC,
      resetsAt: 86_400,
    });
    expect(verdict.fit?.restAfter).toBe(86_400);
    expect(verdict.fit?.assets).toBeLessThanOrEqual(10_000n * USDC);
  });

  it("more than the wallet holds: the balance is the one reason, all of it offered when the caps allow", () => {
    const view = roomy();
    const preview = previewWithdrawal(view, 50_000n * SHARE, 10_000n * SHARE, NOW);
    const verdict = withdrawVerdict(view, preview, 10_000n * SHARE);
    expect(verdict.block).toEqual({ kind: "balance", held: 10_000n * SHARE });
    expect(verdict.fit).toEqual({
      shares: 10_000n * SHARE,
      assets: 10_000n * USDC,
      net: withdrawalAmounts(10_000n * SHARE, view.totalAssets, view.totalShares, view.feeBps).net,
      restAfter: null,
    });
  });

  it("offers nothing below the minimum or when the cap is used up, and passes what fits", () => {
    const spent = vault({
      ...roomy(),
      hourly: { cap: 25_000n * USDC, used: 25_000n * USDC, windowStart: 36_000n, length: HOUR },
    });
    const capped = withdrawVerdict(
      spent,
      previewWithdrawal(spent, 5n * SHARE, 30_000n * SHARE, NOW),
      30_000n * SHARE,
    );
    expect(capped).toEqual({
      block: { kind: "cap", window: "hourly", remaining: 0n, resetsAt: 39_600 },
      fit: null,
    });
    const small = withdrawVerdict(
      roomy(),
      previewWithdrawal(roomy(), SHARE / 2n, 30_000n * SHARE, NOW),
      30_000n * SHARE,
    );
    expect(small).toEqual({ block: { kind: "minimum", minimum: SHARE }, fit: null });
    const fine = withdrawVerdict(
      roomy(),
      previewWithdrawal(roomy(), 100n * SHARE, 30_000n * SHARE, NOW),
      30_000n * SHARE,
    );
    expect(fine).toEqual({ block: null, fit: null });
  });
});

describe("the depositors beside the TVL", () => {
  it("never says 0 beside assets the chain holds (the indexer has not counted them yet)", () => {
    expect(depositorsText(0, 1_000n * USDC)).toBeNull();
    expect(depositorsText(undefined, 1_000n * USDC)).toBeNull();
    expect(depositorsText(0, 0n)).toBe("0 depositors");
    expect(depositorsText(1, 5n)).toBe("1 depositor");
    expect(depositorsText(12, 5n)).toBe("12 depositors");
  });
});
