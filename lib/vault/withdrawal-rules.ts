// What the withdraw builder and the withdrawal status share: reading the vault, the wallet's receipt
// and token accounts in one call, the claim conditions, and the policy and cap-window views.
import { PublicKey } from "@solana/web3.js";

import type { ChainAccount } from "../chain/accounts";
import { base58Of, boundedMemo } from "../chain/bounded-memo";
import { tokenAccountAmount, findAssociatedTokenAddress } from "../chain/spl-token";
import { decodeReceipt, type VaultAccount, type WithdrawalReceiptAccount } from "./accounts";
import { findReceipt } from "./addresses";
import type { CapWindow } from "./cap-window";
import type { ClaimBlocker } from "./domain-error";
import { VAULT_PROGRAM_ID } from "./idl";
import { withdrawalAmounts, type WithdrawalAmounts } from "./share-math";
import { tokenAmount, type TokenAmount } from "./token-amount";
import {
  rememberVaultLayout,
  vaultFromAccount,
  vaultLayout,
  withdrawalWindows,
  type LoadedVault,
  type VaultDeps,
} from "./vault-state";

export interface WithdrawalAccounts {
  vault: LoadedVault;
  receiptAddress: PublicKey;
  receipt: WithdrawalReceiptAccount | null;
  reserveBalance: bigint;
  walletLamports: bigint;
  walletShares: bigint;
  assetAccountExists: boolean;
}

const receiptAddresses = boundedMemo((key) => {
  const [vault = "", wallet = ""] = key.split(":");
  return findReceipt(new PublicKey(vault), new PublicKey(wallet));
});

/** The (vault, wallet) receipt address, derived once per pair. */
export function receiptAddressOf(vault: PublicKey, wallet: PublicKey): PublicKey {
  return receiptAddresses(`${base58Of(vault)}:${base58Of(wallet)}`);
}

function tokenBalance(account: ChainAccount | null | undefined): bigint {
  return account === null || account === undefined
    ? 0n
    : (tokenAccountAmount(account.owner, account.data) ?? 0n);
}

function receiptFrom(account: ChainAccount | null | undefined): WithdrawalReceiptAccount | null {
  if (account === null || account === undefined || !account.owner.equals(VAULT_PROGRAM_ID)) {
    return null;
  }
  return decodeReceipt(account.data);
}

/** Vault, receipt, reserve and the wallet's accounts, freshly, in one getMultipleAccounts call. */
export async function readWithdrawalAccounts(
  deps: VaultDeps,
  vaultAddress: PublicKey,
  wallet: PublicKey,
): Promise<WithdrawalAccounts> {
  const layout = await vaultLayout(deps, vaultAddress);
  const receiptAddress = receiptAddressOf(vaultAddress, wallet);
  const [vaultAccount, receipt, reserve, walletAccount, shareAccount, assetAccount] =
    await deps.chain.getAccounts(
      [
        vaultAddress,
        receiptAddress,
        layout.reserve,
        wallet,
        findAssociatedTokenAddress(wallet, layout.shareMint),
        findAssociatedTokenAddress(wallet, layout.assetMint),
      ],
      "fresh",
    );
  const vault = vaultFromAccount(deps, vaultAddress, vaultAccount ?? null);
  rememberVaultLayout(vault);
  return {
    vault,
    receiptAddress,
    receipt: receiptFrom(receipt),
    reserveBalance: tokenBalance(reserve),
    walletLamports: walletAccount?.lamports ?? 0n,
    walletShares: tokenBalance(shareAccount),
    assetAccountExists: assetAccount !== null && assetAccount !== undefined,
  };
}

/** Vault, receipt and reserve, freshly, in one call: what the status needs. */
export async function readStatusAccounts(
  deps: VaultDeps,
  vaultAddress: PublicKey,
  wallet: PublicKey,
): Promise<Pick<WithdrawalAccounts, "vault" | "receipt" | "receiptAddress" | "reserveBalance">> {
  const layout = await vaultLayout(deps, vaultAddress);
  const receiptAddress = receiptAddressOf(vaultAddress, wallet);
  const [vaultAccount, receipt, reserve] = await deps.chain.getAccounts(
    [vaultAddress, receiptAddress, layout.reserve],
    "fresh",
  );
  const vault = vaultFromAccount(deps, vaultAddress, vaultAccount ?? null);
  return { vault, receiptAddress, receipt: receiptFrom(receipt), reserveBalance: tokenBalance(reserve) };
}

/** What the claim pays now: the fee is the one the receipt fixed at the request, not the vault's current one. */
export function claimAmounts(state: VaultAccount, receipt: WithdrawalReceiptAccount): WithdrawalAmounts {
  return withdrawalAmounts(receipt.shares, state.totalAssets, state.totalShares, receipt.feeBps);
}

/** Why the receipt cannot be claimed now, in words; empty when it can. */
export function claimBlockers(
  state: VaultAccount,
  receipt: WithdrawalReceiptAccount,
  reserveBalance: bigint,
): ClaimBlocker[] {
  const blockers: ClaimBlocker[] = [];
  if (state.paused) {
    blockers.push("vault-paused");
  }
  if (state.navSequence <= receipt.navFloor) {
    blockers.push("awaiting-nav");
  }
  if (state.queueFunded < receipt.queueEnd) {
    blockers.push("queue-unfunded");
  }
  if (reserveBalance < claimAmounts(state, receipt).net) {
    blockers.push("reserve-short");
  }
  return blockers;
}

/** A claim blocker in words, for the refusal's message. */
export function claimBlockerText(
  blocker: ClaimBlocker,
  state: VaultAccount,
  receipt: WithdrawalReceiptAccount,
): string {
  switch (blocker) {
    case "vault-paused":
      return "the vault is paused";
    case "awaiting-nav":
      return "no NAV has been struck since the withdrawal was requested";
    case "queue-unfunded":
      return `the queue is funded to share ${state.queueFunded}, this request ends at ${receipt.queueEnd}`;
    case "reserve-short":
      return "the reserve does not hold the net amount yet";
  }
}

export interface WithdrawalPolicy {
  feeBps: number;
  minimumShares: TokenAmount;
  queueOrder: "fifo";
  capsEnforcedAt: "execution";
  navSchedule: { intervalSeconds: number; lastNavAt: string | null; nextNavAt: string | null };
}

export interface CapWindowView {
  cap: TokenAmount | null;
  used: TokenAmount;
  remaining: TokenAmount | null;
  resetsAt: string;
}

export interface WithdrawalLimits {
  hourly: CapWindowView;
  daily: CapWindowView;
}

export interface ScheduleSettings {
  navIntervalSeconds: number;
  stageIntervalSeconds: number;
}

export function isoFromSeconds(seconds: bigint | number): string {
  return new Date(Number(seconds) * 1000).toISOString();
}

export function withdrawalPolicy(vault: LoadedVault, schedule: ScheduleSettings): WithdrawalPolicy {
  const { state } = vault;
  const last = state.navUpdatedAt > 0n ? state.navUpdatedAt : null;
  return {
    feeBps: state.feeBps,
    minimumShares: tokenAmount(vault.shares, state.minWithdrawalShares),
    queueOrder: "fifo",
    capsEnforcedAt: "execution",
    navSchedule: {
      intervalSeconds: schedule.navIntervalSeconds,
      lastNavAt: last === null ? null : isoFromSeconds(last),
      nextNavAt: last === null ? null : isoFromSeconds(last + BigInt(schedule.navIntervalSeconds)),
    },
  };
}

function windowView(vault: LoadedVault, window: CapWindow): CapWindowView {
  return {
    cap: window.cap === 0n ? null : tokenAmount(vault.asset, window.cap),
    used: tokenAmount(vault.asset, window.used),
    remaining: window.remaining === null ? null : tokenAmount(vault.asset, window.remaining),
    resetsAt: isoFromSeconds(window.resetsAt),
  };
}

export function withdrawalLimits(vault: LoadedVault, nowMs: number): WithdrawalLimits {
  const windows = withdrawalWindows(vault.state, nowMs / 1000);
  return { hourly: windowView(vault, windows.hourly), daily: windowView(vault, windows.daily) };
}
