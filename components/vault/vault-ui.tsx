"use client";
// The vault's numbers: share price, TVL, APY, the price chart, the cap windows and what is left of
// them, and the wallet's position.
import { useId } from "react";

import { formatAmount, formatCompactAmount, formatPercent, formatSharePrice } from "@/lib/web/amounts";
import { describeSpan, observedApy, type NavPoint } from "@/lib/web/nav-history";
import { capWindow, type StoredCapWindow } from "@/lib/vault/model/cap-window";
import type { VaultView } from "@/lib/vault/model/vault-view";
import { depositorsText, positionValue } from "@/lib/web/vault-view";
import type { VaultStatsData } from "@/lib/web/api-client";
import type { WalletPosition } from "@/lib/web/chain-reader";
import { LocalTime } from "../ui/local-time";
import { CompactFigure } from "../ui/compact-figure";
import { Card, ProgressBar, Stat } from "../ui/primitives";

const WEEK = 7 * 86_400;

export function assetText(raw: bigint, vault: Pick<VaultView, "asset">): string {
  return `${formatAmount(raw, vault.asset.decimals)} ${vault.asset.symbol}`;
}

/** An asset amount for a stat tile: shortened on a phone ("60.91K USDC"), whole on a tap and from sm. */
function AssetFigure({ raw, vault }: { raw: bigint; vault: Pick<VaultView, "asset"> }) {
  return (
    <CompactFigure
      full={assetText(raw, vault)}
      compact={`${formatCompactAmount(raw, vault.asset.decimals)} ${vault.asset.symbol}`}
    />
  );
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
  // Minutes of strikes are no annual rate: the tile says what it shows until a day of history exists.
  return observed.apy === null
    ? {
        label: `Change (${span})`,
        value: `${observed.change >= 0 ? "+" : ""}${formatPercent(observed.change, 4)}`,
        hint: "Share price change; an APY after a day of NAV history",
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
        value={<AssetFigure raw={vault.totalAssets} vault={vault} />}
        hint={depositorsText(stats?.depositors, vault.totalAssets) ?? "Net asset value"}
        testId="tvl"
      />
      <Stat label={apy.label} value={apy.value} hint={apy.hint} testId="apy" />
      <Stat
        label="Your position"
        value={
          position === undefined ? (
            "—"
          ) : (
            <AssetFigure raw={positionValue(vault, position.shareBalance)} vault={vault} />
          )
        }
        hint={position === undefined ? "Connect a wallet" : sharesText(position.shareBalance, vault)}
        testId="position-value"
      />
    </dl>
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

function capText(cap: bigint, vault: VaultView): string {
  return cap === 0n ? "none" : assetText(cap, vault);
}

/**
 * A holder-hurting change the manager announced (a higher fee or minimum, a lower, new or removed cap):
 * what changes and when, so a holder can leave on today's terms first.
 */
function ScheduledChange({ vault }: { vault: VaultView }) {
  const pending = vault.pendingConfig;
  if (pending === null) {
    return null;
  }
  const percent = (bps: number) => formatPercent(bps / 10_000);
  const changes = [
    pending.feeBps !== vault.feeBps && `fee ${percent(vault.feeBps)} → ${percent(pending.feeBps)}`,
    pending.minWithdrawalShares !== vault.minWithdrawalShares &&
      `minimum ${sharesText(vault.minWithdrawalShares, vault)} → ${sharesText(pending.minWithdrawalShares, vault)}`,
    pending.hourlyCap !== vault.hourly.cap &&
      `hourly cap ${capText(vault.hourly.cap, vault)} → ${capText(pending.hourlyCap, vault)}`,
    pending.dailyCap !== vault.daily.cap &&
      `daily cap ${capText(vault.daily.cap, vault)} → ${capText(pending.dailyCap, vault)}`,
  ].filter((change): change is string => change !== false);
  return (
    <p role="note" className="text-xs font-medium text-warn" data-testid="scheduled-config">
      Announced change from <LocalTime time={Number(pending.effectiveAt) * 1000} format="date-time" />:{" "}
      {changes.length === 0 ? "the same terms, re-set" : changes.join("; ")}. Requests made before then keep
      today&apos;s terms.
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
          Caps limit withdrawal requests per UTC hour and day; a deposit gives back capacity its window has
          used, never more than that. Fee {(vault.feeBps / 100).toFixed(2)}%, minimum{" "}
          {sharesText(vault.minWithdrawalShares, vault)}, paid in queue order once a NAV is struck after the
          request.
        </p>
        <ScheduledChange vault={vault} />
      </div>
    </Card>
  );
}
