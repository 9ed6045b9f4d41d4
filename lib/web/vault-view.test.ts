import { describe, expect, it } from "vitest";

import { claimNet, positionValue, previewDeposit, previewWithdrawal } from "./vault-view";
import { sharesForAssetsRoundUp } from "../vault/share-math";
import type { VaultView } from "../vault/vault-view";

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
    queueTail: 0n,
    queueFunded: 0n,
    queueClaimed: 0n,
    pendingRequests: 0n,
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
