// A wallet's withdrawal on a vault: pending shares and their value, whether the receipt is claimable,
// which condition it waits on with an arrival band, the queue progress, and when it was requested.
// One fresh read of vault, receipt, reserve and the queue's holes, shared by concurrent reads of the
// same wallet (each gets a read sent after it asked); the request time comes from recorded history, else
// from the receipt's transactions on chain (remembered, as it never changes). The milestones (struck,
// funded, claimable, claimed and by whom) come from the indexer's events: for the pending request, or,
// with none pending, for the wallet's latest one (so a withdrawal the keeper delivered shows as arrived).
import type { PublicKey } from "@solana/web3.js";

import type { ReceiptState, VaultState } from "../program/accounts";
import { decodeVaultEvents } from "../program/events";
import {
  estimateArrival,
  holeSharesBetween,
  type ArrivalEstimate,
  type KeeperPace,
} from "./withdrawal-estimate";
import {
  withdrawalMilestones,
  type MilestoneSource,
  type WithdrawalMilestones,
} from "../model/withdrawal-milestones";
import { assetsForSharesRoundDown } from "../model/share-math";
import { tokenAmount, type TokenAmount } from "../model/token-amount";
import type { LoadedVault, VaultDeps } from "../model/vault-state";
import { readStatusAccounts, type QueueRange } from "../operations/withdrawal-accounts";
import { claimBlockers, withdrawalLimits, type WithdrawalLimits } from "../model/withdrawal-rules";

export interface WithdrawalProgress {
  stagedShares: string;
  totalShares: string;
  sharesAhead: string;
  fraction: number;
}

export interface WithdrawalStatus {
  hasPendingWithdrawal: boolean;
  pendingShares: string;
  /** The pending shares' value now, in the vault's asset (the API names it `estimatedUsdcAmount`). */
  estimatedAssetAmount: TokenAmount;
  canClaimNow: boolean;
  createdAt: string | null;
  estimate: ArrivalEstimate | null;
  progress: WithdrawalProgress | null;
  /** When the withdrawal passed each step, from the indexed events; null when none is indexed. */
  milestones: StatusMilestones | null;
  /**
   * The vault's net-withdrawal caps as this fresh read of its account has them: what a request may
   * take now (GET /api/vault/{id} serves the indexer's copy, which trails by its interval).
   */
  withdrawalLimits: WithdrawalLimits;
}

export interface StatusMilestones extends Omit<WithdrawalMilestones, "claimedNet"> {
  claimedNet: TokenAmount | null;
}

/** Where verified request times come from: recorded history (the store), by request id. */
export interface RequestTimeSource {
  initiateBlockTime(vault: string, wallet: string, requestId: bigint): Promise<Date | null>;
}

/** The keeper's configured pace, which the arrival band is computed from. */
export type StatusSettings = KeeperPace;

export function withdrawalProgress(
  state: VaultState,
  receipt: ReceiptState,
  holes: readonly QueueRange[] = [],
): WithdrawalProgress {
  const total = receipt.shares;
  const fundedPastStart = state.queueFunded - receipt.queueStart;
  const staged = fundedPastStart <= 0n ? 0n : fundedPastStart >= total ? total : fundedPastStart;
  // Cancelled requests between the funded frontier and this one are not ahead of it.
  const ahead =
    receipt.queueStart > state.queueFunded
      ? receipt.queueStart -
        state.queueFunded -
        holeSharesBetween(holes, state.queueFunded, receipt.queueStart)
      : 0n;
  return {
    stagedShares: staged.toString(),
    totalShares: total.toString(),
    sharesAhead: ahead.toString(),
    fraction: total === 0n ? 1 : Number((staged * 1_000_000n) / total) / 1_000_000,
  };
}

const MAX_REMEMBERED_TIMES = 10_000;
/** Claim signature → its fee payer (a transaction's signer never changes). */
const rememberedClaimSigners = new Map<string, string>();

async function claimSigner(deps: VaultDeps, signature: string): Promise<string | null> {
  const remembered = rememberedClaimSigners.get(signature);
  if (remembered !== undefined) {
    return remembered;
  }
  const transaction = await deps.chain.getTransaction(signature).catch(() => null);
  const payer = transaction?.accountKeys[0];
  if (payer === undefined) {
    return null;
  }
  if (rememberedClaimSigners.size >= MAX_REMEMBERED_TIMES) {
    rememberedClaimSigners.clear();
  }
  rememberedClaimSigners.set(signature, payer);
  return payer;
}

/** The milestones of the wallet's request `requestId` (its latest when null); null when none is indexed or the store is unreachable. */
async function statusMilestones(
  deps: VaultDeps,
  indexed: MilestoneSource | null,
  vault: LoadedVault,
  wallet: PublicKey,
  requestId: bigint | null,
): Promise<StatusMilestones | null> {
  if (indexed === null) {
    return null;
  }
  const events = await indexed
    .withdrawalMilestoneEvents(vault.address.toBase58(), wallet.toBase58(), requestId)
    .catch(() => null);
  if (events === null) {
    return null;
  }
  const signer = events.claimed === null ? null : await claimSigner(deps, events.claimed.signature);
  const milestones = withdrawalMilestones(events, {
    owner: wallet.toBase58(),
    manager: vault.state.manager.toBase58(),
    claimSigner: signer,
  });
  return {
    ...milestones,
    claimedNet: milestones.claimedNet === null ? null : tokenAmount(vault.asset, milestones.claimedNet),
  };
}
const SIGNATURES_SEARCHED = 10;
const rememberedRequestTimes = new Map<string, Date>();

/** Forgets every remembered request time: the chain they were read from is gone (a new genesis). */
export function forgetRequestTimes(): void {
  rememberedRequestTimes.clear();
}

function rememberRequestTime(key: string, time: Date): void {
  if (rememberedRequestTimes.size >= MAX_REMEMBERED_TIMES) {
    rememberedRequestTimes.clear();
  }
  rememberedRequestTimes.set(key, time);
}

/**
 * The block time of the WithdrawalRequested event with this request id among the receipt's
 * transactions (requestTime remembers what it finds).
 */
async function requestTimeOnChain(
  deps: VaultDeps,
  receiptAddress: PublicKey,
  requestId: bigint,
): Promise<Date | null> {
  const signatures = await deps.chain.getSignaturesForAddress(receiptAddress, SIGNATURES_SEARCHED);
  for (const entry of signatures) {
    if (entry.err !== null) {
      continue;
    }
    const transaction = await deps.chain.getTransaction(entry.signature);
    if (transaction === null || transaction.err !== null) {
      continue;
    }
    const found = decodeVaultEvents(transaction.logMessages ?? []).some(
      (event) => event.name === "WithdrawalRequested" && event.data.requestId === requestId,
    );
    if (found && transaction.blockTime !== null) {
      return new Date(transaction.blockTime * 1000);
    }
  }
  return null;
}

async function requestTime(
  deps: VaultDeps,
  history: RequestTimeSource,
  vault: PublicKey,
  wallet: PublicKey,
  receiptAddress: PublicKey,
  requestId: bigint,
): Promise<string | null> {
  // A request's block time never changes: once known, no store or chain read is needed again.
  const key = `${receiptAddress.toBase58()}:${requestId}`;
  const remembered = rememberedRequestTimes.get(key);
  if (remembered !== undefined) {
    return remembered.toISOString();
  }
  // Unavailable history is a null createdAt, not a failed status read.
  const recorded = await history
    .initiateBlockTime(vault.toBase58(), wallet.toBase58(), requestId)
    .catch(() => null);
  const time = recorded ?? (await requestTimeOnChain(deps, receiptAddress, requestId).catch(() => null));
  if (time === null) {
    return null;
  }
  rememberRequestTime(key, time);
  return time.toISOString();
}

export async function getWithdrawalStatus(
  deps: VaultDeps,
  history: RequestTimeSource,
  settings: StatusSettings,
  request: { vault: PublicKey; wallet: PublicKey },
  indexed: MilestoneSource | null = null,
): Promise<WithdrawalStatus> {
  const { vault, receipt, receiptAddress, reserveBalance, queueHoles } = await readStatusAccounts(
    deps,
    request.vault,
    request.wallet,
  );
  const { state } = vault;
  const nowMs = deps.now();
  if (receipt === null) {
    return {
      hasPendingWithdrawal: false,
      pendingShares: "0",
      estimatedAssetAmount: tokenAmount(vault.asset, 0n),
      canClaimNow: false,
      createdAt: null,
      estimate: null,
      progress: null,
      // The wallet's latest withdrawal, claimed or not: the pages show a delivered one as arrived.
      milestones: await statusMilestones(deps, indexed, vault, request.wallet, null),
      withdrawalLimits: withdrawalLimits(vault, nowMs),
    };
  }
  const claimable = claimBlockers(state, receipt, reserveBalance).length === 0;
  return {
    hasPendingWithdrawal: true,
    pendingShares: receipt.shares.toString(),
    estimatedAssetAmount: tokenAmount(
      vault.asset,
      assetsForSharesRoundDown(receipt.shares, state.totalAssets, state.totalShares),
    ),
    canClaimNow: claimable,
    createdAt: await requestTime(
      deps,
      history,
      request.vault,
      request.wallet,
      receiptAddress,
      receipt.requestId,
    ),
    estimate: estimateArrival(
      { state, receipt, reserveBalance, holes: queueHoles, claimable, nowMs },
      settings,
    ),
    progress: withdrawalProgress(state, receipt, queueHoles),
    milestones: await statusMilestones(deps, indexed, vault, request.wallet, receipt.requestId),
    withdrawalLimits: withdrawalLimits(vault, nowMs),
  };
}
