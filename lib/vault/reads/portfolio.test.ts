import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { vaultAccount } from "../../../tests/fixtures/vault-account";
import type { IndexedVaultRow, StoredEvent } from "../model/indexed-records";
import { costBasis, portfolioPosition, splitByWeights, vaultAllocations } from "./portfolio";
import type { LoadedVault } from "../model/vault-state";

const USDC = { mint: PublicKey.default, symbol: "USDC", decimals: 6 };

function loaded(totalAssets: bigint, queueFunded = 0n): LoadedVault {
  return {
    address: PublicKey.default,
    // Shares at 1:1000 raw (9 decimals against 6): exactly one whole share per USDC.
    state: vaultAccount({ totalAssets, totalShares: totalAssets * 1_000n, queueFunded, queueClaimed: 0n }),
    asset: USDC,
    shares: { ...USDC, symbol: "vUSDC", decimals: 9 },
  };
}

function row(reserveBalance: bigint): IndexedVaultRow {
  return {
    vault: PublicKey.default.toBase58(),
    slot: 1,
    accountData: Buffer.alloc(0),
    reserveBalance,
    holders: 1,
    updatedAt: new Date(Date.UTC(2026, 10, 1)),
  };
}

function walletEvent(name: string, data: Record<string, string>, eventIndex: number): StoredEvent {
  return {
    signature: `sig${eventIndex}`,
    eventIndex,
    vault: PublicKey.default.toBase58(),
    name,
    owner: PublicKey.default.toBase58(),
    requestId: null,
    slot: eventIndex,
    blockTime: null,
    data,
  };
}

describe("costBasis", () => {
  it("a cancelled request's shares leave the pending ones and keep their basis", () => {
    const events = [
      walletEvent("Deposited", { assets: "1000000", shares: "1000000000" }, 0),
      walletEvent("WithdrawalRequested", { shares: "600000000", assets: "600000" }, 1),
      walletEvent("WithdrawalCancelled", { shares: "600000000", requestId: "0" }, 2),
      walletEvent("WithdrawalRequested", { shares: "400000000", assets: "400000" }, 3),
    ];
    expect(costBasis(events)).toEqual({
      shares: 1_000_000_000n,
      basis: 1_000_000n,
      pendingShares: 400_000_000n,
      realizedPnl: 0n,
      feesPaid: 0n,
      deposited: 1_000_000n,
    });
  });
});

describe("portfolioPosition: a withdrawal fee is a cost, not a profit", () => {
  // Issue 29: a wallet deposits 50,000 USDC beside another holder's 500, then exits 25,000 USDC with a
  // 0.1% fee (25 USDC). The fee stays in the vault, where the wallet owns 98% of the shares left: its
  // remaining shares gain 24.509803 USDC. The page said "PnL +24.50 USDC"; the wallet is 0.49 USDC down.
  const WHOLE_USDC = 1_000_000n;
  const WHOLE_SHARE = 1_000_000_000n;
  const afterExit: LoadedVault = {
    address: PublicKey.default,
    state: vaultAccount({
      totalAssets: 25_525n * WHOLE_USDC,
      totalShares: 25_500n * WHOLE_SHARE,
      queueFunded: 0n,
      queueClaimed: 0n,
    }),
    asset: USDC,
    shares: { ...USDC, symbol: "vUSDC", decimals: 9 },
  };
  const events = [
    walletEvent(
      "Deposited",
      { assets: String(50_000n * WHOLE_USDC), shares: String(50_000n * WHOLE_SHARE) },
      0,
    ),
    walletEvent("WithdrawalRequested", { shares: String(25_000n * WHOLE_SHARE) }, 1),
    walletEvent(
      "WithdrawalClaimed",
      {
        shares: String(25_000n * WHOLE_SHARE),
        gross: String(25_000n * WHOLE_USDC),
        fee: String(25n * WHOLE_USDC),
        net: String(24_975n * WHOLE_USDC),
      },
      2,
    ),
  ];

  it("tells realized, unrealized and total apart, with the fee paid", () => {
    const position = portfolioPosition(afterExit, 25_000n * WHOLE_SHARE, events);
    expect(position.value.amount).toBe("25024509803");
    expect(position.costBasis.amount).toBe(String(25_000n * WHOLE_USDC));
    // Unrealized: the fee that came back to the wallet's own shares.
    expect(position.unrealizedPnl.amount).toBe("24509803");
    expect(position.pnl.amount).toBe("24509803");
    // Realized: 24,975 received for shares that cost 25,000.
    expect(position.realizedPnl.amount).toBe(String(-25n * WHOLE_USDC));
    // The answer a person needs: about half a dollar down, not 24.50 up.
    expect(position.totalPnl.amount).toBe("-490197");
    expect(position.totalPnl.fraction).toBeCloseTo(-490_197 / 50_000_000_000, 12);
    expect(position.feesPaid).toMatchObject({ amount: String(25n * WHOLE_USDC), symbol: "USDC" });
  });

  it("a wallet that never claimed has no realized result and no fees", () => {
    const position = portfolioPosition(afterExit, 25_000n * WHOLE_SHARE, events.slice(0, 1));
    expect(position.realizedPnl.amount).toBe("0");
    expect(position.feesPaid.amount).toBe("0");
    expect(position.totalPnl.amount).toBe(position.unrealizedPnl.amount);
  });
});

describe("splitByWeights", () => {
  it.each([
    [1_000n, [6_000, 4_000], [600n, 400n]],
    // 1/3 each rounds down; the unit left over goes to the heaviest (the first of equals).
    [100n, [3_334, 3_333, 3_333], [34n, 33n, 33n]],
    [7n, [2_500, 5_000, 2_500], [1n, 5n, 1n]],
    [0n, [10_000], [0n]],
    [2n ** 64n - 1n, [1, 9_999], [1844674407370955n, 18444899399302180660n]],
  ])("splits %s by %s as %s, parts adding up to the whole", (total, weights, expected) => {
    const parts = splitByWeights(total, weights);
    expect(parts).toEqual(expected);
    expect(parts.reduce((sum, part) => sum + part, 0n)).toBe(total);
  });
});

describe("vaultAllocations", () => {
  it("places the NAV beyond the reserve across the declared strategies by weight", () => {
    // 1,000 USDC of NAV, 250 in the reserve of which 100 is owed to funded requests: 750 deployed.
    const allocations = vaultAllocations(loaded(1_000_000_000n, 100_000_000_000n), row(250_000_000n), [
      { name: "Treasury bills", bps: 6_000 },
      { name: "Lending", bps: 4_000 },
    ]);
    expect(allocations.fundedForQueue.amount.amount).toBe("100000000");
    expect(allocations.idleReserve.amount.amount).toBe("150000000");
    expect(allocations.deployed).toEqual({
      amount: expect.objectContaining({ amount: "750000000" }),
      fraction: 0.75,
    });
    expect(allocations.strategies).toEqual([
      {
        name: "Treasury bills",
        weight: 0.6,
        amount: expect.objectContaining({ amount: "450000000" }),
        fraction: 0.45,
      },
      {
        name: "Lending",
        weight: 0.4,
        amount: expect.objectContaining({ amount: "300000000" }),
        fraction: 0.3,
      },
    ]);
  });

  it("lists no strategies when the deployment declares none, and no fractions for an empty vault", () => {
    expect(vaultAllocations(loaded(1_000n), row(1_000n)).strategies).toEqual([]);
    const empty = vaultAllocations(loaded(0n), row(0n), [{ name: "Lending", bps: 10_000 }]);
    expect(empty.strategies).toEqual([
      { name: "Lending", weight: 1, amount: expect.objectContaining({ amount: "0" }), fraction: null },
    ]);
  });
});
