// POST and GET /api/history: request validation and the response shapes.
import { OPERATION_ACTIONS } from "../../vault/operations/operations";
import bs58 from "bs58";
import { z } from "zod";

import type { HistoryPosition } from "../../vault/reads/history";
import {
  addressInput,
  base58KeyOutput,
  signatureOutput,
  successEnvelope,
  tokenAmountSchema,
  walletInput,
} from "./common";

/** zod runs every check, the pattern's failures included: decoding must not throw on any string. */
function isSignature(value: string): boolean {
  const bytes = bs58.decodeUnsafe(value);
  return bytes !== undefined && bytes.length === 64;
}

export const historyRequest = z
  .object({
    wallet: walletInput,
    vault_id: addressInput,
    signature: z
      .string({ error: "must be a string" })
      .regex(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/, "must be a base58 transaction signature")
      // The pattern admits strings that decode to 63 or 65 bytes; the RPC refuses those outright.
      .refine(isSignature, "must be a base58 transaction signature (64 bytes)")
      .meta({
        description: "Signature of the confirmed transaction (64 bytes, base58)",
        minLength: 64,
        maxLength: 88,
      }),
    withdrawal_reservation_id: z
      .string({ error: "must be a string" })
      .max(200, "is too long")
      .optional()
      .meta({ description: "Deprecated; ignored", deprecated: true }),
  })
  .meta({ id: "HistoryRequest" });

export const historyQuery = z
  .object({
    wallet: walletInput,
    vault_id: addressInput,
    limit: z
      .string()
      .regex(/^\d{1,3}$/, "must be an integer from 1 to 100")
      .transform(Number)
      .refine((value) => value >= 1 && value <= 100, "must be an integer from 1 to 100")
      .optional(),
    cursor: z
      .string()
      .max(200)
      .transform((value, context) => {
        // `slot:signature:eventIndex`; a cursor from before events were numbered has no index and
        // resumes after the whole transaction.
        const decoded = /^(\d{1,19}):([1-9A-HJ-NP-Za-km-z]{32,100})(?::(-1|\d{1,5}))?$/.exec(
          Buffer.from(value, "base64url").toString("utf8"),
        );
        // Slots are JavaScript numbers here and BIGINT in the store: a larger one is no cursor of ours.
        if (decoded === null || BigInt(decoded[1] ?? "0") > BigInt(Number.MAX_SAFE_INTEGER)) {
          context.addIssue({ code: "custom", message: "must be a nextCursor this endpoint returned" });
          return z.NEVER;
        }
        return {
          slot: Number(decoded[1]),
          signature: decoded[2] ?? "",
          eventIndex: decoded[3] === undefined ? -1 : Number(decoded[3]),
        };
      })
      .optional()
      .meta({ description: "nextCursor of the previous page (the feed is newest first)" }),
  })
  .meta({ id: "HistoryQuery" });

/** The opaque cursor of the page after `record`. */
export function historyCursor(record: HistoryPosition): string {
  return Buffer.from(`${record.slot}:${record.signature}:${record.eventIndex}`, "utf8").toString("base64url");
}

export const activitySchema = z
  .object({
    signature: signatureOutput,
    eventIndex: z
      .number()
      .int()
      .meta({ description: "Position among the vault program's events in the transaction" }),
    wallet: base58KeyOutput,
    vaultId: z.string(),
    kind: z.enum(OPERATION_ACTIONS).meta({
      description:
        "cancel (beside the spec's three): a pending request cancelled by its owner; its shares came back less the exit fee the program burned (assets 0)",
    }),
    requestId: z.string().nullable(),
    assets: tokenAmountSchema,
    shares: tokenAmountSchema,
    fee: tokenAmountSchema.nullable(),
    deliveredBy: base58KeyOutput.nullable().meta({
      description:
        "A claim the wallet did not send (the vault's keeper, or anyone, delivered it: the claim pays only the owner): the sender's address, its transaction's fee payer, recorded by the indexer. Null for the wallet's own transactions",
    }),
    slot: z.number().int(),
    blockTime: z.string().nullable(),
    recordedAt: z.string(),
  })
  .meta({ id: "Activity" });

export const historyRecordResponse = successEnvelope(
  z.object({
    duplicate: z.boolean(),
    // The first of `activities` (the field older clients read).
    activity: activitySchema,
    activities: z.array(activitySchema).meta({
      description:
        "Every deposit, request, claim and cancel of the wallet on the vault in the transaction, in order",
    }),
  }),
).meta({ id: "HistoryRecordResponse" });

export const historyFeedResponse = successEnvelope(
  z.object({
    activity: z.array(activitySchema),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: "Pass as cursor for older entries; null on the last page" }),
  }),
).meta({
  id: "HistoryFeedResponse",
});
