// A withdrawal delivered to the connected wallet (its claim sent by the keeper, or anyone), as the vault
// page learns of it from its live events: withdrawal.claimed naming who delivered it turns the pending
// withdrawal into a delivered one at once, before the status read that follows says so.
import { z } from "zod";

import { tokenAmountSchema } from "../api/schemas/common";
import type { WithdrawalStatusData } from "./api-client";

/** The fields of withdrawal.claimed the page shows of a delivery (lib/vault/operations/claim-withdrawal.ts). */
const deliveryEvent = z.object({
  type: z.literal("withdrawal.claimed"),
  timestamp: z.string(),
  wallet: z.string(),
  signature: z.string(),
  data: z.object({
    requestId: z.string(),
    net: tokenAmountSchema,
    deliveredBy: z.string(),
  }),
});

export type DeliveryEvent = z.output<typeof deliveryEvent>;

/** The stream's message as a delivery to `wallet`; null for anything else (the owner's own claim among them). */
export function deliveryOf(message: string, wallet: string): DeliveryEvent | null {
  let body: unknown;
  try {
    body = JSON.parse(message);
  } catch {
    return null;
  }
  const parsed = deliveryEvent.safeParse(body);
  return parsed.success && parsed.data.wallet === wallet ? parsed.data : null;
}

/**
 * The wallet's withdrawal status once `event` delivered its request: nothing pending, and the
 * request's milestones claimed at the event's time by its sender for its net. Who the sender is (the
 * vault's keeper or another wallet) the status read says; until then, claimedBy is null. A status
 * pending on another request (a later one) is left as it is.
 */
export function statusAfterDelivery(
  status: WithdrawalStatusData,
  event: DeliveryEvent,
): WithdrawalStatusData {
  const known = status.milestones ?? null;
  if (status.hasPendingWithdrawal && known !== null && known.requestId !== event.data.requestId) {
    return status;
  }
  const same = known?.requestId === event.data.requestId ? known : null;
  return {
    ...status,
    hasPendingWithdrawal: false,
    pendingShares: "0",
    estimatedAssetAmount: { ...status.estimatedAssetAmount, amount: "0", uiAmount: 0 },
    canClaimNow: false,
    createdAt: null,
    estimate: null,
    progress: null,
    milestones: {
      requestId: event.data.requestId,
      requestedAt: same?.requestedAt ?? null,
      navStruckAt: same?.navStruckAt ?? null,
      fundedAt: same?.fundedAt ?? null,
      claimableAt: same?.claimableAt ?? null,
      claimedAt: event.timestamp,
      claimedBy: same?.claimSigner === event.data.deliveredBy ? same.claimedBy : null,
      claimSigner: event.data.deliveredBy,
      claimedNet: event.data.net,
    },
  };
}
