// Positional parameters of the RPC methods, parsed with zod. Shapes follow rpc-client-api's config
// structs; a parse failure becomes -32602 "Invalid params: …" as jsonrpc_core words it.
import bs58 from "bs58";
import { z } from "zod";

import type { Commitment } from "../chain-types";
import { invalidParams } from "./errors";

/** Deprecated commitment names still accepted by validators, mapped to the current three. */
export const commitmentSchema = z
  .enum(["processed", "confirmed", "finalized", "recent", "single", "singleGossip", "root", "max"])
  .transform((value): Commitment => {
    switch (value) {
      case "recent":
        return "processed";
      case "single":
      case "singleGossip":
        return "confirmed";
      case "root":
      case "max":
        return "finalized";
      default:
        return value;
    }
  });

const u64 = z
  .union([z.number().int().nonnegative(), z.bigint().nonnegative()])
  .transform((value) => BigInt(value));

export const contextConfig = z
  .object({ commitment: commitmentSchema.nullish(), minContextSlot: u64.nullish() })
  .nullish();

export const accountEncoding = z.enum(["binary", "base58", "base64", "base64+zstd", "jsonParsed"]);
export type AccountEncoding = z.infer<typeof accountEncoding>;

export const dataSlice = z.object({
  offset: z.number().int().nonnegative(),
  length: z.number().int().nonnegative(),
});
export type DataSlice = z.infer<typeof dataSlice>;

/** How a call reads accounts: at what commitment and slot, in what encoding, which bytes. */
export const accountReadConfig = z.object({
  commitment: commitmentSchema.nullish(),
  minContextSlot: u64.nullish(),
  encoding: accountEncoding.nullish(),
  dataSlice: dataSlice.nullish(),
});

export const accountInfoConfig = accountReadConfig.nullish();

const memcmpFilter = z.object({
  memcmp: z.object({
    offset: z.number().int().nonnegative(),
    bytes: z.string(),
    encoding: z.enum(["base58", "base64"]).nullish(),
  }),
});
const dataSizeFilter = z.object({ dataSize: z.number().int().nonnegative() });
const tokenAccountStateFilter = z.literal("tokenAccountState");
export const programAccountsFilter = z.union([memcmpFilter, dataSizeFilter, tokenAccountStateFilter]);
export type ProgramAccountsFilter = z.infer<typeof programAccountsFilter>;

export const programAccountsConfig = accountReadConfig
  .extend({
    filters: z.array(programAccountsFilter).nullish(),
    withContext: z.boolean().nullish(),
    sortResults: z.boolean().nullish(),
  })
  .nullish();

export const tokenAccountsFilter = z.union([
  z.object({ mint: z.string() }).strict(),
  z.object({ programId: z.string() }).strict(),
]);

export const transactionEncoding = z.enum(["binary", "base58", "base64", "json", "jsonParsed"]);
export type TransactionEncoding = z.infer<typeof transactionEncoding>;

export const sendTransactionConfig = z
  .object({
    skipPreflight: z.boolean().nullish(),
    preflightCommitment: commitmentSchema.nullish(),
    encoding: transactionEncoding.nullish(),
    maxRetries: z.number().int().nonnegative().nullish(),
    minContextSlot: u64.nullish(),
  })
  .nullish();

export const simulateTransactionConfig = z
  .object({
    sigVerify: z.boolean().nullish(),
    replaceRecentBlockhash: z.boolean().nullish(),
    commitment: commitmentSchema.nullish(),
    encoding: transactionEncoding.nullish(),
    accounts: z.object({ addresses: z.array(z.string()), encoding: accountEncoding.nullish() }).nullish(),
    minContextSlot: u64.nullish(),
    innerInstructions: z.boolean().nullish(),
  })
  .nullish();

export const transactionConfig = z
  .union([
    transactionEncoding,
    z.object({
      encoding: transactionEncoding.nullish(),
      commitment: commitmentSchema.nullish(),
      maxSupportedTransactionVersion: z.number().int().nonnegative().nullish(),
    }),
  ])
  .nullish()
  .transform((value) => (typeof value === "string" ? { encoding: value } : (value ?? {})));

export const signatureStatusConfig = z.object({ searchTransactionHistory: z.boolean().nullish() }).nullish();

export const signaturesForAddressConfig = z
  .object({
    before: z.string().nullish(),
    until: z.string().nullish(),
    limit: z.number().int().nullish(),
    commitment: commitmentSchema.nullish(),
    minContextSlot: u64.nullish(),
  })
  .nullish();

export const airdropConfig = z
  .object({ commitment: commitmentSchema.nullish(), recentBlockhash: z.string().nullish() })
  .nullish();

export const commitmentConfig = z.object({ commitment: commitmentSchema.nullish() }).nullish();

export { u64 };

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length === 0 ? "" : ` at params[${issue.path.map(String).join("][")}]`;
  return `${issue.message}${where}`;
}

/**
 * Parses a method's positional parameters. `params` may be absent or an array; trailing optional
 * parameters may be omitted, as jsonrpc_core allows.
 */
export function parseParams<T extends z.ZodTypeAny>(schema: T, params: unknown): z.output<T> {
  const list = params === undefined || params === null ? [] : params;
  if (!Array.isArray(list)) {
    throw invalidParams("Invalid params: invalid type: map, expected a tuple.");
  }
  const result = schema.safeParse(list);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw invalidParams(
      `Invalid params: ${issue === undefined ? "invalid parameters" : describeIssue(issue)}.`,
    );
  }
  return result.data;
}

/**
 * Base58 text of `size` bytes (at most `maxLength` characters), as a validator parses it: not base58 is
 * "<prefix>Invalid", another length "<prefix>WrongSize".
 */
function parseBase58(text: string, maxLength: number, size: number, prefix: string): string {
  const bytes = decodeBase58(text, maxLength);
  if (bytes === null) {
    throw invalidParams(`${prefix}Invalid`);
  }
  if (bytes.length !== size) {
    throw invalidParams(`${prefix}WrongSize`);
  }
  return text;
}

/** A public key as a validator parses it: "Invalid param: WrongSize" / "Invalid param: Invalid". */
export function parsePubkey(text: string): string {
  return parseBase58(text, 44, 32, "Invalid param: ");
}

export function parseSignature(text: string): string {
  return parseBase58(text, 88, 64, "Invalid param: ");
}

/** A blockhash, with the bare error wording isBlockhashValid uses ("WrongSize" / "Invalid"). */
export function parseHash(text: string, prefix = ""): string {
  return parseBase58(text, 44, 32, prefix);
}

function decodeBase58(text: string, maxLength: number): Uint8Array | null {
  if (text.length > maxLength) {
    return new Uint8Array(0);
  }
  try {
    return bs58.decode(text);
  } catch {
    return null;
  }
}
