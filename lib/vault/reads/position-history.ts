// A wallet's position in one vault through time, behind GET /api/vault/{id}/portfolio-history and
// /pnl-history: the wallet's program events replayed oldest first (average-cost basis, as in
// portfolio.ts) and valued at each point with the newest share price known then — the NAV strike
// before the point, or the wallet's own deposit or claim if that came later (both carry the vault's
// totals). Shares moved by plain token transfers are no program events and are not seen here.
// Amounts stay bigint; percentages come from the integers and become numbers only at the end.
import type { StoredEvent, VaultSnapshot } from "../model/indexed-records";
import { applyCostBasisEvent, EMPTY_COST_BASIS, signedAmount, type CostBasis } from "./portfolio";
import {
  assetsForSharesRoundDown,
  percentRoundTowardZero,
  sharePrice,
  sharePriceChangePercent,
} from "../model/share-math";
import { tokenAmount, type TokenAmount } from "../model/token-amount";
import type { LoadedVault } from "../model/vault-state";

interface PricePoint {
  atMs: number;
  slot: number;
  totalAssets: bigint;
  totalShares: bigint;
}

function field(event: StoredEvent, name: string): bigint {
  return BigInt(String(event.data[name] ?? "0"));
}

/** When the program says the event happened (its clock), else the block time. */
function eventTimeMs(event: StoredEvent): number {
  const stamp = event.data.timestamp;
  if (stamp !== undefined && stamp !== null) {
    return Number(BigInt(String(stamp))) * 1000;
  }
  return event.blockTime?.getTime() ?? 0;
}

function laterPrice(a: PricePoint | null, b: PricePoint | null): PricePoint | null {
  if (a === null) {
    return b;
  }
  if (b === null) {
    return a;
  }
  return b.atMs > a.atMs || (b.atMs === a.atMs && b.slot > a.slot) ? b : a;
}

export interface PositionPoint {
  atMs: number;
  /** Shares still in the wallet (deposited, not requested). */
  heldShares: bigint;
  /** Shares escrowed by a request not yet claimed. */
  pendingShares: bigint;
  /** Held and pending shares at the share price: rounded down, as a claim would be. */
  value: bigint;
  costBasis: bigint;
  /** Unrealized: value − cost basis. */
  pnl: bigint;
  realizedPnl: bigint;
  /** The vault's totals behind the share price used; null before any price is known. */
  price: { totalAssets: bigint; totalShares: bigint } | null;
}

/**
 * The wallet's position at each of `timestamps` (ascending). `events` are the wallet's events in the
 * vault, oldest first; `navAt[i]` is the newest NAV snapshot at or before `timestamps[i]`.
 */
export function positionSeries(
  events: readonly StoredEvent[],
  navAt: readonly (VaultSnapshot | null)[],
  timestamps: readonly number[],
): PositionPoint[] {
  let basis: CostBasis = EMPTY_COST_BASIS;
  let walletPrice: PricePoint | null = null;
  let next = 0;
  return timestamps.map((atMs, index) => {
    for (; next < events.length; next += 1) {
      const event = events[next];
      if (event === undefined || eventTimeMs(event) > atMs) {
        break;
      }
      basis = applyCostBasisEvent(basis, event);
      if (event.name === "Deposited" || event.name === "WithdrawalClaimed") {
        walletPrice = {
          atMs: eventTimeMs(event),
          slot: event.slot,
          totalAssets: field(event, "totalAssets"),
          totalShares: field(event, "totalShares"),
        };
      }
    }
    const snapshot = navAt[index] ?? null;
    const price = laterPrice(
      snapshot === null
        ? null
        : {
            atMs: (snapshot.navUpdatedAt ?? snapshot.takenAt).getTime(),
            slot: snapshot.slot,
            totalAssets: snapshot.totalAssets,
            totalShares: snapshot.totalShares,
          },
      walletPrice,
    );
    const value =
      price === null ? 0n : assetsForSharesRoundDown(basis.shares, price.totalAssets, price.totalShares);
    return {
      atMs,
      heldShares: basis.shares - basis.pendingShares,
      pendingShares: basis.pendingShares,
      value,
      costBasis: basis.basis,
      pnl: value - basis.basis,
      realizedPnl: basis.realizedPnl,
      price: price === null ? null : { totalAssets: price.totalAssets, totalShares: price.totalShares },
    };
  });
}

type SignedAmount = { amount: string; uiAmount: number };

export interface PortfolioHistoryPoint {
  timestamp: string;
  sharePrice: number | null;
  shares: TokenAmount;
  pendingShares: TokenAmount;
  value: TokenAmount;
  costBasis: TokenAmount;
  pnl: SignedAmount;
  realizedPnl: SignedAmount;
  pnlPct: number | null;
  sharePriceChangePct: number | null;
}

/** portfolio-history's points: amounts as token amounts, the percentages in percent (8.24 = 8.24%). */
export function portfolioHistoryPoints(
  vault: Pick<LoadedVault, "asset" | "shares">,
  points: readonly PositionPoint[],
): PortfolioHistoryPoint[] {
  const firstPrice = points.find((point) => point.price !== null)?.price ?? null;
  const decimals = vault.asset.decimals;
  return points.map((point) => ({
    timestamp: new Date(point.atMs).toISOString(),
    sharePrice: point.price === null ? null : sharePrice(point.price.totalAssets, point.price.totalShares),
    shares: tokenAmount(vault.shares, point.heldShares),
    pendingShares: tokenAmount(vault.shares, point.pendingShares),
    value: tokenAmount(vault.asset, point.value),
    costBasis: tokenAmount(vault.asset, point.costBasis),
    pnl: signedAmount(point.pnl, decimals),
    realizedPnl: signedAmount(point.realizedPnl, decimals),
    pnlPct: percentRoundTowardZero(point.pnl, point.costBasis),
    sharePriceChangePct:
      firstPrice === null || point.price === null ? null : sharePriceChangePercent(firstPrice, point.price),
  }));
}

export interface PnlHistoryPoint {
  timestamp: string;
  pnl: SignedAmount;
  realizedPnl: SignedAmount;
  pnlPct: number | null;
}

/** pnl-history's points: unrealized and realized PnL in asset units, pnlPct in percent. */
export function pnlHistoryPoints(
  vault: Pick<LoadedVault, "asset">,
  points: readonly PositionPoint[],
): PnlHistoryPoint[] {
  const decimals = vault.asset.decimals;
  return points.map((point) => ({
    timestamp: new Date(point.atMs).toISOString(),
    pnl: signedAmount(point.pnl, decimals),
    realizedPnl: signedAmount(point.realizedPnl, decimals),
    pnlPct: percentRoundTowardZero(point.pnl, point.costBasis),
  }));
}
