// The rules a withdrawal is under, applied to freshly read state: what a claim pays now and what keeps
// it from being claimed, the vault's withdrawal policy, and its cap windows' current limits. Shared by
// the withdraw builder, the withdrawal status and the vault directory.
import type { VaultState, ReceiptState } from "../program/accounts";
import type { CapWindow } from "./cap-window";
import type { ClaimBlocker } from "./domain-errors";
import { withdrawalAmounts, type WithdrawalAmounts } from "./share-math";
import { tokenAmount, type TokenAmount } from "./token-amount";
import { withdrawalWindows, type LoadedVault } from "./vault-state";

/** What the claim pays now: the fee is the one the receipt fixed at the request, not the vault's current one. */
export function claimAmounts(state: VaultState, receipt: ReceiptState): WithdrawalAmounts {
  return withdrawalAmounts(receipt.shares, state.totalAssets, state.totalShares, receipt.feeBps);
}

/**
 * A cancel of this receipt leaves a hole in the queue (programs/vault/src/queue.rs, exit_of): it is
 * neither the unfunded tail, which shrinks, nor funded already, which settles. Only such a cancel opens
 * the vault's hole list when it has none (and pays its rent).
 */
export function cancelLeavesHole(
  state: Pick<VaultState, "queueFunded" | "queueTail">,
  receipt: Pick<ReceiptState, "queueStart" | "queueEnd">,
): boolean {
  const shrinksTail = state.queueFunded <= receipt.queueStart && receipt.queueEnd === state.queueTail;
  const settles = state.queueFunded >= receipt.queueStart;
  return !shrinksTail && !settles;
}

/** Why the receipt cannot be claimed now, in words; empty when it can. */
export function claimBlockers(
  state: VaultState,
  receipt: ReceiptState,
  reserveBalance: bigint,
): ClaimBlocker[] {
  // A pause is no blocker: the program pays a funded, claimable receipt whether or not the vault is
  // paused ("vault-paused" stays in the API's enum for older clients and is no longer reported).
  const blockers: ClaimBlocker[] = [];
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
export function claimBlockerText(blocker: ClaimBlocker, state: VaultState, receipt: ReceiptState): string {
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

/**
 * When the keeper strikes next, unix seconds: at the start of the NAV period after the last strike's
 * (periods are NAV_INTERVAL-aligned); a vault never struck may be struck at once.
 */
export function nextScheduledStrikeSeconds(
  state: Pick<VaultState, "navSequence" | "navUpdatedAt">,
  navIntervalSeconds: number,
): bigint {
  if (state.navSequence === 0n) {
    return state.navUpdatedAt;
  }
  const interval = BigInt(navIntervalSeconds);
  return (state.navUpdatedAt / interval + 1n) * interval;
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
      nextNavAt:
        last === null ? null : isoFromSeconds(nextScheduledStrikeSeconds(state, schedule.navIntervalSeconds)),
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

/** The vault's withdrawal policy and its limits now, side by side (a vault's detail, a prepared withdrawal). */
export function withdrawalPolicyAndLimits(
  vault: LoadedVault,
  schedule: ScheduleSettings,
  nowMs: number,
): { withdrawalPolicy: WithdrawalPolicy; withdrawalLimits: WithdrawalLimits } {
  return {
    withdrawalPolicy: withdrawalPolicy(vault, schedule),
    withdrawalLimits: withdrawalLimits(vault, nowMs),
  };
}
