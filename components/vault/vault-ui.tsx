"use client";
// The vault's numbers: share price, TVL, APY, the price chart, the cap windows and what is left of
// them, and the wallet's position.
import { useId } from "react";

import { formatAmount, formatPercent, formatSharePrice } from "@/lib/web/amounts";
import { chartGeometry, describeSpan, observedApy, type NavPoint } from "@/lib/web/nav-history";
import { formatDateTime } from "@/lib/web/time";
import { capacityAt, positionValue, type CapWindowView, type VaultView } from "@/lib/web/vault-view";
import type { WalletPosition } from "@/lib/web/chain-reader";
import { LocalTime } from "../ui/local-time";
import { Card, ProgressBar, Skeleton, Stat } from "../ui/primitives";

const WEEK = 7 * 86_400;
const MONTH = 30 * 86_400;

export function assetText(raw: bigint, vault: Pick<VaultView, "decimals" | "assetSymbol">): string {
  return `${formatAmount(raw, vault.decimals)} ${vault.assetSymbol}`;
}

export function sharesText(raw: bigint, vault: Pick<VaultView, "decimals" | "shareSymbol">): string {
  return `${formatAmount(raw, vault.decimals)} ${vault.shareSymbol}`;
}

/** "8.24%" with the span it rests on: 7-day when the strikes cover a week, else what they cover. */
export function apyFigures(points: readonly NavPoint[] | undefined): {
  week: string;
  month: string;
  hint: string;
} {
  if (points === undefined) {
    return { week: "…", month: "…", hint: "" };
  }
  const week = observedApy(points, WEEK);
  const month = observedApy(points, MONTH);
  if (week === null) {
    return { week: "—", month: "—", hint: "Not enough NAV history yet" };
  }
  const hint =
    week.spanSeconds >= WEEK - 3600
      ? "Over the last 7 days"
      : `Observed over ${describeSpan(week.spanSeconds)} of NAV strikes`;
  return { week: formatPercent(week.apy), month: formatPercent(month?.apy ?? null), hint };
}

export function VaultStats({
  vault,
  history,
  position,
}: {
  vault: VaultView;
  history: readonly NavPoint[] | undefined;
  position: WalletPosition | undefined;
}) {
  const apy = apyFigures(history);
  return (
    <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
      <Stat
        label="Share price"
        value={formatSharePrice(vault.sharePrice)}
        hint={`${vault.assetSymbol} per ${vault.shareSymbol}`}
        testId="share-price"
      />
      <Stat label="TVL" value={assetText(vault.totalAssets, vault)} hint="Net asset value" testId="tvl" />
      <Stat label="APY" value={apy.week} hint={apy.hint} testId="apy" />
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
  loading,
}: {
  vault: VaultView;
  history: readonly NavPoint[] | undefined;
  loading: boolean;
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
      {loading && history === undefined ? (
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
              {formatDateTime(last.time * 1000)}: {formatSharePrice(last.sharePrice)} {vault.assetSymbol} per
              share ({history?.length ?? 0} NAV strikes)
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
  window: CapWindowView;
  vault: VaultView;
  nowMs: number;
}) {
  const capacity = capacityAt(window, nowMs / 1000);
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

export function CapsCard({ vault, nowMs }: { vault: VaultView; nowMs: number }) {
  const titleId = useId();
  return (
    <Card title="Withdrawal caps" titleId={titleId}>
      <div className="space-y-4">
        <CapRow label="Hourly" window={vault.hourly} vault={vault} nowMs={nowMs} />
        <CapRow label="Daily" window={vault.daily} vault={vault} nowMs={nowMs} />
        <p className="text-xs text-muted">
          Caps limit net withdrawals (requests minus deposits) per UTC hour and day. Fee{" "}
          {(vault.feeBps / 100).toFixed(2)}%, minimum {sharesText(vault.minWithdrawalShares, vault)}, paid in
          queue order once a NAV is struck after the request.
        </p>
      </div>
    </Card>
  );
}
