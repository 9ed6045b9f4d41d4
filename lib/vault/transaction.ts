// Assembles an unsigned v0 transaction for a wallet: compute-unit limit and price first, then the
// action's instructions, the wallet as fee payer and a recent blockhash from the cache.
import {
  ComputeBudgetProgram,
  TransactionMessage,
  VersionedTransaction,
  type PublicKey,
  type TransactionInstruction,
} from "@solana/web3.js";

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

export function buildUnsignedTransaction(
  payer: PublicKey,
  action: TransactionAction,
  instructions: readonly TransactionInstruction[],
  blockhash: RecentBlockhash,
  computeUnitPriceMicroLamports: number,
): BuiltTransaction {
  const computeUnitLimit = COMPUTE_UNIT_BUDGETS[action];
  const message = new TransactionMessage({
    payerKey: payer,
    recentBlockhash: blockhash.blockhash,
    instructions: [
      ComputeBudgetProgram.setComputeUnitLimit({ units: computeUnitLimit }),
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: computeUnitPriceMicroLamports }),
      ...instructions,
    ],
  }).compileToV0Message();
  const transaction = new VersionedTransaction(message);
  return {
    transaction: Buffer.from(transaction.serialize()).toString("base64"),
    lastValidBlockHeight: blockhash.lastValidBlockHeight,
    expiresAt: new Date(blockhash.expiresAtMs).toISOString(),
    computeUnitLimit,
    computeUnitPriceMicroLamports,
  };
}

/** The most a single-signature transaction with this budget and price costs in fees. */
export function maximumFee(action: TransactionAction, computeUnitPriceMicroLamports: number): bigint {
  const priority =
    (BigInt(COMPUTE_UNIT_BUDGETS[action]) * BigInt(computeUnitPriceMicroLamports) + 999_999n) / 1_000_000n;
  return LAMPORTS_PER_SIGNATURE + priority;
}
