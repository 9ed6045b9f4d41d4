// Shared pieces of the request and response schemas: public keys, raw integer amounts, token amounts
// and the envelope. Request schemas transform to domain types; their input side is what OpenAPI shows.
import { PublicKey } from "@solana/web3.js";
import { z } from "zod";

import { boundedMemo } from "../../chain/bounded-memo";
import { DOMAIN_ERROR_CONTEXTS } from "../../vault/model/domain-errors";
import { expectedBalanceChangesSchema } from "../../vault/operations/expected-balance-changes";
import { U64_MAX } from "../../vault/model/token-amount";

const DOMAIN_ERROR_CONTEXT_SCHEMAS = Object.values(DOMAIN_ERROR_CONTEXTS).filter(
  (schema): schema is NonNullable<typeof schema> => schema !== null,
);

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

/** What the document says of a public key: the transforms below check exactly this, and more. */
const BASE58_KEY_FORMAT = { pattern: "^[1-9A-HJ-NP-Za-km-z]{32,44}$", minLength: 32, maxLength: 44 };

/** A public key in a response. */
export const base58KeyOutput = z.string().meta(BASE58_KEY_FORMAT);

/** A transaction signature in a response. */
export const signatureOutput = z
  .string()
  .meta({ pattern: "^[1-9A-HJ-NP-Za-km-z]{64,88}$", minLength: 64, maxLength: 88 });

// Parsing a key and checking it lies on the curve cost a base58 decode and a point decompression;
// the same wallets and vaults come back request after request.
const parsedKeys = boundedMemo((value): PublicKey | null => {
  if (value.length < 32 || value.length > 44 || !BASE58.test(value)) {
    return null;
  }
  try {
    const key = new PublicKey(value);
    return key.toBase58() === value ? key : null;
  } catch {
    return null;
  }
});

const onCurve = boundedMemo((value) => PublicKey.isOnCurve(new PublicKey(value).toBytes()));

function toPublicKey(value: string): PublicKey | null {
  return parsedKeys(value);
}

/**
 * A base58 public key, parsed to a PublicKey; a wallet's must also be on the ed25519 curve (a program
 * address cannot sign).
 */
function publicKeyInput(kind: "address" | "wallet", meta: { description: string; example: string }) {
  return z
    .string({ error: "must be a string" })
    .transform((value, context) => {
      const key = toPublicKey(value);
      if (key === null) {
        context.addIssue({ code: "custom", message: "must be a base58 public key" });
        return z.NEVER;
      }
      if (kind === "wallet" && !onCurve(value)) {
        context.addIssue({ code: "custom", message: "must be a wallet's public key, not a program address" });
        return z.NEVER;
      }
      return key;
    })
    .meta({ ...meta, ...BASE58_KEY_FORMAT });
}

/** Any base58 account address (vaults). */
export const addressInput = publicKeyInput("address", {
  description: "Base58 account address",
  example: "5wmiQyQXVpAVrfsVoQAqiHnkNZTW6n6998Rq56hs5DXS",
});

/** A wallet: a base58 public key on the ed25519 curve (a program address cannot sign). */
export const walletInput = publicKeyInput("wallet", {
  description: "Wallet public key (base58)",
  example: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
});

/** A positive raw amount (u64) as a JSON integer or a string of digits. */
export const rawAmountInput = z
  .union([z.string(), z.number()], { error: "must be an integer or a string of digits" })
  .transform((value, context) => {
    if (typeof value === "number") {
      if (!Number.isInteger(value)) {
        context.addIssue({ code: "custom", message: "must be an integer in raw units" });
        return z.NEVER;
      }
      if (!Number.isSafeInteger(value)) {
        context.addIssue({ code: "custom", message: "above 2^53 must be sent as a string of digits" });
        return z.NEVER;
      }
    } else if (!/^\d{1,20}$/.test(value)) {
      context.addIssue({ code: "custom", message: "must be a string of decimal digits" });
      return z.NEVER;
    }
    const amount = BigInt(value);
    if (amount <= 0n || amount > U64_MAX) {
      context.addIssue({ code: "custom", message: "must be a positive integer that fits in a u64" });
      return z.NEVER;
    }
    return amount;
  })
  .meta({
    description: "Raw integer amount (smallest units): an integer or a string of digits",
    example: "250000000",
  });

export const vaultPathParams = z.object({ vault_id: addressInput });

export { tokenAmountSchema } from "../../vault/model/token-amount";

export const errorEnvelopeSchema = z
  .object({
    success: z.literal(false),
    error: z.string(),
    details: z.string().optional(),
    code: z.string(),
    context: z.union(DOMAIN_ERROR_CONTEXT_SCHEMAS).optional().meta({
      description:
        "Machine-readable facts behind `code`, shaped per code (CAPACITY_EXCEEDED → CapacityExceededContext, and so on): clients build their own words from code and context, never from `error`. Absent for codes without context.",
    }),
    requestId: z.string(),
  })
  .meta({ id: "ErrorEnvelope" });

export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

export const transactionFields = {
  transaction: z
    .string()
    .meta({ description: "Base64 unsigned VersionedTransaction (v0); the wallet is fee payer" }),
  message: z.string(),
  lastValidBlockHeight: z.number().int(),
  expiresAt: z.string().meta({ description: "ISO 8601: when the blockhash is expected to expire" }),
  expectedBalanceChanges: expectedBalanceChangesSchema,
};
