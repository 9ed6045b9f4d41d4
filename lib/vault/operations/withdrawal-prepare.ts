// What the withdrawal operations' prepare steps share (lib/vault/operations/request-withdrawal.ts,
// claim-withdrawal.ts, cancel-withdrawal.ts): the request and the answer's shape, the refusals the
// program would make (paused, SOL, cap capacity at this moment; capacity is checked, never reserved),
// and the build of the wallet's transaction.
import type { PublicKey, TransactionInstruction } from "@solana/web3.js";

import type { RecentBlockhash } from "../../chain/blockhash";
import { base58Of } from "../../chain/base58";
import { firstOverflow } from "../model/cap-window";
import { DomainError } from "../model/domain-errors";
import { navSilent } from "../model/manager-silence";
import { sharePrice, withdrawalAmounts } from "../model/share-math";
import { formatHuman, tokenAmount, type TokenAmount } from "../model/token-amount";
import { withdrawalWindows, type LoadedVault, type VaultDeps } from "../model/vault-state";
import type { WithdrawalLimits, WithdrawalPolicy } from "../model/withdrawal-rules";
import type { WithdrawalReceiptAccount } from "../program/accounts";
import { simulateExpectedBalanceChanges, type ExpectedBalanceChanges } from "./expected-balance-changes";
import type { OperationDefinition } from "./operation";
import { buildUnsignedTransaction, computeUnitLimit, maximumFee } from "./transaction";
import type { WithdrawalAccounts } from "./withdrawal-accounts";

export type WithdrawAction = "initiate" | "claim" | "cancel";

export interface WithdrawOptions {
  /** Simulate the built transaction and report the wallet's balance changes (the partner API does). */
  simulateBalanceChanges?: boolean;
}

export interface WithdrawRequest {
  vault: PublicKey;
  wallet: PublicKey;
  sharesAmount?: bigint;
  action?: WithdrawAction;
}

export interface WithdrawalEstimate {
  shares: TokenAmount;
  gross: TokenAmount;
  fee: TokenAmount;
  net: TokenAmount;
  sharePrice: number;
}

export interface InitiateDetails {
  withdrawalPolicy: WithdrawalPolicy;
  withdrawalLimits: WithdrawalLimits;
  withdrawalEstimate: WithdrawalEstimate;
  withdrawalReservation: null;
}

export interface ClaimDetails {
  requestId: string;
  claimAmount: WithdrawalEstimate;
  withdrawalPolicy: WithdrawalPolicy;
  withdrawalLimits: WithdrawalLimits;
  withdrawalEstimate: null;
  withdrawalReservation: null;
}

export interface CancelDetails {
  requestId: string;
  /** The escrowed shares that come back to the wallet. */
  returnedShares: TokenAmount;
  /** What those shares are worth at today's share price (they stay in the vault, earning). */
  returnedValue: TokenAmount;
  withdrawalPolicy: WithdrawalPolicy;
  withdrawalLimits: WithdrawalLimits;
  withdrawalEstimate: null;
  withdrawalReservation: null;
}

export type PreparedWithdrawal = {
  transaction: string;
  message: string;
  lastValidBlockHeight: number;
  expiresAt: string;
  /** The wallet's changes in a simulation at build time; null when not simulated or it failed. */
  expectedBalanceChanges: ExpectedBalanceChanges;
} & (
  | { action: "initiate"; details: InitiateDetails }
  | { action: "claim"; details: ClaimDetails }
  | { action: "cancel"; details: CancelDetails }
);

/** Gross, fee and net of `shares` now, at `feeBps`: the vault's fee for a request, the receipt's for a claim. */
export function estimateView(vault: LoadedVault, shares: bigint, feeBps: number): WithdrawalEstimate {
  const { state } = vault;
  const amounts = withdrawalAmounts(shares, state.totalAssets, state.totalShares, feeBps);
  return {
    shares: tokenAmount(vault.shares, shares),
    gross: tokenAmount(vault.asset, amounts.gross),
    fee: tokenAmount(vault.asset, amounts.fee),
    net: tokenAmount(vault.asset, amounts.net),
    sharePrice: sharePrice(state.totalAssets, state.totalShares),
  };
}

export function requireSol(accounts: WithdrawalAccounts, units: number, price: number, rent: bigint): void {
  const needed = maximumFee(units, price) + rent;
  if (accounts.walletLamports < needed) {
    throw new DomainError(
      "INSUFFICIENT_SOL",
      `The wallet needs ${needed} lamports of SOL for the fee and account rent; it holds ${accounts.walletLamports}`,
      { context: { neededLamports: needed.toString(), heldLamports: accounts.walletLamports.toString() } },
    );
  }
}

export function refuseIfPaused(vault: LoadedVault, nowMs: number): void {
  // After the manager's silence (no strike for the vault's silence period) the program takes requests
  // even from a paused vault, so holders can leave a vault its manager abandoned.
  if (vault.state.paused && !navSilent(vault.state, nowMs)) {
    throw new DomainError(
      "VAULT_PAUSED",
      `The vault ${vault.state.name} is paused; withdrawals are not accepted`,
      { context: { vault: base58Of(vault.address), vaultName: vault.state.name } },
    );
  }
}

/**
 * Refuses an initiate of `assets` the hourly or daily window cannot take right now (6020/6021 on
 * chain). The figures travel as the error's context; the message and details put them in words.
 */
export function checkCapacity(vault: LoadedVault, assets: bigint, nowMs: number): void {
  const windows = withdrawalWindows(vault.state, nowMs / 1000);
  const overflow = firstOverflow(windows, assets);
  if (overflow !== null) {
    const { window: name, capacity: window } = overflow;
    const { remaining } = window;
    const resetsAt = new Date(window.resetsAt * 1000).toISOString();
    throw new DomainError(
      "CAPACITY_EXCEEDED",
      `The ${name} net-withdrawal cap leaves ${formatHuman(remaining, vault.asset)}; this withdrawal is worth ${formatHuman(assets, vault.asset)}. Reduce the amount or wait for capacity`,
      {
        context: {
          window: name,
          remaining: tokenAmount(vault.asset, remaining),
          requested: tokenAmount(vault.asset, assets),
          cap: tokenAmount(vault.asset, window.cap),
          used: tokenAmount(vault.asset, window.used),
          resetsAt,
        },
        details:
          `${name} cap ${window.cap}, used ${window.used}, remaining ${remaining} (raw units); ` +
          `resets at ${resetsAt}; ` +
          `hourly remaining ${windows.hourly.remaining ?? "unlimited"}, daily remaining ${windows.daily.remaining ?? "unlimited"}`,
      },
    );
  }
}

/** The wallet's pending request, or the 409 that there is nothing to `verb`. */
export function pendingReceipt(
  accounts: WithdrawalAccounts,
  verb: "claim" | "cancel",
): WithdrawalReceiptAccount {
  if (accounts.receipt === null) {
    throw new DomainError(
      "NO_PENDING_WITHDRAWAL",
      `This wallet has no pending withdrawal in this vault to ${verb}`,
    );
  }
  return accounts.receipt;
}

/** A recent blockhash and the priority fee for the vault's accounts, read together. */
export function transactionInputs(deps: VaultDeps, vault: LoadedVault): Promise<[RecentBlockhash, number]> {
  return Promise.all([deps.chain.recentBlockhash(), deps.chain.priorityFee([vault.address])]);
}

/**
 * The operation's unsigned transaction for the wallet, once its SOL covers the fee and `rent`, with the
 * wallet's balance changes in a simulation when asked: the part of the answer every withdrawal shares.
 */
export async function buildForWallet(
  deps: VaultDeps,
  prepared: {
    vault: LoadedVault;
    accounts: WithdrawalAccounts;
    request: WithdrawRequest;
    options: WithdrawOptions;
  },
  operation: OperationDefinition,
  instructions: readonly TransactionInstruction[],
  inputs: { blockhash: RecentBlockhash; price: number; rent: bigint },
): Promise<
  Pick<PreparedWithdrawal, "transaction" | "lastValidBlockHeight" | "expiresAt" | "expectedBalanceChanges">
> {
  const { vault, accounts, request, options } = prepared;
  requireSol(accounts, computeUnitLimit(operation, instructions), inputs.price, inputs.rent);
  const built = buildUnsignedTransaction(
    request.wallet,
    operation,
    instructions,
    inputs.blockhash,
    inputs.price,
  );
  return {
    transaction: built.transaction,
    lastValidBlockHeight: built.lastValidBlockHeight,
    expiresAt: built.expiresAt,
    expectedBalanceChanges:
      options.simulateBalanceChanges === true
        ? await simulateExpectedBalanceChanges(deps, vault, request.wallet, built)
        : null,
  };
}
