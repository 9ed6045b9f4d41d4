import { describe, expect, it } from "vitest";

import type { WithdrawalStatusData } from "./api-client";
import { deliveryOf, statusAfterDelivery } from "./delivered-withdrawal";
import { arrivedText } from "./withdrawal-steps";

const OWNER = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const KEEPER = "KeeperManager111111111111111111111111111111";
const usdc = (amount: string) => ({
  mint: "AssetMint1111111111111111111111111111111111",
  symbol: "USDC",
  amount,
  decimals: 6,
  uiAmount: Number(amount) / 1e6,
});
const cap = { cap: null, used: usdc("0"), remaining: null, resetsAt: "2026-11-26T15:00:00.000Z" };

const pending: WithdrawalStatusData = {
  hasPendingWithdrawal: true,
  pendingShares: "100000000000",
  estimatedAssetAmount: usdc("100000000"),
  canClaimNow: true,
  createdAt: "2026-11-26T13:55:00.000Z",
  estimate: { kind: "ready", band: null, awaiting: [] },
  progress: { stagedShares: "100000000000", totalShares: "100000000000", sharesAhead: "0", fraction: 1 },
  milestones: {
    requestId: "7",
    requestedAt: "2026-11-26T13:55:00.000Z",
    navStruckAt: "2026-11-26T13:59:00.000Z",
    fundedAt: "2026-11-26T13:58:00.000Z",
    claimableAt: "2026-11-26T13:59:00.000Z",
    claimedAt: null,
    claimedBy: null,
    claimSigner: null,
    claimedNet: null,
  },
  withdrawalLimits: { hourly: cap, daily: cap },
};

function message(
  overrides: { wallet?: string; deliveredBy?: string | null; requestId?: string } = {},
): string {
  return JSON.stringify({
    id: "evt_1",
    type: "withdrawal.claimed",
    timestamp: "2026-11-26T14:00:00.000Z",
    vault: "Vault11111111111111111111111111111111111111",
    wallet: overrides.wallet ?? OWNER,
    signature: "5".repeat(88),
    slot: 42,
    data: {
      requestId: overrides.requestId ?? "7",
      shares: usdc("100000000000"),
      gross: usdc("100000000"),
      fee: usdc("100000"),
      net: usdc("99900000"),
      deliveredBy: overrides.deliveredBy === undefined ? KEEPER : overrides.deliveredBy,
    },
  });
}

describe("a withdrawal delivered, from its live event", () => {
  it("reads a delivery to this wallet, and nothing else", () => {
    expect(deliveryOf(message(), OWNER)).toMatchObject({
      signature: "5".repeat(88),
      data: { requestId: "7", deliveredBy: KEEPER, net: { amount: "99900000" } },
    });
    // The owner's own claim, another wallet's, and what is not an event.
    expect(deliveryOf(message({ deliveredBy: null }), OWNER)).toBeNull();
    expect(deliveryOf(message({ wallet: KEEPER }), OWNER)).toBeNull();
    expect(deliveryOf("not json", OWNER)).toBeNull();
  });

  it("turns the pending request delivered at once: nothing pending, claimed at the event's time for its net", () => {
    const delivery = deliveryOf(message(), OWNER);
    if (delivery === null) throw new Error("no delivery");
    const after = statusAfterDelivery(pending, delivery);
    expect(after).toMatchObject({
      hasPendingWithdrawal: false,
      pendingShares: "0",
      canClaimNow: false,
      estimate: null,
      progress: null,
      withdrawalLimits: pending.withdrawalLimits,
      milestones: {
        requestId: "7",
        requestedAt: pending.milestones?.requestedAt,
        claimableAt: pending.milestones?.claimableAt,
        claimedAt: "2026-11-26T14:00:00.000Z",
        // The keeper or another wallet: the status read that follows says.
        claimedBy: null,
        claimSigner: KEEPER,
        claimedNet: { amount: "99900000", symbol: "USDC" },
      },
    });
    // What the delivered card says of it.
    expect(
      arrivedText(after.milestones, "99.90 USDC", Date.parse("2026-11-26T14:01:00Z"), { timeZone: "UTC" }),
    ).toBe("Arrived: 99.90 USDC in your wallet at 14:00 UTC");
  });

  it("leaves a later request pending as it is", () => {
    const delivery = deliveryOf(message({ requestId: "6" }), OWNER);
    if (delivery === null) throw new Error("no delivery");
    expect(statusAfterDelivery(pending, delivery)).toBe(pending);
  });
});
