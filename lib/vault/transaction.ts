// Assembles an unsigned v0 transaction for a wallet: compute-unit limit and price first, then the
// action's instructions, the wallet as fee payer and a recent blockhash from the cache.
import bs58 from "bs58";
import { ComputeBudgetProgram, type PublicKey, type TransactionInstruction } from "@solana/web3.js";

import { base58Of, boundedMemo } from "../chain/bounded-memo";

import type { RecentBlockhash } from "../chain/blockhash";
import { LAMPORTS_PER_SIGNATURE } from "./vault-state";

/**
 * Compute units per action, from the consumption measured in tests/api/transaction-budget.test.ts
 * (worst case: associated token accounts created) with headroom; the test fails if one runs over.
 */
export const COMPUTE_UNIT_BUDGETS = {
  deposit: 40_000,
  initiate: 20_000,
  claim: 40_000,
} as const;

export type TransactionAction = keyof typeof COMPUTE_UNIT_BUDGETS;

export interface BuiltTransaction {
  /** Base64 of the unsigned, serialized VersionedTransaction. */
  transaction: string;
  lastValidBlockHeight: number;
  expiresAt: string;
  computeUnitLimit: number;
  computeUnitPriceMicroLamports: number;
}

interface AccountEntry {
  key: PublicKey;
  signer: boolean;
  writable: boolean;
}

function pushCompactU16(bytes: number[], value: number): void {
  let rest = value;
  for (;;) {
    const low = rest & 0x7f;
    rest >>= 7;
    if (rest === 0) {
      bytes.push(low);
      return;
    }
    bytes.push(low | 0x80);
  }
}

// Keys are told apart by their base58 text and written as bytes, both remembered per key object
// (web3.js keeps keys as big numbers and converts on every call).
const hexOf = base58Of;
const keyBytes = new WeakMap<PublicKey, Uint8Array>();

function bytesOf(key: PublicKey): Uint8Array {
  let bytes = keyBytes.get(key);
  if (bytes === undefined) {
    bytes = key.toBytes();
    keyBytes.set(key, bytes);
  }
  return bytes;
}

const blockhashBytes = boundedMemo((blockhash) => bs58.decode(blockhash), 1_000);

/**
 * The wire bytes of an unsigned v0 transaction without lookup tables: one zeroed signature per
 * signer, then the message (accounts ordered writable signers with the payer first, read-only
 * signers, writable and read-only non-signers). Byte for byte what web3.js's compileToV0Message and
 * serialize produce (lib/vault/transaction.test.ts checks), without their base58 bookkeeping, which
 * costs more than the rest of a deposit build.
 */
export function serializeUnsignedV0(
  payer: PublicKey,
  instructions: readonly TransactionInstruction[],
  recentBlockhash: string,
): Uint8Array {
  const entries = new Map<string, AccountEntry>();
  const payerId = hexOf(payer);
  entries.set(payerId, { key: payer, signer: true, writable: true });
  for (const instruction of instructions) {
    noteAccount(entries, instruction.programId, false, false);
    for (const meta of instruction.keys) {
      noteAccount(entries, meta.pubkey, meta.isSigner, meta.isWritable);
    }
  }
  // Payer first, then writable signers, read-only signers, writable and read-only non-signers.
  const groups: AccountEntry[][] = [[], [], [], []];
  for (const [id, entry] of entries) {
    if (id !== payerId) {
      groups[(entry.signer ? 0 : 2) + (entry.writable ? 0 : 1)]?.push(entry);
    }
  }
  const [writableSigners = [], readonlySigners = [], writable = [], readonly = []] = groups;
  const ordered = [entries.get(payerId) ?? { key: payer, signer: true, writable: true }];
  ordered.push(...writableSigners, ...readonlySigners, ...writable, ...readonly);
  const index = new Map<string, number>();
  for (let position = 0; position < ordered.length; position += 1) {
    const entry = ordered[position];
    if (entry !== undefined) {
      index.set(hexOf(entry.key), position);
    }
  }
  const signers = 1 + writableSigners.length + readonlySigners.length;

  const head: number[] = [];
  pushCompactU16(head, signers);
  const signatureBytes = Uint8Array.from(head);
  head.length = 0;
  head.push(0x80, signers, readonlySigners.length, readonly.length);
  pushCompactU16(head, ordered.length);
  const chunks: Uint8Array[] = [signatureBytes, new Uint8Array(64 * signers), Uint8Array.from(head)];
  for (const entry of ordered) {
    chunks.push(bytesOf(entry.key));
  }
  chunks.push(blockhashBytes(recentBlockhash));
  const body: number[] = [];
  pushCompactU16(body, instructions.length);
  for (const instruction of instructions) {
    body.push(index.get(hexOf(instruction.programId)) ?? 0);
    pushCompactU16(body, instruction.keys.length);
    for (const meta of instruction.keys) {
      body.push(index.get(hexOf(meta.pubkey)) ?? 0);
    }
    pushCompactU16(body, instruction.data.length);
    chunks.push(Uint8Array.from(body), instruction.data);
    body.length = 0;
  }
  // No address-table lookups.
  chunks.push(Uint8Array.of(0));
  return Buffer.concat(chunks);
}

function noteAccount(
  entries: Map<string, AccountEntry>,
  key: PublicKey,
  signer: boolean,
  writable: boolean,
): void {
  const id = hexOf(key);
  const entry = entries.get(id);
  if (entry === undefined) {
    entries.set(id, { key, signer, writable });
  } else {
    entry.signer ||= signer;
    entry.writable ||= writable;
  }
}

const budgetInstructions = boundedMemo((key): TransactionInstruction[] => {
  const [action = "deposit", price = "0"] = key.split(":");
  return [
    ComputeBudgetProgram.setComputeUnitLimit({ units: COMPUTE_UNIT_BUDGETS[action as TransactionAction] }),
    ComputeBudgetProgram.setComputeUnitPrice({ microLamports: Number(price) }),
  ];
}, 1_000);

/** The compute-budget instructions of an action at a price (immutable, so shared between builds). */
export function computeBudgetInstructions(
  action: TransactionAction,
  computeUnitPriceMicroLamports: number,
): readonly TransactionInstruction[] {
  return budgetInstructions(`${action}:${computeUnitPriceMicroLamports}`);
}

export function buildUnsignedTransaction(
  payer: PublicKey,
  action: TransactionAction,
  instructions: readonly TransactionInstruction[],
  blockhash: RecentBlockhash,
  computeUnitPriceMicroLamports: number,
): BuiltTransaction {
  const bytes = serializeUnsignedV0(
    payer,
    [...computeBudgetInstructions(action, computeUnitPriceMicroLamports), ...instructions],
    blockhash.blockhash,
  );
  return {
    transaction: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"),
    lastValidBlockHeight: blockhash.lastValidBlockHeight,
    expiresAt: new Date(blockhash.expiresAtMs).toISOString(),
    computeUnitLimit: COMPUTE_UNIT_BUDGETS[action],
    computeUnitPriceMicroLamports,
  };
}

/** The most a single-signature transaction with this budget and price costs in fees. */
export function maximumFee(action: TransactionAction, computeUnitPriceMicroLamports: number): bigint {
  const priority =
    (BigInt(COMPUTE_UNIT_BUDGETS[action]) * BigInt(computeUnitPriceMicroLamports) + 999_999n) / 1_000_000n;
  return LAMPORTS_PER_SIGNATURE + priority;
}
