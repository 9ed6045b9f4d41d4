"use client";
// A wallet's recorded activity: deposits, withdrawal requests, claims and cancels, newest first; a claim
// the keeper (or anyone) sent for the wallet reads "Withdrawal delivered", by whom.
import { ExplorerLink } from "@/components/ui/explorer-link";
import type { ActivityData } from "@/lib/web/api-client";
import { shortAddress } from "@/lib/web/client-config";
import { formatAmount, fractionDigitsFor, type Rounding } from "@/lib/web/amounts";
import { DECIMALS_OFFSET } from "@/lib/vault/model/share-math";
import { activityKey, type RequestState } from "@/lib/web/open-requests";
import { formatDateTime } from "@/lib/web/time";
import { useReaderLocale } from "../providers/config-context";

const KIND_WORDS: Record<ActivityData["kind"], string> = {
  deposit: "Deposit",
  initiate: "Withdrawal requested",
  claim: "Withdrawal claimed",
  cancel: "Withdrawal cancelled",
};

/** The row's title: its kind, or "Withdrawal delivered" for a claim the wallet did not send. */
function titleOf(activity: ActivityData): string {
  return activity.kind === "claim" && activity.deliveredBy !== null
    ? "Withdrawal delivered"
    : KIND_WORDS[activity.kind];
}

export interface ActivityItem {
  activity: ActivityData;
  vaultName: string | null;
}

/** An amount at `fraction` digits in the reader's locale (a row's asset figures share one precision). */
function amountOf(
  token: ActivityData["assets"],
  locale: string,
  fraction: number,
  rounding: Rounding = "down",
): string {
  const raw = BigInt(token.amount);
  return `${formatAmount(raw, token.decimals, { locale, minFraction: fraction, maxFraction: fraction, rounding })} ${token.symbol}`;
}

/** The row's precision for the asset: two digits, more when its fee needs them ("fee 0.0015 USDC"). */
function assetFraction(activity: ActivityData): number {
  return activity.fee === null ? 2 : fractionDigitsFor(BigInt(activity.fee.amount), activity.fee.decimals);
}

function timeOf(activity: ActivityData): number {
  return Date.parse(activity.blockTime ?? activity.recordedAt);
}

export function sortActivity(items: ActivityItem[]): ActivityItem[] {
  return [...items].sort((left, right) => timeOf(right.activity) - timeOf(left.activity));
}

const STATE_WORDS: Record<RequestState, { text: string; className: string }> = {
  pending: { text: "Pending", className: "border-line text-muted" },
  claimable: { text: "Claimable", className: "border-good text-good" },
};

export function ActivityList({
  items,
  showVault,
  states = new Map(),
}: {
  items: ActivityItem[];
  showVault: boolean;
  /** Open withdrawal requests (lib/web/open-requests.ts): pending, or claimable. */
  states?: ReadonlyMap<string, RequestState>;
}) {
  const locale = useReaderLocale();
  const asset = (token: ActivityData["assets"], activity: ActivityData, rounding?: Rounding) =>
    amountOf(token, locale, assetFraction(activity), rounding);
  const shares = (token: ActivityData["shares"]) =>
    amountOf(token, locale, Math.max(0, token.decimals - DECIMALS_OFFSET));
  return (
    <ol className="divide-y divide-line" data-testid="activity-list">
      {items.map(({ activity, vaultName }) => (
        <li
          key={activityKey(activity)}
          className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2.5"
        >
          <div className="min-w-0">
            <p
              className="font-medium"
              data-kind={activity.kind}
              data-delivered={activity.deliveredBy === null ? undefined : "true"}
            >
              {titleOf(activity)}
              {activity.deliveredBy === null ? null : (
                <span className="font-normal text-muted">
                  {" "}
                  by{" "}
                  <span
                    className="font-mono"
                    data-testid="activity-delivered-by"
                    title={activity.deliveredBy}
                  >
                    {shortAddress(activity.deliveredBy)}
                  </span>
                </span>
              )}
              {states.has(activityKey(activity)) ? (
                <span
                  className={`ml-2 rounded-full border px-2 py-0.5 text-xs font-medium ${
                    STATE_WORDS[states.get(activityKey(activity)) ?? "pending"].className
                  }`}
                  data-testid="request-state"
                >
                  {STATE_WORDS[states.get(activityKey(activity)) ?? "pending"].text}
                </span>
              ) : null}
              {showVault && vaultName !== null ? (
                <span className="font-normal text-muted"> · {vaultName}</span>
              ) : null}
            </p>
            <p className="text-xs text-muted">
              <time dateTime={activity.blockTime ?? activity.recordedAt}>
                {formatDateTime(timeOf(activity), { locale })}
              </time>
              {" · "}
              <ExplorerLink
                target={{ signature: activity.signature }}
                className="font-mono underline decoration-dotted underline-offset-2 hover:text-accent-text"
                testId="activity-signature"
              >
                {activity.signature.slice(0, 8)}…
              </ExplorerLink>
            </p>
          </div>
          <p className="tabular text-right text-sm">
            {activity.kind === "initiate" ? "" : "+"}
            {activity.kind === "claim" ? asset(activity.assets, activity) : shares(activity.shares)}
            <span className="block text-xs text-muted">
              {activity.kind === "claim"
                ? `for ${shares(activity.shares)}${activity.fee === null ? "" : `, fee ${asset(activity.fee, activity, "nearest")}`}`
                : activity.kind === "deposit"
                  ? `for ${asset(activity.assets, activity)}`
                  : activity.kind === "cancel"
                    ? "shares back from the queue"
                    : `worth ${asset(activity.assets, activity)} at request`}
            </span>
          </p>
        </li>
      ))}
    </ol>
  );
}
