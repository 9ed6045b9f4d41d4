"use client";
// The share price chart: the vault's NAV strikes over the last day, week or all of its history, ended by
// the chain's price now (the header's: one series, lib/web/nav-history.ts withLivePrice), on a price
// axis of at least MIN_PRICE_RANGE_FRACTION (a 0.01% move is a slope, not a cliff), with time and price
// ticks, a readout of the point under the pointer or the arrow keys, and a note when the price rose
// since the last strike because exit fees stayed with the holders.
import { useId, useState, type KeyboardEvent, type PointerEvent } from "react";

import { formatPercent, formatSharePrice } from "@/lib/web/amounts";
import { describeError } from "@/lib/web/error-words";
import {
  CHART_RANGES,
  chartGeometry,
  nearestPoint,
  pointsInRange,
  tickDecimals,
  type ChartRange,
  type FeesKept,
  type NavPoint,
} from "@/lib/web/nav-history";
import { formatDateTime } from "@/lib/web/time";
import { useReaderLocale } from "../providers/config-context";
import { useHydrated } from "../ui/local-time";
import type { VaultView } from "@/lib/vault/model/vault-view";
import { Button, Card, Skeleton } from "../ui/primitives";

const WIDTH = 640;
const HEIGHT = 180;
const RANGE_LABELS: Record<ChartRange, string> = { "24h": "24 h", "7d": "7 d", all: "All" };

export function SharePriceChart({
  vault,
  history,
  feesKept = null,
  error,
  onRetry,
  retrying,
}: {
  vault: VaultView;
  /** The strikes and, last, the chain's price now. */
  history: readonly NavPoint[] | undefined;
  /** The rise since the last strike, from withdrawal fees the holders kept. */
  feesKept?: FeesKept | null;
  /** Shown only while there is no history to draw: a failed refetch keeps the last chart. */
  error: unknown;
  onRetry(): void;
  /** What the retry reads again, after "Try again: ". */
  retrying: string;
}) {
  const titleId = useId();
  const descriptionId = useId();
  const [range, setRange] = useState<ChartRange>("all");
  const [selected, setSelected] = useState<number | null>(null);
  const shown = history === undefined ? undefined : pointsInRange(history, range);
  const geometry = shown === undefined ? null : chartGeometry(shown, WIDTH, HEIGHT);
  const first = shown?.[0];
  const last = shown?.at(-1);
  const symbol = vault.asset.symbol;
  const locale = useReaderLocale();
  // Times are the reader's (zone and locale): written once hydrated, as LocalTime does.
  const hydrated = useHydrated();
  const when = (point: NavPoint) =>
    !hydrated ? "" : point.live === true ? "Now" : formatDateTime(point.time * 1000, { locale });
  const strikes = shown?.filter((point) => point.live !== true).length ?? 0;
  const priceDigits = (value: number, digits: number) =>
    new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
      value,
    );

  let body;
  if (history === undefined && error !== null) {
    body = (
      <div className="py-8 text-center text-sm" role="alert">
        <p>The share price history could not be loaded. {describeError(error).message}</p>
        <Button variant="secondary" className="mt-2" onClick={onRetry}>
          Try again: {retrying}
        </Button>
      </div>
    );
  } else if (history === undefined) {
    body = <Skeleton className="h-44 w-full" label="Loading the share price history" />;
  } else if (geometry === null || first === undefined || last === undefined) {
    body = (
      <p className="py-10 text-center text-sm text-muted">
        The chart appears after the vault&apos;s first NAV strike.
      </p>
    );
  } else {
    const decimals = tickDecimals(geometry.minPrice, geometry.maxPrice);
    const point = selected === null ? null : (geometry.points[selected] ?? null);
    const select = (index: number) => setSelected(Math.min(geometry.points.length - 1, Math.max(0, index)));
    const onPointer = (event: PointerEvent<SVGSVGElement>) => {
      const box = event.currentTarget.getBoundingClientRect();
      const x = ((event.clientX - box.left) / Math.max(1, box.width)) * WIDTH;
      const nearest = nearestPoint(geometry.points, x);
      setSelected(nearest === null ? null : geometry.points.indexOf(nearest));
    };
    const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
      const current = selected ?? geometry.points.length - 1;
      const moves: Record<string, number> = {
        ArrowLeft: current - 1,
        ArrowRight: current + 1,
        Home: 0,
        End: geometry.points.length - 1,
      };
      const next = moves[event.key];
      if (next !== undefined) {
        event.preventDefault();
        select(next);
      }
    };
    body = (
      <figure>
        <div className="flex gap-2">
          {/* The price axis, in HTML so its text is not stretched with the drawing. */}
          <div className="relative h-44 w-16 shrink-0 text-right text-[11px] text-muted" aria-hidden="true">
            {geometry.priceTicks.map((tick) => (
              <span
                key={tick.at}
                className="tabular absolute right-0 -translate-y-1/2"
                style={{ top: `${(tick.at / HEIGHT) * 100}%` }}
                data-testid="price-tick"
              >
                {priceDigits(tick.value, decimals)}
              </span>
            ))}
          </div>
          <div
            className="relative min-w-0 flex-1 rounded focus-visible:outline-2 focus-visible:outline-accent"
            tabIndex={0}
            role="group"
            aria-label="Share price strikes: use the arrow keys to read them"
            onKeyDown={onKey}
            onBlur={() => setSelected(null)}
          >
            <svg
              viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
              role="img"
              aria-labelledby={`${titleId} ${descriptionId}`}
              className="h-44 w-full touch-none"
              preserveAspectRatio="none"
              onPointerMove={onPointer}
              onPointerDown={onPointer}
              onPointerLeave={() => setSelected(null)}
            >
              {geometry.priceTicks.map((tick) => (
                <line
                  key={tick.at}
                  x1={0}
                  x2={WIDTH}
                  y1={tick.at}
                  y2={tick.at}
                  className="stroke-line"
                  strokeWidth={1}
                  vectorEffect="non-scaling-stroke"
                />
              ))}
              <path d={geometry.area} className="fill-accent/10" />
              <path
                d={geometry.line}
                data-testid="share-price-line"
                data-points={shown?.length ?? 0}
                data-min={geometry.minPrice}
                data-max={geometry.maxPrice}
                className="fill-none stroke-accent"
                strokeWidth={2}
                vectorEffect="non-scaling-stroke"
              />
              {point === null ? null : (
                <line
                  x1={point.x}
                  x2={point.x}
                  y1={0}
                  y2={HEIGHT}
                  className="stroke-accent/50"
                  strokeWidth={1}
                  vectorEffect="non-scaling-stroke"
                />
              )}
            </svg>
            <div className="tabular mt-1 flex justify-between text-[11px] text-muted" aria-hidden="true">
              {geometry.timeTicks.map((tick) => (
                <span key={tick.at} data-testid="time-tick">
                  {hydrated ? formatDateTime(tick.value * 1000, { locale }) : ""}
                </span>
              ))}
            </div>
          </div>
        </div>
        <p className="tabular mt-2 min-h-5 text-sm" aria-live="polite" data-testid="chart-readout">
          {point === null
            ? ""
            : `${when(point)}: ${formatSharePrice(point.sharePrice, locale)} ${symbol} per share`}
        </p>
        <figcaption
          id={descriptionId}
          className="mt-1 flex flex-wrap justify-between gap-2 text-xs text-muted"
        >
          <span>
            {when(first)}: {formatSharePrice(first.sharePrice, locale)}
          </span>
          <span className="sr-only">to</span>
          <span>
            {when(last)}: {formatSharePrice(last.sharePrice, locale)} {symbol} per share ({strikes} NAV strike
            {strikes === 1 ? "" : "s"} shown{last.live === true ? ", then the price now" : ""})
          </span>
        </figcaption>
        {feesKept === null ? null : (
          <p role="note" className="mt-2 text-xs font-medium text-accent-text" data-testid="fees-kept-note">
            Since the NAV strike {hydrated ? `of ${formatDateTime(feesKept.since * 1000, { locale })}` : ""}{" "}
            the share price rose {formatPercent(feesKept.change, 4, locale)} (
            {formatSharePrice(feesKept.from, locale)} → {formatSharePrice(feesKept.to, locale)}): withdrawal
            fees paid by exiting holders stay in the vault and lift every remaining share. It is not yield.
          </p>
        )}
      </figure>
    );
  }

  return (
    <Card title="Share price" titleId={titleId}>
      <div className="mb-2 flex justify-end gap-1" role="group" aria-label="Chart range">
        {CHART_RANGES.map((option) => (
          <button
            key={option}
            type="button"
            aria-pressed={range === option}
            onClick={() => {
              setRange(option);
              setSelected(null);
            }}
            className={`rounded px-2 py-0.5 text-xs font-medium ${
              range === option ? "bg-accent text-accent-fg" : "text-muted hover:bg-soft"
            }`}
          >
            {RANGE_LABELS[option]}
          </button>
        ))}
      </div>
      {body}
    </Card>
  );
}
