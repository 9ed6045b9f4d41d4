import { describe, expect, it } from "vitest";

import { balanceChangeWords, receiptRentWords } from "./balance-change-words";

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
      "You receive 249.970000 vUSDC",
      // A cost is rounded up, to two significant digits: never understated.
      "Network fee and account rent: 0.0021 SOL",
    ]);
  });

  it("shows a 5,000-lamport fee as 0.000005 SOL, never 0 (issue 29)", () => {
    expect(balanceChangeWords({ asset: 0n, shares: 0n, lamports: -5_000n }, tokens)).toEqual([
      "Network fee and account rent: 0.000005 SOL",
    ]);
  });

  it("writes the lines in the reader's locale, exactly", () => {
    expect(
      balanceChangeWords(
        { asset: -1_500_000_000n, shares: 1_499_998_500_123n, lamports: -5_000n },
        tokens,
        "de-DE",
      ),
    ).toEqual([
      "You pay 1.500,00 USDC",
      "You receive 1.499,998500 vUSDC",
      "Network fee and account rent: 0,000005 SOL",
    ]);
  });

  it("leaves out balances that do not move and says when rent comes back", () => {
    expect(balanceChangeWords({ asset: 0n, shares: -1_000_000_000n, lamports: 1_500_000n }, tokens)).toEqual([
      "You pay 1.000000 vUSDC",
      "You receive 0.0015 SOL (account rent returned)",
    ]);
  });
});

describe("receiptRentWords", () => {
  it("tells a request's receipt rent apart from its fee, and that it comes back at the claim or cancel", () => {
    // The receipt's rent (its size's rent-exempt minimum) above the fee's ceiling.
    const verified = { maxFeeLamports: 15_000n, maxLamportsSpent: 15_000n + 1_586_880n };
    expect(receiptRentWords({ ...verified, operation: "initiate" })).toBe(
      "Of that, 0.0016 SOL is your withdrawal receipt's rent: it comes back to this wallet when you claim or cancel.",
    );
    for (const operation of ["deposit", "claim", "cancel"] as const) {
      expect(receiptRentWords({ ...verified, operation })).toBeNull();
    }
  });
});
