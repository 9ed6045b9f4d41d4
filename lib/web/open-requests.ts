// Which withdrawal requests in a wallet's activity are still open: per vault, the newest request with
// no claim or cancel after it (a wallet has at most one pending withdrawal per vault). The activity lists show
// those as pending, or claimable where the vault's withdrawal status says so.
import type { ActivityData } from "./api-client";

export type RequestState = "pending" | "claimable";

/** The key an activity entry is listed under. */
export function activityKey(activity: Pick<ActivityData, "signature" | "eventIndex">): string {
  return `${activity.signature}:${activity.eventIndex}`;
}

function timeOf(activity: ActivityData): number {
  return Date.parse(activity.blockTime ?? activity.recordedAt);
}

/** The keys of the open requests, by vault id. */
export function openRequests(activities: readonly ActivityData[]): Map<string, string> {
  const newest = new Map<string, ActivityData>();
  for (const activity of activities) {
    if (activity.kind === "deposit") {
      continue;
    }
    const seen = newest.get(activity.vaultId);
    if (seen === undefined || timeOf(activity) > timeOf(seen)) {
      newest.set(activity.vaultId, activity);
    }
  }
  const open = new Map<string, string>();
  for (const [vault, activity] of newest) {
    if (activity.kind === "initiate") {
      open.set(vault, activityKey(activity));
    }
  }
  return open;
}

/**
 * The state of each open request: claimable where `claimable(vault)` says so (the vault page knows
 * from the withdrawal status), else pending.
 */
export function requestStates(
  activities: readonly ActivityData[],
  claimable: (vault: string) => boolean = () => false,
): Map<string, RequestState> {
  const states = new Map<string, RequestState>();
  for (const [vault, key] of openRequests(activities)) {
    states.set(key, claimable(vault) ? "claimable" : "pending");
  }
  return states;
}
