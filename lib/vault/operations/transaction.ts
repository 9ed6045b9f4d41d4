// Assembles an unsigned v0 transaction for a wallet: compute-unit limit and price first, then the
// action's instructions, the wallet as fee payer and a recent blockhash from the cache.
import bs58 from "bs58";
import { ComputeBudgetProgram, type PublicKey, type TransactionInstruction } from "@solana/web3.js";

import { base58Of } from "../../chain/base58";
import { boundedMemo } from "../../chain/bounded-memo";
import { ASSOCIATED_TOKEN_PROGRAM_ID, findAssociatedTokenAddressAndBump } from "../../chain/spl-token";
import { findQueueHolesAndBump, findReceiptAndBump } from "../program/addresses";
import { VAULT_PROGRAM_ID, findIdlInstruction } from "../program/idl";

import type { RecentBlockhash } from "../../chain/blockhash";
import { LAMPORTS_PER_SIGNATURE } from "../model/vault-state";

/**
 * Compute units per action, from the consumption measured in tests/api/transaction-budget.test.ts
 * (worst case: associated token accounts created) with headroom, for accounts whose bump seed is 255;
 * computeUnitLimit adds what a lower bump costs. The test fails if one runs over. The cancel's worst
 * case (share account re-opened and the vault's hole list created: 22,362 CU) is measured in
 * tests/api/endpoints/cancel.test.ts.
 */
export const COMPUTE_UNIT_BUDGETS = {
  deposit: 40_000,
  initiate: 20_000,
  claim: 40_000,
  cancel: 30_000,
} as const;

export type TransactionAction = keyof typeof COMPUTE_UNIT_BUDGETS;

/**
 * A program that derives the account it creates searches for its bump seed, 255 down, and each try
 * costs it 1,500 CU (create_program_address's price). Half of all addresses need a second try, one in a
 * thousand eleven: a fixed budget would refuse those wallets' transactions.
 */
export const BUMP_TRY_UNITS = 1_500;

const REQUEST_WITHDRAWAL = findIdlInstruction("request_withdrawal");
const REQUEST_WITHDRAWAL_TAG = Buffer.from(REQUEST_WITHDRAWAL.discriminator);
const REQUEST_WITHDRAWAL_OWNER = REQUEST_WITHDRAWAL.accounts.findIndex((account) => account.name === "owner");
const REQUEST_WITHDRAWAL_VAULT = REQUEST_WITHDRAWAL.accounts.findIndex((account) => account.name === "vault");
const CANCEL_WITHDRAWAL = findIdlInstruction("cancel_withdrawal");
const CANCEL_WITHDRAWAL_TAG = Buffer.from(CANCEL_WITHDRAWAL.discriminator);
const CANCEL_WITHDRAWAL_VAULT = CANCEL_WITHDRAWAL.accounts.findIndex((account) => account.name === "vault");

/**
 * The bump seed an instruction searches for on chain, or null when it searches none: the associated
 * token program's account (owner and mint at keys 2 and 3), the withdrawal receipt the vault's
 * request_withdrawal creates (find_program_address over the vault and owner), and the vault's
 * queue-hole list cancel_withdrawal looks for while it does not exist (counted always: the build does
 * not know whether this cancel is the one that creates it).
 */
function searchedBump(instruction: TransactionInstruction): number | null {
  const { keys, programId, data } = instruction;
  if (programId.equals(ASSOCIATED_TOKEN_PROGRAM_ID)) {
    const owner = keys[2]?.pubkey;
    const mint = keys[3]?.pubkey;
    return owner === undefined || mint === undefined
      ? null
      : findAssociatedTokenAddressAndBump(owner, mint).bump;
  }
  if (
    programId.equals(VAULT_PROGRAM_ID) &&
    data.subarray(0, REQUEST_WITHDRAWAL_TAG.length).equals(REQUEST_WITHDRAWAL_TAG)
  ) {
    const owner = keys[REQUEST_WITHDRAWAL_OWNER]?.pubkey;
    const vault = keys[REQUEST_WITHDRAWAL_VAULT]?.pubkey;
    return owner === undefined || vault === undefined ? null : findReceiptAndBump(vault, owner).bump;
  }
  if (
    programId.equals(VAULT_PROGRAM_ID) &&
    data.subarray(0, CANCEL_WITHDRAWAL_TAG.length).equals(CANCEL_WITHDRAWAL_TAG)
  ) {
    const vault = keys[CANCEL_WITHDRAWAL_VAULT]?.pubkey;
    return vault === undefined ? null : findQueueHolesAndBump(vault).bump;
  }
  return null;
}

/** The action's budget plus what its instructions' bump searches cost beyond their first try. */
export function computeUnitLimit(
  action: TransactionAction,
  instructions: readonly TransactionInstruction[],
): number {
  let units: number = COMPUTE_UNIT_BUDGETS[action];
  for (const instruction of instructions) {
    const bump = searchedBump(instruction);
    if (bump !== null) {
      units += (255 - bump) * BUMP_TRY_UNITS;
    }
  }
  return units;
}

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

/** Bytes of a compact-u16 (Solana's short vector length): 7 bits a byte, high bit = more follows. */
function compactU16Size(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : 3;
}

function writeCompactU16(out: Uint8Array, offset: number, value: number): number {
  let rest = value;
  let at = offset;
  for (;;) {
    const low = rest & 0x7f;
    rest >>= 7;
    if (rest === 0) {
      out[at] = low;
      return at + 1;
    }
    out[at] = low | 0x80;
    at += 1;
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
 * serialize produce (lib/vault/operations/transaction.test.ts checks), without their base58 bookkeeping, which
 * costs more than the rest of a deposit build. Sized first, then written into one buffer.
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
  // Payer first (the map's first entry), then writable signers, read-only signers, writable and
  // read-only non-signers.
  const groups: AccountEntry[][] = [[], [], [], []];
  for (const entry of entries.values()) {
    groups[(entry.signer ? 0 : 2) + (entry.writable ? 0 : 1)]?.push(entry);
  }
  const [writableSigners = [], readonlySigners = [], writable = [], readonly = []] = groups;
  const ordered = [...writableSigners, ...readonlySigners, ...writable, ...readonly];
  const index = new Map<string, number>();
  ordered.forEach((entry, position) => index.set(hexOf(entry.key), position));
  const signers = writableSigners.length + readonlySigners.length;

  let size = compactU16Size(signers) + 64 * signers;
  // Version prefix and the three header counts, the account keys, the blockhash.
  size += 4 + compactU16Size(ordered.length) + 32 * ordered.length + 32;
  size += compactU16Size(instructions.length);
  for (const instruction of instructions) {
    const { keys, data } = instruction;
    size += 1 + compactU16Size(keys.length) + keys.length + compactU16Size(data.length) + data.length;
  }
  size += 1;

  // Zero-filled: the signatures stay zero.
  const out = new Uint8Array(size);
  let offset = writeCompactU16(out, 0, signers) + 64 * signers;
  out[offset] = 0x80;
  out[offset + 1] = signers;
  out[offset + 2] = readonlySigners.length;
  out[offset + 3] = readonly.length;
  offset = writeCompactU16(out, offset + 4, ordered.length);
  for (const entry of ordered) {
    out.set(bytesOf(entry.key), offset);
    offset += 32;
  }
  out.set(blockhashBytes(recentBlockhash), offset);
  offset = writeCompactU16(out, offset + 32, instructions.length);
  for (const instruction of instructions) {
    out[offset] = index.get(hexOf(instruction.programId)) ?? 0;
    offset = writeCompactU16(out, offset + 1, instruction.keys.length);
    for (const meta of instruction.keys) {
      out[offset] = index.get(hexOf(meta.pubkey)) ?? 0;
      offset += 1;
    }
    offset = writeCompactU16(out, offset, instruction.data.length);
    out.set(instruction.data, offset);
    offset += instruction.data.length;
  }
  // No address-table lookups: the last byte stays 0.
  return out;
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
  const [units = "0", price = "0"] = key.split(":");
  return [
    ComputeBudgetProgram.setComputeUnitLimit({ units: Number(units) }),
    ComputeBudgetProgram.setComputeUnitPrice({ microLamports: Number(price) }),
  ];
}, 1_000);

/** The compute-budget instructions of a limit at a price (immutable, so shared between builds). */
export function computeBudgetInstructions(
  units: number,
  computeUnitPriceMicroLamports: number,
): readonly TransactionInstruction[] {
  return budgetInstructions(`${units}:${computeUnitPriceMicroLamports}`);
}

export function buildUnsignedTransaction(
  payer: PublicKey,
  action: TransactionAction,
  instructions: readonly TransactionInstruction[],
  blockhash: RecentBlockhash,
  computeUnitPriceMicroLamports: number,
): BuiltTransaction {
  const units = computeUnitLimit(action, instructions);
  const bytes = serializeUnsignedV0(
    payer,
    [...computeBudgetInstructions(units, computeUnitPriceMicroLamports), ...instructions],
    blockhash.blockhash,
  );
  return {
    transaction: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"),
    lastValidBlockHeight: blockhash.lastValidBlockHeight,
    expiresAt: new Date(blockhash.expiresAtMs).toISOString(),
    computeUnitLimit: units,
    computeUnitPriceMicroLamports,
  };
}

/** The most a single-signature transaction with this compute-unit limit and price costs in fees. */
export function maximumFee(units: number, computeUnitPriceMicroLamports: number): bigint {
  const priority = (BigInt(units) * BigInt(computeUnitPriceMicroLamports) + 999_999n) / 1_000_000n;
  return LAMPORTS_PER_SIGNATURE + priority;
}
