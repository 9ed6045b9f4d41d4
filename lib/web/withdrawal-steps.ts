// The pending withdrawal as steps a person can follow: requested → NAV struck → funded → claimable
// (ready) → claimed, each done, current or still to come, with the times the page knows (in the reader's zone,
// and relative: "in ~2 min"). Built from GET /api/vault/{id}/withdraw's status (its milestones say when
// each step was passed) and the vault's live state; pure, so the panel only lays it out. A withdrawal
// the keeper delivered is not a step to take: arrivedText says it arrived.
import { formatClock, type ClockOptions } from "./time";

export type StepKey = "requested" | "nav" | "funded" | "ready" | "claimed";
export type StepState = "done" | "current" | "upcoming";

export interface WithdrawalStep {
  key: StepKey;
  label: string;
  state: StepState;
  /** What the page knows of its time or progress; empty when nothing. */
  detail: string;
}

export interface StepsInput {
  canClaimNow: boolean;
  /** ISO time of the request; null when the status does not know it. */
  createdAt: string | null;
  estimate: {
    kind: "ready" | "nav" | "staging";
    band: { earliest: string; latest: string } | null;
  } | null;
  /** Share of the request the queue has funded, 0–1. */
  fundedFraction: number;
  /** The vault's last NAV strike, unix seconds (0: none). */
  lastNavAt: bigint;
  /** When the request passed each step, from the indexed events (ISO); absent or null: not known. */
  milestones?: {
    navStruckAt: string | null;
    fundedAt: string | null;
    claimableAt: string | null;
  } | null;
}

/** The clock's zone (tests) and locale: the reader's own when absent, "en-GB" in tests. */
export interface StepClock extends ClockOptions {
  locale?: string;
}

/** "14:05 GMT+1": a time of day with the reader's zone (in the reader's locale when one is given). */
export function clockWithZone(timeMs: number, options: StepClock = {}): string {
  // The same clock as every other time on the page (lib/web/time.ts), with the zone.
  return formatClock(timeMs, { ...options, zone: true });
}

/** "in ~2 min", "in ~40 s", "~3 min ago", "just now": a rough distance from now. */
export function roughlyFromNow(timeMs: number, nowMs: number): string {
  const seconds = Math.round((timeMs - nowMs) / 1000);
  const size = Math.abs(seconds);
  if (size < 10) {
    return "just now";
  }
  const amount =
    size < 90
      ? `~${Math.round(size / 10) * 10} s`
      : size < 90 * 60
        ? `~${Math.round(size / 60)} min`
        : `~${Math.round(size / 3_600)} h`;
  return seconds > 0 ? `in ${amount}` : `${amount} ago`;
}

/**
 * A step's past time: the clock and how long ago. The chain stamps its events with its own clock, which
 * may run a few seconds ahead of the reader's: a step already passed is never "in ~10 s".
 */
function at(timeMs: number, nowMs: number, clock: StepClock): string {
  return `${clockWithZone(timeMs, clock)} (${roughlyFromNow(Math.min(timeMs, nowMs), nowMs)})`;
}

/** An ISO time as ms; null for null or what does not parse. */
function timeOf(text: string | null | undefined): number | null {
  if (text === null || text === undefined) {
    return null;
  }
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * "Arrived: 99.90 USDC in your wallet at 14:06 UTC": a withdrawal someone else (the keeper) claimed for
 * this wallet, within the last day; null otherwise (the owner's own claim has its own message).
 */
export function arrivedText(
  milestones: { claimedAt: string | null; claimedBy: string | null } | null | undefined,
  amountText: string | null,
  nowMs: number,
  clock: StepClock = {},
): string | null {
  const claimedMs = timeOf(milestones?.claimedAt);
  if (
    claimedMs === null ||
    amountText === null ||
    milestones?.claimedBy === "owner" ||
    nowMs - claimedMs > ARRIVED_SHOWN_MS
  ) {
    return null;
  }
  return `Arrived: ${amountText} in your wallet at ${clockWithZone(claimedMs, clock)}`;
}

/** How long a delivered withdrawal is announced on the page. */
const ARRIVED_SHOWN_MS = 24 * 3_600_000;

/** The steps of a pending withdrawal at `nowMs`. */
export function withdrawalSteps(input: StepsInput, nowMs: number, clock: StepClock = {}): WithdrawalStep[] {
  const struckMs = timeOf(input.milestones?.navStruckAt);
  const fundedMs = timeOf(input.milestones?.fundedAt);
  const claimableMs = timeOf(input.milestones?.claimableAt);
  const kind = input.canClaimNow ? "ready" : (input.estimate?.kind ?? null);
  const requestedMs = input.createdAt === null ? null : Date.parse(input.createdAt);
  const navMs = Number(input.lastNavAt) * 1000;
  const navDone = kind === "ready" || kind === "staging";
  const fundedDone = kind === "ready" || (navDone && input.fundedFraction >= 1);
  const band = input.estimate?.band ?? null;
  const earliest = band === null ? null : Date.parse(band.earliest);
  const latest = band === null ? null : Date.parse(band.latest);
  const expected =
    earliest === null || latest === null
      ? ""
      : `expected between ${clockWithZone(earliest, clock)} and ${clockWithZone(latest, clock)} (${roughlyFromNow(latest, nowMs)})`;
  const percent = `${Math.floor(Math.min(1, Math.max(0, input.fundedFraction)) * 100)}% funded`;
  return [
    {
      key: "requested",
      label: "Requested",
      state: "done",
      detail: requestedMs === null || Number.isNaN(requestedMs) ? "" : at(requestedMs, nowMs, clock),
    },
    {
      key: "nav",
      label: "NAV struck",
      state: navDone ? "done" : "current",
      detail: navDone
        ? struckMs !== null
          ? at(struckMs, nowMs, clock)
          : navMs > 0
            ? `last strike ${at(navMs, nowMs, clock)}`
            : ""
        : "waiting for the vault's next NAV strike after your request",
    },
    {
      key: "funded",
      label: "Funded",
      state: fundedDone ? "done" : navDone ? "current" : "upcoming",
      // The queue may fund a request before the NAV that frees it: say so rather than a full bar.
      detail: fundedDone
        ? fundedMs !== null
          ? at(fundedMs, nowMs, clock)
          : "the queue is funded up to your request"
        : percent,
    },
    {
      key: "ready",
      label: "Claimable",
      state: kind === "ready" ? "done" : fundedDone ? "current" : "upcoming",
      detail:
        kind === "ready"
          ? claimableMs !== null
            ? `since ${at(claimableMs, nowMs, clock)}`
            : "claimable now"
          : expected,
    },
    {
      key: "claimed",
      label: "Claimed",
      state: kind === "ready" ? "current" : "upcoming",
      detail: kind === "ready" ? "claim it below" : "",
    },
  ];
}
