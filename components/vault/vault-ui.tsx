"use client";
// The vault's numbers: share price, TVL, APY, the price chart, the cap windows and what is left of
// them, and the wallet's position.
import { useId } from "react";

import { formatAmount, formatPercent, formatSharePrice } from "@/lib/web/amounts";
import { describeError } from "@/lib/web/error-words";
import { chartGeometry, describeSpan, observedApy, type NavPoint } from "@/lib/web/nav-history";
import { formatDateTime } from "@/lib/web/time";
import { capWindow, type StoredCapWindow } from "@/lib/vault/cap-window";
import type { VaultView } from "@/lib/vault/vault-view";
import { positionValue } from "@/lib/web/vault-view";
import type { VaultStatsData } from "@/lib/web/api-client";
import type { WalletPosition } from "@/lib/web/chain-reader";
import { LocalTime } from "../ui/local-time";
import { Button, Card, ProgressBar, Skeleton, Stat } from "../ui/primitives";

const WEEK = 7 * 86_400;

export function assetText(raw: bigint, vault: Pick<VaultView, "asset">): string {
  return `${formatAmount(raw, vault.asset.decimals)} ${vault.asset.symbol}`;
}

export function sharesText(raw: bigint, vault: Pick<VaultView, "shares">): string {
  return `${formatAmount(raw, vault.shares.decimals)} ${vault.shares.symbol}`;
}

/**
 * The APY: the API's 7-day figure from the indexer's NAV snapshots; until it has one, what the chart's
 * NAV strikes show, with the span they cover.
 */
export function apyFigure(
  stats: VaultStatsData | undefined,
  points: readonly NavPoint[] | undefined,
): { label: string; value: string; hint: string } {
  if (stats !== undefined && stats.apy7d !== null) {
    return {
      label: "APY",
      value: formatPercent(stats.apy7d),
      hint:
        stats.apy30d === null ? "7-day, from NAV history" : `7-day; 30-day ${formatPercent(stats.apy30d)}`,
    };
  }
  if (points === undefined) {
    return { label: "APY", value: "…", hint: "" };
  }
  const observed = observedApy(points, WEEK);
  if (observed === null) {
    return { label: "APY", value: "—", hint: "Not enough NAV history yet" };
  }
  const span = describeSpan(observed.spanSeconds);
  return observed.apy === null
    ? {
        // A few minutes' change is not an APY: the tile says what it is until a day of history exists.
        label: `Change (${span})`,
        value: `${observed.change >= 0 ? "+" : ""}${formatPercent(observed.change, 4)}`,
        hint: `Share price change over ${span}; an APY after a day of NAV history`,
      }
    : { label: "APY", value: formatPercent(observed.apy), hint: `Observed over ${span} of NAV strikes` };
}

export function VaultStats({
  vault,
  stats,
  history,
  position,
}: {
  vault: VaultView;
  stats: VaultStatsData | undefined;
  history: readonly NavPoint[] | undefined;
  position: WalletPosition | undefined;
}) {
  const apy = apyFigure(stats, history);
  return (
    <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
      <Stat
        label="Share price"
        value={formatSharePrice(vault.sharePrice)}
        hint={`${vault.asset.symbol} per ${vault.shares.symbol}`}
        testId="share-price"
      />
      <Stat
        label="TVL"
        value={assetText(vault.totalAssets, vault)}
        hint={
          stats === undefined
            ? "Net asset value"
            : `${stats.depositors} depositor${stats.depositors === 1 ? "" : "s"}`
        }
        testId="tvl"
      />
      <Stat label={apy.label} value={apy.value} hint={apy.hint} testId="apy" />
      <Stat
        label="Your position"
        value={position === undefined ? "—" : assetText(positionValue(vault, position.shareBalance), vault)}
        hint={position === undefined ? "Connect a wallet" : sharesText(position.shareBalance, vault)}
        testId="position-value"
      />
    </dl>
  );
}

export function SharePriceChart({
  vault,
  history,
  error,
  onRetry,
  retrying,
}: {
  vault: VaultView;
  history: readonly NavPoint[] | undefined;
  /** Shown only while there is no history to draw: a failed refetch keeps the last chart. */
  error: unknown;
  onRetry(): void;
  /** What the retry reads again, after "Try again: ". */
  retrying: string;
}) {
  const titleId = useId();
  const descriptionId = useId();
  const width = 640;
  const height = 180;
  const geometry = history === undefined ? null : chartGeometry(history, width, height);
  const first = history?.[0];
  const last = history?.at(-1);
  return (
    <Card title="Share price" titleId={titleId}>
      {history === undefined && error !== null ? (
        <div className="py-8 text-center text-sm" role="alert">
          <p>The share price history could not be loaded. {describeError(error).message}</p>
          <Button variant="secondary" className="mt-2" onClick={onRetry}>
            Try again: {retrying}
          </Button>
        </div>
      ) : history === undefined ? (
        <Skeleton className="h-44 w-full" label="Loading the share price history" />
      ) : geometry === null || first === undefined || last === undefined ? (
        <p className="py-10 text-center text-sm text-muted">
          The chart appears after the vault&apos;s first two NAV strikes.
        </p>
      ) : (
        <figure>
          <svg
            viewBox={`0 0 ${width} ${height}`}
            role="img"
            aria-labelledby={`${titleId} ${descriptionId}`}
            className="h-44 w-full"
            preserveAspectRatio="none"
          >
            <path d={geometry.area} className="fill-accent/10" />
            <path
              d={geometry.line}
              data-testid="share-price-line"
              data-points={history.length}
              className="fill-none stroke-accent"
              strokeWidth={2}
              vectorEffect="non-scaling-stroke"
            />
          </svg>
          <figcaption
            id={descriptionId}
            className="mt-2 flex flex-wrap justify-between gap-2 text-xs text-muted"
          >
            <span>
              {formatDateTime(first.time * 1000)}: {formatSharePrice(first.sharePrice)}
            </span>
            <span className="sr-only">to</span>
            <span>
              {formatDateTime(last.time * 1000)}: {formatSharePrice(last.sharePrice)} {vault.asset.symbol} per
              share ({history.length} NAV strikes shown)
            </span>
          </figcaption>
        </figure>
      )}
    </Card>
  );
}

function CapRow({
  label,
  window,
  vault,
  nowMs,
}: {
  label: string;
  window: StoredCapWindow;
  vault: VaultView;
  nowMs: number;
}) {
  const capacity = capWindow(window, nowMs / 1000);
  if (capacity.remaining === null) {
    return (
      <div>
        <div className="flex justify-between text-sm">
          <span className="font-medium">{label}</span>
          <span className="text-muted">No cap</span>
        </div>
      </div>
    );
  }
  const usedFraction = capacity.cap === 0n ? 0 : Number((capacity.used * 10_000n) / capacity.cap) / 10_000;
  const left = assetText(capacity.remaining, vault);
  return (
    <div className="space-y-1.5">
      <div className="flex flex-wrap justify-between gap-x-2 text-sm">
        <span className="font-medium">{label}</span>
        <span className="tabular" data-testid={`${label.toLowerCase()}-left`}>
          {left} left of {assetText(capacity.cap, vault)}
        </span>
      </div>
      <ProgressBar
        fraction={usedFraction}
        label={`${label} withdrawal cap used`}
        valueText={`${formatPercent(usedFraction, 0)} used; ${left} left`}
        tone={usedFraction >= 0.9 ? "bad" : usedFraction >= 0.7 ? "warn" : "accent"}
      />
      <p className="text-xs text-muted">
        Resets at <LocalTime time={capacity.resetsAt * 1000} />
      </p>
    </div>
  );
}

/** The queue from the vault's live state; the indexer's statistics add how long requests took. */
function QueueRow({ vault, stats }: { vault: VaultView; stats: VaultStatsData | undefined }) {
  const queued = vault.queueTail - vault.queueClaimed;
  const funded = vault.queueFunded - vault.queueClaimed;
  const average = stats?.averageSecondsToClaimable30d ?? null;
  return (
    <p className="text-sm" data-testid="queue-stats">
      <span className="font-medium">Withdrawal queue:</span>{" "}
      {queued === 0n
        ? "empty"
        : `${sharesText(queued, vault)} requested, ${sharesText(funded, vault)} funded`}
      {average === null ? "" : `; requests became claimable in ${describeSpan(average)} on average`}
    </p>
  );
}

export function CapsCard({
  vault,
  stats,
  nowMs,
}: {
  vault: VaultView;
  stats: VaultStatsData | undefined;
  nowMs: number;
}) {
  const titleId = useId();
  return (
    <Card title="Withdrawal caps" titleId={titleId}>
      <div className="space-y-4">
        <CapRow label="Hourly" window={vault.hourly} vault={vault} nowMs={nowMs} />
        <CapRow label="Daily" window={vault.daily} vault={vault} nowMs={nowMs} />
        <QueueRow vault={vault} stats={stats} />
        <p className="text-xs text-muted">
          Caps limit net withdrawals (requests minus deposits) per UTC hour and day. Fee{" "}
          {(vault.feeBps / 100).toFixed(2)}%, minimum {sharesText(vault.minWithdrawalShares, vault)}, paid in
          queue order once a NAV is struck after the request.
        </p>
      </div>
    </Card>
  );
}
