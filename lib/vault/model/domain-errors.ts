// Refusals of the domain: a request that the vault's state or rules do not allow. Each has a stable
// code (the HTTP edge maps codes to statuses in one table), a message that names the problem for a
// person, optional details for a developer, and a typed context: the facts behind the refusal, shaped
// per code (as Kit's SolanaError context is), which the API sends beside the message so that no
// client parses a message for them. The context schemas are also what the OpenAPI document shows.
import { z } from "zod";

import { tokenAmountSchema } from "./token-amount";

const described = <T extends z.ZodType>(schema: T, id: string, description: string): T =>
  schema.meta({ id, description });

/** Why a pending withdrawal cannot be claimed yet; one or more apply. */
export const CLAIM_BLOCKERS = ["vault-paused", "awaiting-nav", "queue-unfunded", "reserve-short"] as const;
export type ClaimBlocker = (typeof CLAIM_BLOCKERS)[number];

/** Each code's context schema; `null` for codes whose message says all there is. */
export const DOMAIN_ERROR_CONTEXTS = {
  INVALID_AMOUNT: described(
    z.object({ field: z.string().meta({ description: "The request field the amount came in" }) }),
    "InvalidAmountContext",
    "context of INVALID_AMOUNT",
  ),
  VAULT_NOT_FOUND: described(
    z.object({ vault: z.string().meta({ description: "The address that holds no vault" }) }),
    "VaultNotFoundContext",
    "context of VAULT_NOT_FOUND",
  ),
  VAULT_PAUSED: described(
    z.object({ vault: z.string(), vaultName: z.string() }),
    "VaultPausedContext",
    "context of VAULT_PAUSED",
  ),
  WITHDRAWAL_PENDING: described(
    z.object({ pendingShares: tokenAmountSchema }),
    "WithdrawalPendingContext",
    "context of WITHDRAWAL_PENDING: the shares of the withdrawal already pending",
  ),
  NO_PENDING_WITHDRAWAL: null,
  WITHDRAWAL_NOT_CLAIMABLE: described(
    z.object({
      pendingShares: tokenAmountSchema,
      blockers: z.array(z.enum(CLAIM_BLOCKERS)).meta({
        description:
          "What the claim waits for: vault-paused, awaiting-nav (no NAV struck since the request), queue-unfunded, reserve-short",
      }),
    }),
    "WithdrawalNotClaimableContext",
    "context of WITHDRAWAL_NOT_CLAIMABLE",
  ),
  INITIATE_NOT_RECORDED: described(
    z.object({ requestId: z.string() }),
    "InitiateNotRecordedContext",
    "context of INITIATE_NOT_RECORDED: the withdrawal request whose initiate is missing",
  ),
  INSUFFICIENT_BALANCE: described(
    z.object({ balance: tokenAmountSchema, requested: tokenAmountSchema }),
    "InsufficientBalanceContext",
    "context of INSUFFICIENT_BALANCE: what the wallet holds and what the request needs",
  ),
  INSUFFICIENT_SOL: described(
    z.object({
      neededLamports: z.string().meta({ description: "Lamports for the fee and account rent, digits" }),
      heldLamports: z.string().meta({ description: "Lamports the wallet holds, digits" }),
    }),
    "InsufficientSolContext",
    "context of INSUFFICIENT_SOL",
  ),
  BELOW_MINIMUM: described(
    z.object({ minimum: tokenAmountSchema, requested: tokenAmountSchema }),
    "BelowMinimumContext",
    "context of BELOW_MINIMUM: the vault's minimum withdrawal and the shares requested",
  ),
  AMOUNT_TOO_SMALL: described(
    z.object({ amount: tokenAmountSchema }),
    "AmountTooSmallContext",
    "context of AMOUNT_TOO_SMALL: the amount that would give no shares or assets",
  ),
  CAPACITY_EXCEEDED: described(
    z.object({
      window: z.enum(["hourly", "daily"]).meta({ description: "The net-withdrawal cap window that refuses" }),
      remaining: tokenAmountSchema,
      requested: tokenAmountSchema,
      cap: tokenAmountSchema,
      used: tokenAmountSchema,
      resetsAt: z.string().meta({ description: "ISO 8601: when the window starts afresh" }),
    }),
    "CapacityExceededContext",
    "context of CAPACITY_EXCEEDED: the refusing window, what it can still take (remaining), what this withdrawal is worth (requested), its cap and use, and when it resets",
  ),
  PARTNER_FEE_ABOVE_MAXIMUM: described(
    z.object({
      feeBps: z.number().int().meta({ description: "The partner fee asked for, in bps" }),
      maxFeeBps: z.number().int().meta({ description: "The protocol's max_partner_fee_bps now" }),
    }),
    "PartnerFeeAboveMaximumContext",
    "context of PARTNER_FEE_ABOVE_MAXIMUM: the partner's fee and the protocol's maximum",
  ),
  PARTNER_ACCOUNT_MISSING: described(
    z.object({
      partner: z.string().meta({ description: "The partner's wallet" }),
      partnerAsset: z.string().meta({
        description: "Its associated token account for the vault's asset, which does not exist",
      }),
    }),
    "PartnerAccountMissingContext",
    "context of PARTNER_ACCOUNT_MISSING: the partner's account the fee would be paid to",
  ),
  TRANSACTION_NOT_CONFIRMED: null,
  TRANSACTION_FAILED: null,
  NOT_A_VAULT_TRANSACTION: null,
  SIGNATURE_CONFLICT: null,
  WEBHOOK_NOT_FOUND: described(
    z.object({ webhookId: z.string() }),
    "WebhookNotFoundContext",
    "context of WEBHOOK_NOT_FOUND",
  ),
  DELIVERY_NOT_FOUND: described(
    z.object({ webhookId: z.string(), deliveryId: z.string() }),
    "DeliveryNotFoundContext",
    "context of DELIVERY_NOT_FOUND",
  ),
  DELIVERY_IN_FLIGHT: described(
    z.object({ deliveryId: z.string() }),
    "DeliveryInFlightContext",
    "context of DELIVERY_IN_FLIGHT",
  ),
  TARGET_REFUSED: null,
  WEBHOOK_LIMIT_REACHED: described(
    z.object({ limit: z.number().int() }),
    "WebhookLimitReachedContext",
    "context of WEBHOOK_LIMIT_REACHED: how many endpoints one key may have",
  ),
} as const;

export type DomainErrorCode = keyof typeof DOMAIN_ERROR_CONTEXTS;

export const DOMAIN_ERROR_CODES = Object.keys(DOMAIN_ERROR_CONTEXTS) as DomainErrorCode[];

/** The context each code carries: `undefined` for the codes without one. */
export type DomainErrorContexts = {
  [C in DomainErrorCode]: (typeof DOMAIN_ERROR_CONTEXTS)[C] extends z.ZodType
    ? z.output<(typeof DOMAIN_ERROR_CONTEXTS)[C]>
    : undefined;
};

/** The codes that carry a context. */
export type ContextualCode = {
  [C in DomainErrorCode]: DomainErrorContexts[C] extends undefined ? never : C;
}[DomainErrorCode];

type Extra<C extends DomainErrorCode> = C extends ContextualCode
  ? [extra: { context: DomainErrorContexts[C]; details?: string }]
  : [extra?: { details?: string }];

export class DomainError<C extends DomainErrorCode = DomainErrorCode> extends Error {
  readonly context: DomainErrorContexts[C];
  readonly details?: string;

  constructor(
    readonly code: C,
    message: string,
    ...[extra]: Extra<C>
  ) {
    super(message);
    this.name = "DomainError";
    const given: { context?: unknown; details?: string } = extra ?? {};
    this.context = given.context as DomainErrorContexts[C];
    if (given.details !== undefined) {
      this.details = given.details;
    }
  }
}

/** A code with its typed context: what a client knows once it has checked a received context. */
export type DomainContext = {
  [C in ContextualCode]: { code: C; context: DomainErrorContexts[C] };
}[ContextualCode];

/**
 * A context received over the wire (the API's `context` field) checked against its code's schema:
 * the code with its typed context, or null when the code has none or the value does not fit.
 */
export function domainContextOf(code: string, value: unknown): DomainContext | null {
  if (!Object.hasOwn(DOMAIN_ERROR_CONTEXTS, code)) {
    return null;
  }
  const schema: z.ZodType | null = DOMAIN_ERROR_CONTEXTS[code as DomainErrorCode];
  const parsed = schema?.safeParse(value);
  // The schema of `code` accepted the value, so it is that code's context.
  return parsed?.success === true ? ({ code, context: parsed.data } as DomainContext) : null;
}
