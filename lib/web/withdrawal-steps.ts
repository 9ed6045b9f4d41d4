// The pending withdrawal as steps a person can follow: requested → NAV struck → funded → claimable
// (ready) → claimed, each done, current or still to come, with the times the page knows (in the reader's zone,
// and relative: "in ~2 min"). Built from GET /api/vault/{id}/withdraw's status (its milestones say when
// each step was passed) and the vault's live state; pure, so the panel only lays it out. A withdrawal
// the keeper delivered is not a step to take: arrivedText says it arrived.
import { bandNeedsDate, formatClock, type ClockOptions } from "./time";

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
    /** The conditions still unmet (absent from older servers: then only events and the bar decide). */
    awaiting?: readonly ("nav" | "staging" | "reserve")[];
  } | null;
  /** Share of the request the queue has funded, 0–1. */
  fundedFraction: number;
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

/** Whether a band's edges need their dates (see bandNeedsDate), and each edge as the steps say it. */
function edgeText(timeMs: number, dated: boolean, clock: StepClock): string {
  if (!dated) {
    return clockWithZone(timeMs, clock);
  }
  return new Intl.DateTimeFormat(clock.locale ?? "en-GB", {
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
    timeZone: clock.timeZone,
  }).format(new Date(timeMs));
}

/** "expected between 14:01 UTC and 14:02 UTC (in ~40 s)": the distance is to the band's start. */
function expectedText(
  band: { earliest: string; latest: string } | null,
  nowMs: number,
  clock: StepClock,
): string {
  const earliest = timeOf(band?.earliest);
  const latest = timeOf(band?.latest);
  if (earliest === null || latest === null) {
    return "";
  }
  const dated = bandNeedsDate(earliest, latest, nowMs, clock);
  const start = earliest - nowMs < 10_000 ? "from now on" : roughlyFromNow(earliest, nowMs);
  return `expected between ${edgeText(earliest, dated, clock)} and ${edgeText(latest, dated, clock)} (${start})`;
}

/**
 * The steps of a pending withdrawal at `nowMs`. A step is done only by what happened after the request:
 * its indexed event, or the status's word that the condition is met (estimate.awaiting); a strike
 * before the request is not "NAV struck". NAV and funding run side by side, so the two are not
 * ordered by the page: steps done are listed in the order they happened.
 */
export function withdrawalSteps(input: StepsInput, nowMs: number, clock: StepClock = {}): WithdrawalStep[] {
  const requestedMs = timeOf(input.createdAt);
  const afterRequest = (ms: number | null): number | null =>
    ms === null || (requestedMs !== null && ms < requestedMs - 1_000) ? null : ms;
  const struckMs = afterRequest(timeOf(input.milestones?.navStruckAt));
  const fundedMs = afterRequest(timeOf(input.milestones?.fundedAt));
  const claimableMs = afterRequest(timeOf(input.milestones?.claimableAt));
  const ready = input.canClaimNow || input.estimate?.kind === "ready";
  const awaiting = input.estimate?.awaiting ?? null;
  const navDone = ready || struckMs !== null || (awaiting !== null && !awaiting.includes("nav"));
  const fundedDone =
    ready ||
    fundedMs !== null ||
    input.fundedFraction >= 1 ||
    (awaiting !== null && !awaiting.includes("staging"));
  const percent = `${Math.floor(Math.min(1, Math.max(0, input.fundedFraction)) * 100)}% funded`;
  const requested: WithdrawalStep = {
    key: "requested",
    label: "Requested",
    state: "done",
    detail: requestedMs === null ? "" : at(requestedMs, nowMs, clock),
  };
  // A side-by-side step: done says when (or, undated, that it happened), not done says what it waits for.
  const sideStep = (
    step: Pick<WithdrawalStep, "key" | "label">,
    done: boolean,
    ms: number | null,
    words: { undated: string; waiting: string },
  ): WithdrawalStep => ({
    ...step,
    state: done ? "done" : "current",
    detail: done ? (ms !== null ? at(ms, nowMs, clock) : words.undated) : words.waiting,
  });
  const nav = sideStep({ key: "nav", label: "NAV struck" }, navDone, struckMs, {
    undated: "struck after your request",
    waiting: "waiting for the vault's next NAV strike after your request",
  });
  const funded = sideStep({ key: "funded", label: "Funded" }, fundedDone, fundedMs, {
    undated: "the queue is funded up to your request",
    waiting: percent,
  });
  // Done steps first, in the order they happened (a step whose time is not known after one that is).
  const timed = [
    { step: nav, ms: struckMs },
    { step: funded, ms: fundedMs },
  ].sort((a, b) => rank(a.step, a.ms) - rank(b.step, b.ms));
  return [
    requested,
    ...timed.map((entry) => entry.step),
    {
      key: "ready",
      label: "Claimable",
      state: ready ? "done" : navDone && fundedDone ? "current" : "upcoming",
      detail: ready
        ? claimableMs !== null
          ? `since ${at(claimableMs, nowMs, clock)}`
          : "claimable now"
        : navDone && fundedDone && awaiting?.includes("reserve") === true
          ? "waiting for the vault's reserve to hold the amount"
          : expectedText(input.estimate?.band ?? null, nowMs, clock),
    },
    {
      key: "claimed",
      label: "Claimed",
      state: ready ? "current" : "upcoming",
      detail: ready ? "claim it below" : "",
    },
  ];
}

/** Sort key of the side-by-side steps: done and dated by time, then done undated, then not done. */
function rank(step: WithdrawalStep, ms: number | null): number {
  if (step.state !== "done") {
    return Number.MAX_SAFE_INTEGER;
  }
  return ms ?? Number.MAX_SAFE_INTEGER - 1;
}
