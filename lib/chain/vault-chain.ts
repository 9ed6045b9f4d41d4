// Everything the vault domain reads from the chain, behind one interface so domain code takes it as
// an argument (and tests can hand in their own): accounts (cached or fresh), the recent blockhash,
// the priority fee, transactions and the signatures of an address.
import type { PublicKey } from "@solana/web3.js";
import { z } from "zod";

import { AccountCache, type ChainAccount } from "./accounts";
import { base58Of } from "./base58";
import { BlockhashCache, PriorityFeeCache, type RecentBlockhash } from "./blockhash";
import { ChainUnavailableError, type RpcClient } from "./rpc";

/**
 * cached: the account cache's entries (up to a few seconds old); fresh: a read of one's own now;
 * fresh-shared: a read sent after the call, shared by concurrent callers asking for the same accounts.
 */
export type ReadMode = "cached" | "fresh" | "fresh-shared";

export interface ConfirmedTransaction {
  slot: number;
  blockTime: number | null;
  err: unknown;
  logMessages: string[] | null;
  /** Static account keys of the message, signers first. */
  accountKeys: string[];
  numRequiredSignatures: number;
}

export interface SignatureInfo {
  signature: string;
  slot: number;
  blockTime: number | null;
  err: unknown;
}

/** An account as simulateTransaction's `accounts` config returns it (data: [base64, "base64"]). */
export interface SimulatedAccount {
  lamports: number;
  owner: string;
  data: readonly string[];
}

export interface SimulatedTransaction {
  /** The TransactionError, or null when the simulation succeeded. */
  err: unknown;
  /** The requested accounts after the transaction, in the order asked; null for one that does not exist. */
  accounts: (SimulatedAccount | null)[];
  unitsConsumed: number | null;
}

export interface VaultChain {
  getAccounts(addresses: readonly PublicKey[], mode: ReadMode): Promise<(ChainAccount | null)[]>;
  recentBlockhash(): Promise<RecentBlockhash>;
  /** Compute-unit price in micro-lamports for a transaction writing these accounts. */
  priorityFee(writable: readonly PublicKey[]): Promise<number>;
  getTransaction(signature: string): Promise<ConfirmedTransaction | null>;
  getSignaturesForAddress(address: PublicKey, limit: number): Promise<SignatureInfo[]>;
  getSlot(): Promise<number>;
  /** Simulates an unsigned transaction (base64) as it is, returning the named accounts after it. */
  simulate(transaction: string, accounts: readonly PublicKey[]): Promise<SimulatedTransaction>;
}

const simulatedAccountSchema = z.object({
  lamports: z.number(),
  owner: z.string(),
  data: z.array(z.string()),
});

const simulationSchema = z.object({
  value: z.object({
    err: z.unknown(),
    accounts: z.array(simulatedAccountSchema.nullable()).nullable().optional(),
    unitsConsumed: z.number().nullable().optional(),
  }),
});

const transactionSchema = z
  .object({
    slot: z.number(),
    blockTime: z.number().nullable().optional(),
    meta: z.object({ err: z.unknown(), logMessages: z.array(z.string()).nullable().optional() }).nullable(),
    transaction: z.object({
      message: z.object({
        accountKeys: z.array(z.string()),
        header: z.object({ numRequiredSignatures: z.number() }),
      }),
    }),
  })
  .nullable();

const signaturesSchema = z.array(
  z.object({
    signature: z.string(),
    slot: z.number(),
    blockTime: z.number().nullable().optional(),
    err: z.unknown(),
  }),
);

export interface RpcVaultChainOptions {
  slotMs: number;
  priorityFeeCapMicroLamports: number;
  accountFreshMs?: number;
  accountStaleMs?: number;
}

export class RpcVaultChain implements VaultChain {
  private readonly accounts: AccountCache;
  private readonly blockhashes: BlockhashCache;
  private readonly fees: PriorityFeeCache;

  constructor(
    readonly rpc: RpcClient,
    options: RpcVaultChainOptions,
  ) {
    this.accounts = new AccountCache(rpc, {
      freshMs: options.accountFreshMs ?? 1_000,
      staleMs: options.accountStaleMs ?? 5_000,
    });
    this.blockhashes = new BlockhashCache(rpc, options.slotMs);
    this.fees = new PriorityFeeCache(rpc, { capMicroLamports: options.priorityFeeCapMicroLamports });
  }

  getAccounts(addresses: readonly PublicKey[], mode: ReadMode): Promise<(ChainAccount | null)[]> {
    return this.accounts.get(addresses, { fresh: mode !== "cached", shared: mode === "fresh-shared" });
  }

  recentBlockhash(): Promise<RecentBlockhash> {
    return this.blockhashes.get();
  }

  blockhashAgeMs(): number | null {
    return this.blockhashes.ageMs();
  }

  priorityFee(writable: readonly PublicKey[]): Promise<number> {
    return this.fees.get(writable.map((address) => base58Of(address)));
  }

  async getTransaction(signature: string): Promise<ConfirmedTransaction | null> {
    const raw = await this.rpc.call<unknown>("getTransaction", [
      signature,
      { commitment: "confirmed", encoding: "json", maxSupportedTransactionVersion: 0 },
    ]);
    const parsed = transactionSchema.safeParse(raw);
    if (!parsed.success) {
      throw new ChainUnavailableError("getTransaction returned an unexpected shape");
    }
    const transaction = parsed.data;
    if (transaction === null) {
      return null;
    }
    return {
      slot: transaction.slot,
      blockTime: transaction.blockTime ?? null,
      err: transaction.meta?.err ?? null,
      logMessages: transaction.meta?.logMessages ?? null,
      accountKeys: transaction.transaction.message.accountKeys,
      numRequiredSignatures: transaction.transaction.message.header.numRequiredSignatures,
    };
  }

  async getSignaturesForAddress(address: PublicKey, limit: number): Promise<SignatureInfo[]> {
    const raw = await this.rpc.call<unknown>("getSignaturesForAddress", [
      address.toBase58(),
      { limit, commitment: "confirmed" },
    ]);
    const parsed = signaturesSchema.safeParse(raw);
    if (!parsed.success) {
      throw new ChainUnavailableError("getSignaturesForAddress returned an unexpected shape");
    }
    return parsed.data.map((entry) => ({ ...entry, blockTime: entry.blockTime ?? null }));
  }

  async getSlot(): Promise<number> {
    const slot = await this.rpc.call<unknown>("getSlot", [{ commitment: "confirmed" }]);
    if (typeof slot !== "number") {
      throw new ChainUnavailableError("getSlot returned an unexpected shape");
    }
    return slot;
  }

  async simulate(transaction: string, accounts: readonly PublicKey[]): Promise<SimulatedTransaction> {
    const raw = await this.rpc.call<unknown>("simulateTransaction", [
      transaction,
      {
        encoding: "base64",
        sigVerify: false,
        replaceRecentBlockhash: false,
        commitment: "confirmed",
        accounts: { encoding: "base64", addresses: accounts.map((address) => base58Of(address)) },
      },
    ]);
    const parsed = simulationSchema.safeParse(raw);
    if (!parsed.success) {
      throw new ChainUnavailableError("simulateTransaction returned an unexpected shape");
    }
    const { err, accounts: after, unitsConsumed } = parsed.data.value;
    return {
      err: err ?? null,
      accounts: after ?? accounts.map(() => null),
      unitsConsumed: unitsConsumed ?? null,
    };
  }

  /** Forgets every cached account, blockhash and fee: they were read from another chain. */
  forgetChain(): void {
    this.accounts.clear();
    this.blockhashes.clear();
    this.fees.clear();
  }

  stop(): void {
    this.blockhashes.stop();
    this.fees.stop();
  }
}
