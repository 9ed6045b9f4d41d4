import { describe, expect, it } from "vitest";

import {
  DECIMALS_OFFSET,
  assetsForSharesRoundDown,
  assetsForSharesRoundUp,
  shareDecimalsFor,
  sharesForAssetsRoundUp,
  lessBasisPointsRoundDown,
  partnerFeeRoundDown,
  sharePrice,
  sharesForAssetsRoundDown,
  withdrawalAmounts,
  withdrawalFeeRoundUp,
} from "./share-math";
import { formatHuman, formatUnits, parseUiAmount, tokenAmount, U64_MAX } from "./token-amount";
import { PublicKey } from "@solana/web3.js";

describe("share math (rounding in the vault's favour)", () => {
  it("prices with 1,000 virtual shares and 1 virtual asset (decimals offset 3)", () => {
    expect(DECIMALS_OFFSET).toBe(3);
    expect(shareDecimalsFor(6)).toBe(9);
    // A fresh vault: 1 raw asset unit mints 10^3 raw share units.
    expect(sharesForAssetsRoundDown(250n, 0n, 0n)).toBe(250_000n);
    expect(assetsForSharesRoundDown(250_000n, 250n, 250_000n)).toBe(250n);
    // floor(10 × (2 + 1000) / (3 + 1)) = floor(2505)
    expect(sharesForAssetsRoundDown(10n, 3n, 2n)).toBe(2_505n);
    expect(sharesForAssetsRoundUp(10n, 3n, 2n)).toBe(2_505n);
    expect(sharesForAssetsRoundUp(1n, 3n, 2n)).toBe(251n); // 250.5 → 251
    // A vault whose shares lost every asset still prices (the virtual asset).
    expect(sharesForAssetsRoundDown(1n, 0n, 5n)).toBe(1_005n);
  });

  it("values shares rounded down (and up for what is owed)", () => {
    // floor(2 × (3 + 1) / (2 + 1000))
    expect(assetsForSharesRoundDown(2n, 3n, 2n)).toBe(0n);
    expect(assetsForSharesRoundUp(2n, 3n, 2n)).toBe(1n);
    expect(assetsForSharesRoundDown(2_000n, 3n, 2_000n)).toBe(2n); // 2000 × 4 / 3000 = 2.67 → 2
    expect(assetsForSharesRoundUp(2_000n, 3n, 2_000n)).toBe(3n);
    // No shares: a leftover is nobody's (5 shares of a vault holding 10 and no shares: 5 × 11 / 1000).
    expect(assetsForSharesRoundDown(5n, 10n, 0n)).toBe(0n);
  });

  it("rounds the fee up and pays gross − fee", () => {
    expect(withdrawalFeeRoundUp(1n, 10)).toBe(1n);
    expect(withdrawalFeeRoundUp(10_000n, 10)).toBe(10n);
    expect(withdrawalFeeRoundUp(10_001n, 10)).toBe(11n);
    // 100,000 shares of (109, 99,000): floor(100,000 × 110 / 100,000) = 110
    expect(withdrawalAmounts(100_000n, 109n, 99_000n, 1000)).toEqual({ gross: 110n, fee: 11n, net: 99n });
  });

  it("stays exact for u64-sized amounts", () => {
    const huge = U64_MAX;
    // u64::MAX × 2^64 / (2^64 + 999), and u64::MAX × (2^64 + 999) / 2^64: exact beyond 2^64
    expect(assetsForSharesRoundDown(huge, huge, huge)).toBe(huge - 999n);
    expect(sharesForAssetsRoundDown(huge, huge, huge)).toBe(huge + 998n);
  });

  it("gives a display price and a slippage floor", () => {
    expect(sharePrice(0n, 0n)).toBe(1);
    // (1,049,999 + 1) × 1000 / (999,999,000 + 1000), per whole share of 9 decimals
    expect(sharePrice(1_049_999n, 999_999_000n)).toBe(1.05);
    expect(sharePrice(1_050_000n, 1_000_000_000n)).toBe(1.04999995);
    expect(lessBasisPointsRoundDown(1_000n, 50)).toBe(995n);
    expect(lessBasisPointsRoundDown(999n, 50)).toBe(994n);
  });

  it("rounds a partner fee down, so the depositor never pays more than the bps", () => {
    // 1,000 USDC at 25 bps: exactly 2.5 USDC.
    expect(partnerFeeRoundDown(1_000_000_000n, 25)).toBe(2_500_000n);
    // 399 raw at 25 bps is 0.9975 raw: nothing.
    expect(partnerFeeRoundDown(399n, 25)).toBe(0n);
    expect(partnerFeeRoundDown(400n, 25)).toBe(1n);
    expect(partnerFeeRoundDown(12_345n, 0)).toBe(0n);
    expect(partnerFeeRoundDown(U64_MAX, 500)).toBe((U64_MAX * 500n) / 10_000n);
  });
});

describe("token amounts", () => {
  const usdc = {
    mint: new PublicKey("EPW1hKi3ZEw172GQeDr6kpzp4DZuF15JxB9JHUdjaAnC"),
    symbol: "USDC",
    decimals: 6,
  };

  it("formats raw units exactly", () => {
    expect(formatUnits(1_500_000n, 6)).toBe("1.5");
    expect(formatUnits(1n, 6)).toBe("0.000001");
    expect(formatUnits(U64_MAX, 6)).toBe("18446744073709.551615");
    expect(formatHuman(250_000_000n, usdc)).toBe("250.00 USDC");
    expect(formatHuman(1n, usdc)).toBe("0.000001 USDC");
    expect(tokenAmount(usdc, 2_500_000n)).toEqual({
      mint: usdc.mint.toBase58(),
      symbol: "USDC",
      amount: "2500000",
      decimals: 6,
      uiAmount: 2.5,
    });
  });

  it("converts human amounts without rounding, refusing extra decimals", () => {
    expect(parseUiAmount(250, 6)).toEqual({ ok: true, amount: 250_000_000n });
    expect(parseUiAmount(0.000001, 6)).toEqual({ ok: true, amount: 1n });
    expect(parseUiAmount(1.1, 6)).toEqual({ ok: true, amount: 1_100_000n });
    expect(parseUiAmount(0.0000001, 6).ok).toBe(false);
    expect(parseUiAmount(1.0000001, 6).ok).toBe(false);
    expect(parseUiAmount(0, 6).ok).toBe(false);
    expect(parseUiAmount(-1, 6).ok).toBe(false);
    expect(parseUiAmount(Number.NaN, 6).ok).toBe(false);
    expect(parseUiAmount(1e25, 6).ok).toBe(false);
    expect(parseUiAmount(18_446_744_073_710, 6).ok).toBe(false);
  });
});
