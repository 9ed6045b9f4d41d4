// Partner events: what the indexer derives from chain truth, what webhooks deliver and what
// GET /api/events pages through. An event's id is a hash of the chain facts it comes from, so indexing
// the same transactions again (a restart, a backfill) produces the same ids and no duplicates.
import { createHash } from "node:crypto";

export const PARTNER_EVENT_TYPES = [
  "deposit.confirmed",
  "withdrawal.requested",
  "withdrawal.claimable",
  "withdrawal.claimed",
  "withdrawal.cancelled",
  "vault.nav_updated",
  "vault.paused",
  "vault.resumed",
  "vault.capacity_low",
  "vault.config_scheduled",
  "partner.fee_paid",
] as const;

export type PartnerEventType = (typeof PARTNER_EVENT_TYPES)[number];

/** The event as delivered and listed: the webhook body and one entry of GET /api/events. */
export interface PartnerEvent {
  id: string;
  type: PartnerEventType | "webhook.test";
  /** ISO 8601, the chain's clock at the transaction (or the moment of a test). */
  timestamp: string;
  vault: string;
  /** The wallet the event is about; null for vault-wide events. */
  wallet: string | null;
  /** The transaction the event comes from; null for a test event. */
  signature: string | null;
  slot: number | null;
  /** Type-specific fields; amounts as token-amount objects with raw amounts as strings. */
  data: Record<string, unknown>;
}

/** `evt_` and 32 hex digits of sha256 over the event's type and the chain facts that identify it. */
export function partnerEventId(
  type: PartnerEventType,
  ...facts: readonly (string | bigint | number)[]
): string {
  const digest = createHash("sha256")
    .update([type, ...facts.map(String)].join(":"))
    .digest("hex");
  return `evt_${digest.slice(0, 32)}`;
}
