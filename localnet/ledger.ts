// The chain's transaction history: every executed transaction with the metadata a validator stores
// (slot, block time, balances, token balances, logs, compute units, error), indexed by signature, by
// address (newest last) and by slot, and serializable for --state-dir.
import { z } from "zod";

import type { TransactionErrorJson } from "./transaction-error";

export interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  amount: bigint;
  decimals: number;
}

export interface InnerInstruction {
  programIdIndex: number;
  accounts: number[];
  data: Uint8Array;
  stackHeight: number;
}

export interface InnerInstructions {
  index: number;
  instructions: InnerInstruction[];
}

export interface ReturnData {
  programId: string;
  data: Uint8Array;
}

export interface TransactionRecord {
  signature: string;
  slot: bigint;
  blockTime: number;
  /** Position among the slot's transactions. */
  index: number;
  wire: Uint8Array;
  version: "legacy" | 0;
  /** Static keys, then keys loaded from lookup tables (writable, then readonly). */
  accountKeys: string[];
  writable: boolean[];
  loadedAddresses: { writable: string[]; readonly: string[] };
  err: TransactionErrorJson | null;
  fee: bigint;
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  logs: string[];
  innerInstructions: InnerInstructions[];
  computeUnitsConsumed: bigint;
  returnData: ReturnData | null;
  /** Micro-lamports per compute unit the transaction offered. */
  computeUnitPrice: bigint;
  memo: string | null;
}

/** How long the status of a transaction stays in a validator's status cache (MAX_CACHE_ENTRIES). */
export const STATUS_CACHE_SLOTS = 300n;

export class Ledger {
  private readonly records = new Map<string, TransactionRecord>();
  private readonly signaturesByAddress = new Map<string, string[]>();
  private readonly signaturesBySlot = new Map<bigint, string[]>();

  get transactionCount(): number {
    return this.records.size;
  }

  has(signature: string): boolean {
    return this.records.has(signature);
  }

  get(signature: string): TransactionRecord | undefined {
    return this.records.get(signature);
  }

  add(record: TransactionRecord): void {
    this.records.set(record.signature, record);
    for (const address of new Set(record.accountKeys)) {
      const signatures = this.signaturesByAddress.get(address);
      if (signatures === undefined) {
        this.signaturesByAddress.set(address, [record.signature]);
      } else {
        signatures.push(record.signature);
      }
    }
    const inSlot = this.signaturesBySlot.get(record.slot);
    if (inSlot === undefined) {
      this.signaturesBySlot.set(record.slot, [record.signature]);
    } else {
      inSlot.push(record.signature);
    }
  }

  countInSlot(slot: bigint): number {
    return this.signaturesBySlot.get(slot)?.length ?? 0;
  }

  inSlot(slot: bigint): TransactionRecord[] {
    return (this.signaturesBySlot.get(slot) ?? []).flatMap((signature) => {
      const record = this.records.get(signature);
      return record === undefined ? [] : [record];
    });
  }

  /** Transactions touching `address`, newest first. */
  *forAddressNewestFirst(address: string): Generator<TransactionRecord> {
    const signatures = this.signaturesByAddress.get(address) ?? [];
    for (let position = signatures.length - 1; position >= 0; position -= 1) {
      const record = this.records.get(signatures[position] ?? "");
      if (record !== undefined) {
        yield record;
      }
    }
  }

  toJSON(): unknown {
    return [...this.records.values()].map(serializeRecord);
  }

  static fromJSON(value: unknown): Ledger {
    const ledger = new Ledger();
    for (const record of z.array(storedRecordSchema).parse(value)) {
      ledger.add(record);
    }
    return ledger;
  }
}

const bigintString = z
  .string()
  .regex(/^-?\d+$/)
  .transform(BigInt);
const bytesBase64 = z.string().transform((text) => new Uint8Array(Buffer.from(text, "base64")));

const tokenBalanceSchema = z.object({
  accountIndex: z.number().int(),
  mint: z.string(),
  owner: z.string(),
  programId: z.string(),
  amount: bigintString,
  decimals: z.number().int(),
});

const instructionErrorSchema = z.union([
  z.string(),
  z.object({ Custom: z.number().int() }),
  z.object({ BorshIoError: z.string() }),
]);

const transactionErrorSchema = z.union([
  z.string(),
  z.object({ InstructionError: z.tuple([z.number().int(), instructionErrorSchema]) }),
  z.object({ DuplicateInstruction: z.number().int() }),
  z.object({ InsufficientFundsForRent: z.object({ account_index: z.number().int() }) }),
  z.object({ ProgramExecutionTemporarilyRestricted: z.object({ account_index: z.number().int() }) }),
]);

const storedRecordSchema = z.object({
  signature: z.string(),
  slot: bigintString,
  blockTime: z.number(),
  index: z.number().int(),
  wire: bytesBase64,
  version: z.union([z.literal("legacy"), z.literal(0)]),
  accountKeys: z.array(z.string()),
  writable: z.array(z.boolean()),
  loadedAddresses: z.object({ writable: z.array(z.string()), readonly: z.array(z.string()) }),
  err: transactionErrorSchema.nullable(),
  fee: bigintString,
  preBalances: z.array(bigintString),
  postBalances: z.array(bigintString),
  preTokenBalances: z.array(tokenBalanceSchema),
  postTokenBalances: z.array(tokenBalanceSchema),
  logs: z.array(z.string()),
  innerInstructions: z.array(
    z.object({
      index: z.number().int(),
      instructions: z.array(
        z.object({
          programIdIndex: z.number().int(),
          accounts: z.array(z.number().int()),
          data: bytesBase64,
          stackHeight: z.number().int(),
        }),
      ),
    }),
  ),
  computeUnitsConsumed: bigintString,
  returnData: z.object({ programId: z.string(), data: bytesBase64 }).nullable(),
  computeUnitPrice: bigintString,
  memo: z.string().nullable(),
});

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

function serializeTokenBalance(balance: TokenBalance): unknown {
  return { ...balance, amount: balance.amount.toString() };
}

function serializeRecord(record: TransactionRecord): unknown {
  return {
    ...record,
    slot: record.slot.toString(),
    wire: base64(record.wire),
    fee: record.fee.toString(),
    preBalances: record.preBalances.map(String),
    postBalances: record.postBalances.map(String),
    preTokenBalances: record.preTokenBalances.map(serializeTokenBalance),
    postTokenBalances: record.postTokenBalances.map(serializeTokenBalance),
    innerInstructions: record.innerInstructions.map((inner) => ({
      index: inner.index,
      instructions: inner.instructions.map((instruction) => ({
        ...instruction,
        data: base64(instruction.data),
      })),
    })),
    computeUnitsConsumed: record.computeUnitsConsumed.toString(),
    returnData:
      record.returnData === null
        ? null
        : { programId: record.returnData.programId, data: base64(record.returnData.data) },
    computeUnitPrice: record.computeUnitPrice.toString(),
  };
}
