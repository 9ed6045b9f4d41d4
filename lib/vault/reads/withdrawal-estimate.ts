// When a pending withdrawal becomes claimable, from what the keeper and the reserve can do, never from
// recent demand: the keeper strikes a NAV at the first look of each NAV_INTERVAL-aligned period, and
// funds the queue by at most its per-staging cap of shares once every stage interval, from the
// reserve's idle assets. A request waits for the later of the two. Where the chain shows the keeper is
// not keeping its schedule, or the reserve cannot fund the request, there is no band: no time at all
// rather than an absurd one.
import type { VaultState, ReceiptState } from "../program/accounts";
import { assetsForSharesRoundUp, sharesForAssetsRoundDown } from "../model/share-math";
import type { QueueRange } from "../operations/withdrawal-accounts";
import { nextScheduledStrikeSeconds, type ScheduleSettings } from "../model/withdrawal-rules";

export type EstimateKind = "ready" | "nav" | "staging";
/** A condition the request still waits on; "reserve": queued and struck, yet the reserve is short. */
export type AwaitedCondition = "nav" | "staging" | "reserve";

export interface ArrivalEstimate {
  /** The binding condition: the one met last. */
  kind: EstimateKind;
  /** When the request becomes claimable (ISO); null when no honest time can be given. */
  band: { earliest: string; latest: string } | null;
  /** Every condition still unmet, in the order the request passes them; empty when claimable. */
  awaiting: AwaitedCondition[];
}

/** What the keeper is configured to do: the gateway is told the keeper's own settings. */
export interface KeeperPace extends ScheduleSettings {
  /** Most shares one staging funds (the keeper's --stage-max-shares). */
  stageMaxShares: bigint;
  /** Seconds between the keeper's looks at the chain (its --tick). */
  keeperTickSeconds: number;
}

/** What one keeper action may take past its due time beyond a tick: its transactions' confirmation. */
export const ACTION_CONFIRM_SECONDS = 4;

/**
 * How far the keeper's look may precede the stamp of the staging it sends (staged_at): it counts its
 * staging interval from the chain's clock as it looked, in whole seconds, and the second may turn
 * before the staging executes (bench:estimates measured stagings a second before staged_at + interval).
 */
export const STAGING_LOOK_LEAD_SECONDS = 1;

/**
 * The shares of the queue's holes inside [from, to): cancelled requests no one waits for, which
 * staging passes at no cost.
 */
export function holeSharesBetween(holes: readonly QueueRange[], from: bigint, to: bigint): bigint {
  let shares = 0n;
  for (const hole of holes) {
    const start = hole.start > from ? hole.start : from;
    const end = hole.end < to ? hole.end : to;
    if (end > start) {
      shares += end - start;
    }
  }
  return shares;
}

interface Window {
  earliestMs: number;
  latestMs: number;
}

/** The chain as the estimate reads it: the vault, the receipt, the reserve's balance and the queue's holes. */
export interface EstimateInput {
  state: VaultState;
  receipt: ReceiptState;
  reserveBalance: bigint;
  holes: readonly QueueRange[];
  claimable: boolean;
  nowMs: number;
}

/** The next strike's window; null when the keeper is overdue by more than a period (it is not striking). */
function navWindow(state: VaultState, nowMs: number, pace: KeeperPace, slackMs: number): Window | null {
  const dueMs = Number(nextScheduledStrikeSeconds(state, pace.navIntervalSeconds)) * 1000;
  if (nowMs > dueMs + pace.navIntervalSeconds * 1000 + slackMs) {
    return null;
  }
  const earliestMs = Math.max(nowMs, dueMs);
  return { earliestMs, latestMs: earliestMs + slackMs };
}

/**
 * The staging that funds the queue through this request: the shares before its end (less holes) at the
 * per-staging cap, one staging each interval from the last one (the vault's staged_at). Null when the
 * reserve's idle assets cannot fund them (the keeper waits for liquidity nobody scheduled) or when the
 * keeper is overdue on a queue it could fund.
 */
function stagingWindow(input: EstimateInput, pace: KeeperPace, slackMs: number): Window | null {
  const { state, receipt, reserveBalance, holes, nowMs } = input;
  const needed =
    receipt.queueEnd - state.queueFunded - holeSharesBetween(holes, state.queueFunded, receipt.queueEnd);
  const liabilities = assetsForSharesRoundUp(
    state.queueFunded - state.queueClaimed,
    state.totalAssets,
    state.totalShares,
  );
  const idle = reserveBalance > liabilities ? reserveBalance - liabilities : 0n;
  if (sharesForAssetsRoundDown(idle, state.totalAssets, state.totalShares) < needed) {
    return null;
  }
  if (pace.stageMaxShares <= 0n) {
    return null;
  }
  const stagings = Number((needed + pace.stageMaxShares - 1n) / pace.stageMaxShares);
  const intervalMs = pace.stageIntervalSeconds * 1000;
  const dueMs = Number(state.stagedAt) * 1000 + intervalMs;
  // The request itself may be what the keeper has yet to see: count from the later of it and the due time.
  const requestedMs = Number(receipt.requestedAt) * 1000;
  if (nowMs > Math.max(dueMs, requestedMs) + intervalMs + 2 * slackMs) {
    return null;
  }
  // The keeper's interval runs from its look, which staged_at may trail by up to the lead.
  const firstEarliestMs = Math.max(nowMs, dueMs - STAGING_LOOK_LEAD_SECONDS * 1000);
  const firstLatestMs = Math.max(nowMs, dueMs);
  return {
    earliestMs: firstEarliestMs + (stagings - 1) * intervalMs,
    // Each staging is due an interval after the previous one was sent, which took up to the slack.
    latestMs: firstLatestMs + (stagings - 1) * (intervalMs + slackMs) + slackMs,
  };
}

/** The arrival band of a pending request; see the module's header. */
export function estimateArrival(input: EstimateInput, pace: KeeperPace): ArrivalEstimate {
  const { state, receipt, nowMs } = input;
  if (input.claimable) {
    return { kind: "ready", band: null, awaiting: [] };
  }
  const slackMs = (pace.keeperTickSeconds + ACTION_CONFIRM_SECONDS) * 1000;
  const candidates: { kind: "nav" | "staging"; window: Window | null }[] = [];
  if (state.navSequence <= receipt.navFloor) {
    candidates.push({ kind: "nav", window: navWindow(state, nowMs, pace, slackMs) });
  }
  if (state.queueFunded < receipt.queueEnd) {
    candidates.push({ kind: "staging", window: stagingWindow(input, pace, slackMs) });
  }
  if (candidates.length === 0) {
    // Struck and funded, yet not claimable: the reserve is short of the net, and no keeper action fills it.
    return { kind: "staging", band: null, awaiting: ["reserve"] };
  }
  const awaiting = candidates.map((candidate) => candidate.kind);
  const unknown = candidates.find((candidate) => candidate.window === null);
  if (unknown !== undefined) {
    return { kind: unknown.kind, band: null, awaiting };
  }
  const windows = candidates.flatMap((candidate) =>
    candidate.window === null ? [] : [{ kind: candidate.kind, window: candidate.window }],
  );
  const binding = windows.reduce((later, candidate) =>
    candidate.window.earliestMs > later.window.earliestMs ? candidate : later,
  );
  const latestMs = Math.max(...windows.map((candidate) => candidate.window.latestMs));
  return {
    kind: binding.kind,
    band: {
      earliest: new Date(Math.floor(binding.window.earliestMs)).toISOString(),
      latest: new Date(Math.ceil(latestMs)).toISOString(),
    },
    awaiting,
  };
}
