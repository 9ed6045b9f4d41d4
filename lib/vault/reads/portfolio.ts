// A wallet's position in a vault and where a vault's NAV sits, from the indexer's rows plus the
// wallet's share balance. Cost basis is average cost over the wallet's deposits on chain (from the
// program's events): a claim takes out its shares' share of the basis. Unrealized PnL compares the
// position's value (held + pending shares) with the basis still in it; realized PnL is what claims paid
// (net of their fees) against the basis they took out; the total is both, so a withdrawal fee that
// mostly came back to the wallet's own shares reads as the small loss it is, not as a gain.
import type { IndexedVaultRow, StoredEvent } from "../model/indexed-records";
import { assetsForSharesRoundDown, assetsForSharesRoundUp, sharePrice } from "../model/share-math";
import { tokenAmount, type TokenAmount, type TokenLabel } from "../model/token-amount";
import type { LoadedVault } from "../model/vault-state";

function field(event: StoredEvent, name: string): bigint {
  return BigInt(String(event.data[name] ?? "0"));
}

export interface CostBasis {
  /** Shares bought by deposits and not yet claimed. */
  shares: bigint;
  /** Assets paid for those shares. */
  basis: bigint;
  /** Shares escrowed by a request not yet claimed. */
  pendingShares: bigint;
  realizedPnl: bigint;
  /** Withdrawal fees the wallet's claims paid (the program's WithdrawalClaimed `fee`). */
  feesPaid: bigint;
  /** Assets the wallet ever deposited: what the total result is a fraction of. */
  deposited: bigint;
}

export const EMPTY_COST_BASIS: CostBasis = {
  shares: 0n,
  basis: 0n,
  pendingShares: 0n,
  realizedPnl: 0n,
  feesPaid: 0n,
  deposited: 0n,
};

/**
 * Shares leaving the position (claimed, or burned as a cancel's fee) at average cost: they take their
 * proportional part of the basis (rounded down), which is `released`.
 */
function sharesLeaving(
  state: CostBasis,
  leaving: bigint,
): { shares: bigint; basis: bigint; released: bigint } {
  const { shares, basis } = state;
  const released = shares === 0n ? 0n : (basis * (leaving < shares ? leaving : shares)) / shares;
  return { shares: shares > leaving ? shares - leaving : 0n, basis: basis - released, released };
}

/** The basis after one more of the wallet's events (the history endpoints replay them one at a time). */
export function applyCostBasisEvent(state: CostBasis, event: StoredEvent): CostBasis {
  if (event.name === "Deposited") {
    return {
      ...state,
      shares: state.shares + field(event, "shares"),
      basis: state.basis + field(event, "assets"),
      deposited: state.deposited + field(event, "assets"),
    };
  }
  if (event.name === "WithdrawalRequested") {
    return { ...state, pendingShares: state.pendingShares + field(event, "shares") };
  }
  if (event.name === "WithdrawalCancelled") {
    // The shares come back to the wallet less the fee the program burned: they leave the pending
    // ones; the burned shares leave the position and take their part of the basis as a realized loss.
    const cancelled = field(event, "shares");
    const { shares, basis, released } = sharesLeaving(state, field(event, "feeShares"));
    return {
      ...state,
      shares,
      basis,
      pendingShares: state.pendingShares > cancelled ? state.pendingShares - cancelled : 0n,
      realizedPnl: state.realizedPnl - released,
    };
  }
  if (event.name === "WithdrawalClaimed") {
    const { pendingShares } = state;
    const claimed = field(event, "shares");
    const { shares, basis, released } = sharesLeaving(state, claimed);
    return {
      ...state,
      shares,
      basis,
      pendingShares: pendingShares > claimed ? pendingShares - claimed : 0n,
      realizedPnl: state.realizedPnl + field(event, "net") - released,
      feesPaid: state.feesPaid + field(event, "fee"),
    };
  }
  return state;
}

/** Average-cost basis over the wallet's events in one vault, oldest first. */
export function costBasis(events: readonly StoredEvent[]): CostBasis {
  return events.reduce(applyCostBasisEvent, EMPTY_COST_BASIS);
}

/** A position with the asset it is valued in (a portfolio's totals add positions per asset). */
export interface HeldPosition {
  asset: TokenLabel;
  position: PortfolioPosition;
}

export interface PortfolioPosition {
  vaultId: string;
  vaultName: string;
  shares: TokenAmount;
  value: TokenAmount;
  costBasis: TokenAmount;
  /** Unrealized: the value held (and pending) against the basis still in it. */
  pnl: { amount: string; uiAmount: number; fraction: number | null };
  unrealizedPnl: { amount: string; uiAmount: number };
  realizedPnl: { amount: string; uiAmount: number };
  /** Realized plus unrealized, and its fraction of everything the wallet deposited. */
  totalPnl: { amount: string; uiAmount: number; fraction: number | null };
  feesPaid: TokenAmount;
  pendingWithdrawal: { shares: TokenAmount; value: TokenAmount } | null;
  sharePrice: number;
}

export function signedAmount(amount: bigint, decimals: number): { amount: string; uiAmount: number } {
  return { amount: amount.toString(), uiAmount: Number(amount) / 10 ** decimals };
}

export function portfolioPosition(
  vault: LoadedVault,
  heldShares: bigint,
  events: readonly StoredEvent[],
): PortfolioPosition {
  const { state } = vault;
  const basis = costBasis(events);
  const valueOf = (shares: bigint): bigint =>
    assetsForSharesRoundDown(shares, state.totalAssets, state.totalShares);
  const value = valueOf(heldShares + basis.pendingShares);
  const pnl = value - basis.basis;
  const decimals = vault.asset.decimals;
  return {
    vaultId: vault.address.toBase58(),
    vaultName: state.name,
    shares: tokenAmount(vault.shares, heldShares),
    value: tokenAmount(vault.asset, value),
    costBasis: tokenAmount(vault.asset, basis.basis),
    pnl: {
      ...signedAmount(pnl, decimals),
      fraction: basis.basis === 0n ? null : Number(pnl) / Number(basis.basis),
    },
    unrealizedPnl: signedAmount(pnl, decimals),
    realizedPnl: signedAmount(basis.realizedPnl, decimals),
    totalPnl: {
      ...signedAmount(pnl + basis.realizedPnl, decimals),
      fraction: basis.deposited === 0n ? null : Number(pnl + basis.realizedPnl) / Number(basis.deposited),
    },
    feesPaid: tokenAmount(vault.asset, basis.feesPaid),
    pendingWithdrawal:
      basis.pendingShares === 0n
        ? null
        : {
            shares: tokenAmount(vault.shares, basis.pendingShares),
            value: tokenAmount(vault.asset, valueOf(basis.pendingShares)),
          },
    sharePrice: sharePrice(state.totalAssets, state.totalShares),
  };
}

export interface VaultAllocations {
  totalAssets: TokenAmount;
  idleReserve: { amount: TokenAmount; fraction: number | null };
  fundedForQueue: { amount: TokenAmount; fraction: number | null };
  deployed: { amount: TokenAmount; fraction: number | null };
  strategies: { name: string; weight: number; amount: TokenAmount; fraction: number | null }[];
  asOf: string;
}

/** A strategy the vault's manager declares for its deployed assets, with its share of them in bps. */
export interface DeclaredStrategy {
  name: string;
  bps: number;
}

export const WHOLE_BPS = 10_000;

/**
 * `total` split by weights in bps that add up to 10,000: each part rounded down, the remainder (less
 * than one raw unit per part) to the heaviest weight, so the parts always add up to the whole.
 */
export function splitByWeights(total: bigint, weightsBps: readonly number[]): bigint[] {
  const parts = weightsBps.map((bps) => (total * BigInt(bps)) / BigInt(WHOLE_BPS));
  const heaviest = weightsBps.indexOf(Math.max(...weightsBps));
  const remainder = total - parts.reduce((sum, part) => sum + part, 0n);
  return parts.map((part, index) => (index === heaviest ? part + remainder : part));
}

/**
 * Where the NAV sits: the reserve's assets owed to the funded queue (rounded up, as the program does),
 * the rest of the reserve idle, and what the NAV counts beyond the reserve deployed.
 */
export function vaultAllocations(
  vault: LoadedVault,
  row: IndexedVaultRow,
  strategies: readonly DeclaredStrategy[] = [],
): VaultAllocations {
  const { state } = vault;
  const fundedShares = state.queueFunded - state.queueClaimed;
  const owed = assetsForSharesRoundUp(fundedShares, state.totalAssets, state.totalShares);
  const funded = owed < row.reserveBalance ? owed : row.reserveBalance;
  const idle = row.reserveBalance - funded;
  const inReserve = row.reserveBalance < state.totalAssets ? row.reserveBalance : state.totalAssets;
  const deployed = state.totalAssets - inReserve;
  const part = (amount: bigint) => ({
    amount: tokenAmount(vault.asset, amount),
    fraction: state.totalAssets === 0n ? null : Number(amount) / Number(state.totalAssets),
  });
  const strategyParts = splitByWeights(
    deployed,
    strategies.map((strategy) => strategy.bps),
  );
  return {
    totalAssets: tokenAmount(vault.asset, state.totalAssets),
    idleReserve: part(idle),
    fundedForQueue: part(funded),
    deployed: part(deployed),
    strategies: strategies.map((strategy, index) => ({
      name: strategy.name,
      weight: strategy.bps / WHOLE_BPS,
      ...part(strategyParts[index] ?? 0n),
    })),
    asOf: row.updatedAt.toISOString(),
  };
}
