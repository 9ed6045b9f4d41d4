// When a withdrawal was requested, struck, funded, claimable and claimed, and who sent its claim, from
// the indexer's events: the first NAV struck past the request's floor, the first staging that funded
// the queue past its end (the rule averageSecondsToClaimable uses), the later of the two, and the
// WithdrawalClaimed of its request id. Times are the chain's own (each event's timestamp).
import type { StoredEvent } from "./indexed-records";

/** The indexed events that date one withdrawal; what the store reads (indexer.withdrawalMilestoneEvents). */
export interface WithdrawalMilestoneEvents {
  request: StoredEvent;
  nav: StoredEvent | null;
  staged: StoredEvent | null;
  claimed: StoredEvent | null;
}

/** Where the milestones' events come from: the indexer's store. */
export interface MilestoneSource {
  withdrawalMilestoneEvents(
    vault: string,
    owner: string,
    requestId: bigint | null,
  ): Promise<WithdrawalMilestoneEvents | null>;
}

/** Who sent a claim: its owner, the vault's manager key (the keeper), or another wallet. */
export type ClaimSender = "owner" | "keeper" | "other";

/**
 * Who delivered an owner's claim: the transaction's fee payer (`signers` come fee payer first) when the
 * owner signed none of it, the keeper's or anyone's, as the claim is permissionless; null for the
 * owner's own. History rows and the withdrawal.claimed event carry it as `deliveredBy`.
 */
export function deliveredBy(signers: readonly string[], owner: string): string | null {
  return signers.includes(owner) ? null : (signers[0] ?? null);
}

export interface WithdrawalMilestones {
  requestId: string;
  requestedAt: string | null;
  navStruckAt: string | null;
  fundedAt: string | null;
  claimableAt: string | null;
  claimedAt: string | null;
  claimedBy: ClaimSender | null;
  /** The claim transaction's fee payer, base58; null while unclaimed or not known. */
  claimSigner: string | null;
  /** Raw asset units the claim paid the owner (net of the fee); null while unclaimed. */
  claimedNet: bigint | null;
}

function eventSeconds(event: StoredEvent | null): number | null {
  if (event === null) {
    return null;
  }
  const text = String(event.data.timestamp ?? "");
  if (/^-?\d+$/.test(text)) {
    return Number(text);
  }
  return event.blockTime === null ? null : Math.floor(event.blockTime.getTime() / 1000);
}

const iso = (seconds: number | null): string | null =>
  seconds === null ? null : new Date(seconds * 1000).toISOString();

/** The milestones of `events`; `claimSigner` is the claim's fee payer when it is known. */
export function withdrawalMilestones(
  events: WithdrawalMilestoneEvents,
  parties: { owner: string; manager: string; claimSigner: string | null },
): WithdrawalMilestones {
  const nav = eventSeconds(events.nav);
  const funded = eventSeconds(events.staged);
  const signer = events.claimed === null ? null : parties.claimSigner;
  const net = events.claimed === null ? null : String(events.claimed.data.net ?? "");
  return {
    requestId: (events.request.requestId ?? 0n).toString(),
    requestedAt: iso(eventSeconds(events.request)),
    navStruckAt: iso(nav),
    fundedAt: iso(funded),
    claimableAt: nav === null || funded === null ? null : iso(Math.max(nav, funded)),
    claimedAt: iso(eventSeconds(events.claimed)),
    claimedBy:
      signer === null
        ? null
        : signer === parties.owner
          ? "owner"
          : signer === parties.manager
            ? "keeper"
            : "other",
    claimSigner: signer,
    claimedNet: net !== null && /^\d+$/.test(net) ? BigInt(net) : null,
  };
}
