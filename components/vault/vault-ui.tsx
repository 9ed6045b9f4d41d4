"use client";
// The vault's numbers: share price, TVL, APY, the price chart, the cap windows and what is left of
// them, and the wallet's position.
import { useId } from "react";

import {
  formatAmount,
  formatCompactAmount,
  formatPercent,
  formatSharePrice,
  type Rounding,
} from "@/lib/web/amounts";
import { describeSpan, observedApy, type NavPoint } from "@/lib/web/nav-history";
import { capWindow, type StoredCapWindow } from "@/lib/vault/model/cap-window";
import { DECIMALS_OFFSET } from "@/lib/vault/model/share-math";
import type { VaultView } from "@/lib/vault/model/vault-view";
import { depositorsText, positionValue } from "@/lib/web/vault-view";
import type { VaultStatsData } from "@/lib/web/api-client";
import type { WalletPosition } from "@/lib/web/chain-reader";
import { useReaderLocale } from "../providers/config-context";
import { LocalTime } from "../ui/local-time";
import { CompactFigure } from "../ui/compact-figure";
import { Card, ProgressBar, Stat } from "../ui/primitives";

const WEEK = 7 * 86_400;

/** The asset's precision on the pages, unless a flow needs more for a small fee (moneyLine). */
export const ASSET_FRACTION = 2;

/**
 * "1.234,56 USDC" in the reader's locale, with the flow's precision (`fraction`, two by default) and
 * cut toward zero unless `rounding` says otherwise (a valuation rounds to the nearest digit).
 */
export function assetText(
  raw: bigint,
  vault: Pick<VaultView, "asset">,
  locale: string,
  options: { fraction?: number; rounding?: Rounding } = {},
): string {
  const fraction = options.fraction ?? ASSET_FRACTION;
  return `${formatAmount(raw, vault.asset.decimals, { locale, minFraction: fraction, maxFraction: fraction, rounding: options.rounding })} ${vault.asset.symbol}`;
}

/** An asset amount for a stat tile: shortened on a phone ("60.91K USDC"), whole on a tap and from sm. */
function AssetFigure({
  raw,
  vault,
  rounding,
}: {
  raw: bigint;
  vault: Pick<VaultView, "asset">;
  rounding?: Rounding;
}) {
  const locale = useReaderLocale();
  return (
    <CompactFigure
      full={assetText(raw, vault, locale, { rounding })}
      compact={`${formatCompactAmount(raw, vault.asset.decimals, locale)} ${vault.asset.symbol}`}
    />
  );
}

/**
 * "1,499999 vUSDC": shares always with the asset's six decimals (one precision for the unit everywhere,
 * so a deposit's 1.499999 shares never read as 1.49), cut toward zero.
 */
export function sharesText(raw: bigint, vault: Pick<VaultView, "shares">, locale: string): string {
  const fraction = Math.max(0, vault.shares.decimals - DECIMALS_OFFSET);
  return `${formatAmount(raw, vault.shares.decimals, { locale, minFraction: fraction, maxFraction: fraction })} ${vault.shares.symbol}`;
}

/**
 * The APY: the API's 7-day figure from the indexer's NAV snapshots; until it has one, what the chart's
 * NAV strikes show, with the span they cover.
 */
export function apyFigure(
  stats: VaultStatsData | undefined,
  points: readonly NavPoint[] | undefined,
  locale: string,
): { label: string; value: string; hint: string } {
  if (stats !== undefined && stats.apy7d !== null) {
    return {
      label: "APY",
      value: formatPercent(stats.apy7d, 2, locale),
      hint:
        stats.apy30d === null
          ? "7-day, from NAV history"
          : `7-day; 30-day ${formatPercent(stats.apy30d, 2, locale)}`,
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
        value: `${observed.change >= 0 ? "+" : ""}${formatPercent(observed.change, 4, locale)}`,
        hint: "Share price change; an APY after a day of NAV history",
      }
    : {
        label: "APY",
        value: formatPercent(observed.apy, 2, locale),
        hint: `Observed over ${span} of NAV strikes`,
      };
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
  const locale = useReaderLocale();
  const apy = apyFigure(stats, history, locale);
  return (
    <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
      <Stat
        label="Share price"
        value={formatSharePrice(vault.sharePrice, locale)}
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
            // A valuation, to the nearest cent: 76.999999 after depositing 77.00 reads 77.00.
            <AssetFigure raw={positionValue(vault, position.shareBalance)} vault={vault} rounding="nearest" />
          )
        }
        hint={position === undefined ? "Connect a wallet" : sharesText(position.shareBalance, vault, locale)}
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
  const locale = useReaderLocale();
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
  const left = assetText(capacity.remaining, vault, locale);
  return (
    <div className="space-y-1.5">
      <div className="flex flex-wrap justify-between gap-x-2 text-sm">
        <span className="font-medium">{label}</span>
        <span className="tabular" data-testid={`${label.toLowerCase()}-left`}>
          {left} left of {assetText(capacity.cap, vault, locale)}
        </span>
      </div>
      <ProgressBar
        fraction={usedFraction}
        label={`${label} withdrawal cap used`}
        valueText={`${formatPercent(usedFraction, 0, locale)} used; ${left} left`}
        tone={usedFraction >= 0.9 ? "bad" : usedFraction >= 0.7 ? "warn" : "accent"}
      />
      <p className="text-xs text-muted">
        Resets at <LocalTime time={capacity.resetsAt * 1000} format="when" nowMs={nowMs} zone />
      </p>
    </div>
  );
}

/** The queue from the vault's live state; the indexer's statistics add how long requests took. */
function QueueRow({ vault, stats }: { vault: VaultView; stats: VaultStatsData | undefined }) {
  const queued = vault.queueTail - vault.queueClaimed;
  const funded = vault.queueFunded - vault.queueClaimed;
  const average = stats?.averageSecondsToClaimable30d ?? null;
  const locale = useReaderLocale();
  return (
    <p className="text-sm" data-testid="queue-stats">
      <span className="font-medium">Withdrawal queue:</span>{" "}
      {queued === 0n
        ? "empty"
        : `${sharesText(queued, vault, locale)} requested, ${sharesText(funded, vault, locale)} funded`}
      {average === null ? "" : `; requests became claimable in ${describeSpan(average)} on average`}
    </p>
  );
}

function capText(cap: bigint, vault: VaultView, locale: string): string {
  return cap === 0n ? "none" : assetText(cap, vault, locale);
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
  const locale = useReaderLocale();
  const percent = (bps: number) => formatPercent(bps / 10_000, 2, locale);
  const changes = [
    pending.feeBps !== vault.feeBps && `fee ${percent(vault.feeBps)} → ${percent(pending.feeBps)}`,
    pending.minWithdrawalShares !== vault.minWithdrawalShares &&
      `minimum ${sharesText(vault.minWithdrawalShares, vault, locale)} → ${sharesText(pending.minWithdrawalShares, vault, locale)}`,
    pending.hourlyCap !== vault.hourly.cap &&
      `hourly cap ${capText(vault.hourly.cap, vault, locale)} → ${capText(pending.hourlyCap, vault, locale)}`,
    pending.dailyCap !== vault.daily.cap &&
      `daily cap ${capText(vault.daily.cap, vault, locale)} → ${capText(pending.dailyCap, vault, locale)}`,
  ].filter((change): change is string => change !== false);
  return (
    <p role="note" className="text-xs font-medium text-warn" data-testid="scheduled-config">
      Announced change from <LocalTime time={Number(pending.effectiveAt) * 1000} format="date-time" zone />:{" "}
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
  const locale = useReaderLocale();
  return (
    <Card title="Withdrawal caps" titleId={titleId}>
      <div className="space-y-4">
        <CapRow label="Hourly" window={vault.hourly} vault={vault} nowMs={nowMs} />
        <CapRow label="Daily" window={vault.daily} vault={vault} nowMs={nowMs} />
        <QueueRow vault={vault} stats={stats} />
        <p className="text-xs text-muted">
          Caps limit withdrawal requests per UTC hour and day; a deposit gives back capacity its window has
          used, never more than that. Fee {formatPercent(vault.feeBps / 10_000, 2, locale)}, minimum{" "}
          {sharesText(vault.minWithdrawalShares, vault, locale)}, paid in queue order once a NAV is struck
          after the request.
        </p>
        <ScheduledChange vault={vault} />
      </div>
    </Card>
  );
}
