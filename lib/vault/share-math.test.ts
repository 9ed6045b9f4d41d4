import { describe, expect, it } from "vitest";

import {
  assetsForSharesRoundDown,
  lessBasisPointsRoundDown,
  sharePrice,
  sharesForAssetsRoundDown,
  withdrawalAmounts,
  withdrawalFeeRoundUp,
} from "./share-math";
import { formatHuman, formatUnits, parseUiAmount, tokenAmount, U64_MAX } from "./token-amount";
import { PublicKey } from "@solana/web3.js";

describe("share math (rounding in the vault's favour)", () => {
  it("mints 1:1 into an empty vault and rounds shares down afterwards", () => {
    expect(sharesForAssetsRoundDown(250n, 0n, 0n)).toBe(250n);
    expect(sharesForAssetsRoundDown(10n, 3n, 2n)).toBe(6n); // 6.67 → 6
    expect(sharesForAssetsRoundDown(1n, 0n, 5n)).toBeNull();
  });

  it("values shares rounded down, and 0 for a vault without shares", () => {
    expect(assetsForSharesRoundDown(2n, 3n, 2n)).toBe(3n);
    expect(assetsForSharesRoundDown(1n, 3n, 2n)).toBe(1n); // 1.5 → 1
    expect(assetsForSharesRoundDown(5n, 10n, 0n)).toBe(0n);
  });

  it("rounds the fee up and pays gross − fee", () => {
    expect(withdrawalFeeRoundUp(1n, 10)).toBe(1n);
    expect(withdrawalFeeRoundUp(10_000n, 10)).toBe(10n);
    expect(withdrawalFeeRoundUp(10_001n, 10)).toBe(11n);
    expect(withdrawalAmounts(100n, 110n, 100n, 1000)).toEqual({ gross: 110n, fee: 11n, net: 99n });
  });

  it("stays exact for u64-sized amounts", () => {
    const huge = U64_MAX;
    expect(assetsForSharesRoundDown(huge, huge, huge)).toBe(huge);
    expect(sharesForAssetsRoundDown(huge, huge, huge)).toBe(huge);
  });

  it("gives a display price and a slippage floor", () => {
    expect(sharePrice(0n, 0n)).toBe(1);
    expect(sharePrice(1_050_000n, 1_000_000n)).toBe(1.05);
    expect(lessBasisPointsRoundDown(1_000n, 50)).toBe(995n);
    expect(lessBasisPointsRoundDown(999n, 50)).toBe(994n);
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
