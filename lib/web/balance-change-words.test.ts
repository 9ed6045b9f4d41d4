import { describe, expect, it } from "vitest";

import { balanceChangeWords } from "./balance-change-words";

const tokens = {
  asset: { mint: "asset", symbol: "USDC", decimals: 6 },
  shares: { mint: "shares", symbol: "vUSDC", decimals: 9 },
};

describe("balanceChangeWords", () => {
  it("says what a deposit pays and receives, and its SOL", () => {
    expect(
      balanceChangeWords({ asset: -250_000_000n, shares: 249_970_000_123n, lamports: -2_044_280n }, tokens),
    ).toEqual([
      "You pay 250.00 USDC",
      "You receive 249.970000123 vUSDC",
      "Network fee and account rent: 0.002 SOL",
    ]);
  });

  it("leaves out balances that do not move and says when rent comes back", () => {
    expect(balanceChangeWords({ asset: 0n, shares: -1_000_000_000n, lamports: 1_500_000n }, tokens)).toEqual([
      "You pay 1.00 vUSDC",
      "You receive 0.0015 SOL (account rent returned)",
    ]);
  });
});
