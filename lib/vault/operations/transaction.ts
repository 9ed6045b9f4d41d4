// Assembles an unsigned v0 transaction for a wallet: compute-unit limit and price first, then the
// operation's instructions, the wallet as fee payer and a recent blockhash from the cache.
import bs58 from "bs58";
import { ComputeBudgetProgram, type PublicKey, type TransactionInstruction } from "@solana/web3.js";

import { base58Of } from "../../chain/base58";
import { boundedMemo } from "../../chain/bounded-memo";
import { ASSOCIATED_TOKEN_PROGRAM_ID, findAssociatedTokenAddressAndBump } from "../../chain/spl-token";
import { VAULT_PROGRAM_ID } from "../program/idl";
import type { OperationDefinition } from "./operation";

import type { RecentBlockhash } from "../../chain/blockhash";
import { LAMPORTS_PER_SIGNATURE } from "../model/vault-state";

/**
 * A program that derives the account it creates searches for its bump seed, 255 down, and each try
 * costs it 1,500 CU (create_program_address's price). Half of all addresses need a second try, one in a
 * thousand eleven: a fixed budget would refuse those wallets' transactions.
 */
export const BUMP_TRY_UNITS = 1_500;

/**
 * The bump seed an instruction searches for on chain, or null when it searches none: the associated
 * token program's account (owner and mint at keys 2 and 3), and whatever the operation's own program
 * instruction derives (its definition's searchedBump: a request's receipt, a cancel's hole list).
 */
function searchedBump(operation: OperationDefinition, instruction: TransactionInstruction): number | null {
  const { keys, programId, data } = instruction;
  if (programId.equals(ASSOCIATED_TOKEN_PROGRAM_ID)) {
    const owner = keys[2]?.pubkey;
    const mint = keys[3]?.pubkey;
    return owner === undefined || mint === undefined
      ? null
      : findAssociatedTokenAddressAndBump(owner, mint).bump;
  }
  const { discriminator } = operation.instruction;
  if (
    operation.searchedBump === null ||
    !programId.equals(VAULT_PROGRAM_ID) ||
    !discriminator.every((byte, index) => data[index] === byte)
  ) {
    return null;
  }
  return operation.searchedBump((name) => keys[operation.accountIndex(name)]?.pubkey);
}

/** The operation's budget plus what its instructions' bump searches cost beyond their first try. */
export function computeUnitLimit(
  operation: OperationDefinition,
  instructions: readonly TransactionInstruction[],
): number {
  let units = operation.computeUnits;
  for (const instruction of instructions) {
    const bump = searchedBump(operation, instruction);
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
  operation: OperationDefinition,
  instructions: readonly TransactionInstruction[],
  blockhash: RecentBlockhash,
  computeUnitPriceMicroLamports: number,
): BuiltTransaction {
  const units = computeUnitLimit(operation, instructions);
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
