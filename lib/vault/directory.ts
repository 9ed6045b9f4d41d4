// The vault directory's views, built from the indexer's rows (never from a chain read per request):
// summary, detail, NAV and statistics. APY comes from NAV snapshots; the time from request to
// claimable from the program's events.
import { PublicKey } from "@solana/web3.js";

import { base58Of } from "../chain/base58";
import type { IndexedVaultRow, StoredEvent, VaultSnapshot } from "./indexed-records";
import type { NavPoint } from "./apy";
import { VAULT_PROGRAM_ID } from "./idl";
import { assetsForSharesRoundDown, sharePrice } from "./share-math";
import { tokenAmount, type TokenAmount } from "./token-amount";
import { vaultFromAccount, type LoadedVault, type VaultDeps } from "./vault-state";
import {
  isoFromSeconds,
  withdrawalLimits,
  withdrawalPolicy,
  type ScheduleSettings,
  type WithdrawalLimits,
  type WithdrawalPolicy,
} from "./withdrawal-rules";

export function vaultOfRow(
  deps: Pick<VaultDeps, "symbolOf" | "protocol">,
  row: IndexedVaultRow,
): LoadedVault {
  return vaultFromAccount(deps, new PublicKey(row.vault), {
    owner: VAULT_PROGRAM_ID,
    lamports: 0n,
    data: row.accountData,
  });
}

export function navPoints(snapshots: readonly VaultSnapshot[]): NavPoint[] {
  return snapshots.map((snapshot) => ({
    at: snapshot.navUpdatedAt ?? snapshot.takenAt,
    totalAssets: snapshot.totalAssets,
    totalShares: snapshot.totalShares,
  }));
}

export interface VaultApy {
  apy7d: number | null;
  apy30d: number | null;
}

interface TokenView {
  mint: string;
  symbol: string;
  decimals: number;
}

export interface VaultSummary {
  id: string;
  name: string;
  asset: TokenView;
  shares: TokenView;
  sharePrice: number;
  tvl: TokenAmount;
  apy7d: number | null;
  apy30d: number | null;
  caps: { hourly: TokenAmount | null; daily: TokenAmount | null };
  paused: boolean;
  indexedAt: string;
}

export interface VaultDetail extends VaultSummary {
  totalShares: TokenAmount;
  navSequence: string;
  navUpdatedAt: string | null;
  withdrawalPolicy: WithdrawalPolicy;
  withdrawalLimits: WithdrawalLimits;
}

function tokenView(token: LoadedVault["asset"]): TokenView {
  return { mint: base58Of(token.mint), symbol: token.symbol, decimals: token.decimals };
}

export function vaultSummary(vault: LoadedVault, row: IndexedVaultRow, apy: VaultApy): VaultSummary {
  const { state } = vault;
  return {
    id: base58Of(vault.address),
    name: state.name,
    asset: tokenView(vault.asset),
    shares: tokenView(vault.shares),
    sharePrice: sharePrice(state.totalAssets, state.totalShares),
    tvl: tokenAmount(vault.asset, state.totalAssets),
    apy7d: apy.apy7d,
    apy30d: apy.apy30d,
    caps: {
      hourly: state.hourlyCap === 0n ? null : tokenAmount(vault.asset, state.hourlyCap),
      daily: state.dailyCap === 0n ? null : tokenAmount(vault.asset, state.dailyCap),
    },
    paused: state.paused,
    indexedAt: row.updatedAt.toISOString(),
  };
}

export function vaultDetail(
  vault: LoadedVault,
  row: IndexedVaultRow,
  apy: VaultApy,
  schedule: ScheduleSettings,
  nowMs: number,
): VaultDetail {
  const { state } = vault;
  return {
    ...vaultSummary(vault, row, apy),
    totalShares: tokenAmount(vault.shares, state.totalShares),
    navSequence: state.navSequence.toString(),
    navUpdatedAt: state.navUpdatedAt > 0n ? isoFromSeconds(state.navUpdatedAt) : null,
    withdrawalPolicy: withdrawalPolicy(vault, schedule),
    withdrawalLimits: withdrawalLimits(vault, nowMs),
  };
}

export interface VaultNav {
  sharePrice: number;
  totalAssets: TokenAmount;
  totalShares: TokenAmount;
  navSequence: string;
  struckAt: string | null;
}

export function vaultNav(vault: LoadedVault): VaultNav {
  const { state } = vault;
  return {
    sharePrice: sharePrice(state.totalAssets, state.totalShares),
    totalAssets: tokenAmount(vault.asset, state.totalAssets),
    totalShares: tokenAmount(vault.shares, state.totalShares),
    navSequence: state.navSequence.toString(),
    struckAt: state.navUpdatedAt > 0n ? isoFromSeconds(state.navUpdatedAt) : null,
  };
}

function field(event: StoredEvent, name: string): bigint {
  return BigInt(String(event.data[name] ?? "0"));
}

/**
 * Mean seconds from a withdrawal request to the moment it became claimable (a NAV struck after it and
 * the queue funded past its end), over requests made since `sinceSeconds`; null when none became
 * claimable. Events oldest first.
 */
export function averageSecondsToClaimable(
  events: readonly StoredEvent[],
  sinceSeconds: number,
): number | null {
  const navs = events.filter((event) => event.name === "NavUpdated");
  const stages = events.filter((event) => event.name === "WithdrawalsStaged");
  const spans: number[] = [];
  for (const request of events) {
    if (request.name !== "WithdrawalRequested") {
      continue;
    }
    const requestedAt = Number(field(request, "timestamp"));
    if (requestedAt < sinceSeconds) {
      continue;
    }
    const nav = navs.find((event) => field(event, "navSequence") > field(request, "navFloor"));
    const stage = stages.find((event) => field(event, "queueFunded") >= field(request, "queueEnd"));
    if (nav !== undefined && stage !== undefined) {
      const claimableAt = Math.max(Number(field(nav, "timestamp")), Number(field(stage, "timestamp")));
      spans.push(Math.max(0, claimableAt - requestedAt));
    }
  }
  return spans.length === 0 ? null : spans.reduce((sum, span) => sum + span, 0) / spans.length;
}

export interface VaultStats {
  tvl: TokenAmount;
  depositors: number;
  apy7d: number | null;
  apy30d: number | null;
  queuedShares: TokenAmount;
  queuedAssets: TokenAmount;
  stagedShares: TokenAmount;
  averageSecondsToClaimable30d: number | null;
  firstNavAt: string | null;
}

/**
 * `averageSecondsToClaimable30d` comes from the store's aggregate (averageSecondsToClaimable's rule),
 * `firstNavAt` from its first NAV strike with shares outstanding.
 */
export function vaultStats(
  vault: LoadedVault,
  row: IndexedVaultRow,
  apy: VaultApy,
  reads: { averageSecondsToClaimable30d: number | null; firstNavAt: Date | null },
): VaultStats {
  const { state } = vault;
  const queued = state.queueTail - state.queueClaimed;
  return {
    tvl: tokenAmount(vault.asset, state.totalAssets),
    depositors: row.holders,
    apy7d: apy.apy7d,
    apy30d: apy.apy30d,
    queuedShares: tokenAmount(vault.shares, queued),
    queuedAssets: tokenAmount(
      vault.asset,
      assetsForSharesRoundDown(queued, state.totalAssets, state.totalShares),
    ),
    stagedShares: tokenAmount(vault.shares, state.queueFunded - state.queueClaimed),
    averageSecondsToClaimable30d: reads.averageSecondsToClaimable30d,
    firstNavAt: reads.firstNavAt?.toISOString() ?? null,
  };
}

export interface NavHistoryPoint {
  timestamp: string;
  sharePrice: number | null;
  totalAssets: TokenAmount | null;
  totalShares: TokenAmount | null;
  navSequence: string | null;
  struckAt: string | null;
}

/** nav-history's points: at each instant the NAV struck at or before it (`navAt`), null before the first. */
export function navHistoryPoints(
  vault: Pick<LoadedVault, "asset" | "shares">,
  timestamps: readonly number[],
  navAt: readonly (VaultSnapshot | null)[],
): NavHistoryPoint[] {
  return timestamps.map((atMs, index) => {
    const strike = navAt[index] ?? null;
    return {
      timestamp: new Date(atMs).toISOString(),
      sharePrice: strike === null ? null : sharePrice(strike.totalAssets, strike.totalShares),
      totalAssets: strike === null ? null : tokenAmount(vault.asset, strike.totalAssets),
      totalShares: strike === null ? null : tokenAmount(vault.shares, strike.totalShares),
      navSequence: strike === null ? null : strike.navSequence.toString(),
      struckAt: strike === null ? null : (strike.navUpdatedAt ?? strike.takenAt).toISOString(),
    };
  });
}
