// The vault directory's views, built from the indexer's rows (never from a chain read per request):
// summary, detail, NAV and statistics. Their vault fields are serialized from the vault's VaultView
// (lib/vault/model/vault-view.ts: the pages read the same view live from the chain). APY comes from NAV
// snapshots; the time from request to claimable from the program's events.
import { PublicKey } from "@solana/web3.js";

import type { IndexedVaultRow, StoredEvent, VaultSnapshot } from "../model/indexed-records";
import type { NavPoint } from "../model/apy";
import { VAULT_PROGRAM_ID } from "../program/idl";
import { assetsForSharesRoundDown, sharePrice } from "../model/share-math";
import { configInForce, pendingConfig } from "../model/pending-config";
import { tokenAmount, type TokenAmount } from "../model/token-amount";
import { vaultFromAccount, type LoadedVault, type VaultDeps } from "../model/vault-state";
import type { VaultToken, VaultView } from "../model/vault-view";
import {
  isoFromSeconds,
  withdrawalPolicyAndLimits,
  type ScheduleSettings,
  type WithdrawalLimits,
  type WithdrawalPolicy,
} from "../model/withdrawal-rules";

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

/** A vault as the directory holds it: the indexer's row, the account in it decoded, its view, its APY. */
export interface DirectoryVault {
  row: IndexedVaultRow;
  vault: LoadedVault;
  view: VaultView;
  apy: VaultApy;
}

export interface VaultSummary {
  id: string;
  name: string;
  asset: VaultToken;
  shares: VaultToken;
  sharePrice: number;
  tvl: TokenAmount;
  apy7d: number | null;
  apy30d: number | null;
  caps: { hourly: TokenAmount | null; daily: TokenAmount | null };
  /** The withdrawal fee a request meets now, in basis points. */
  feeBps: number;
  paused: boolean;
  indexedAt: string;
}

export interface VaultDetail extends VaultSummary {
  totalShares: TokenAmount;
  navSequence: string;
  navUpdatedAt: string | null;
  withdrawalPolicy: WithdrawalPolicy;
  withdrawalLimits: WithdrawalLimits;
  pendingConfig: PendingConfigView | null;
}

/** A scheduled config as the API shows it (amounts labelled, no cap as null, the time in ISO 8601). */
export interface PendingConfigView {
  feeBps: number;
  minWithdrawalShares: TokenAmount;
  hourlyCap: TokenAmount | null;
  dailyCap: TokenAmount | null;
  effectiveAt: string;
}

function pendingConfigView(vault: LoadedVault, nowMs: number): PendingConfigView | null {
  const pending = pendingConfig(vault.state, nowMs);
  if (pending === null) {
    return null;
  }
  return {
    feeBps: pending.feeBps,
    minWithdrawalShares: tokenAmount(vault.shares, pending.minWithdrawalShares),
    hourlyCap: pending.hourlyCap === 0n ? null : tokenAmount(vault.asset, pending.hourlyCap),
    dailyCap: pending.dailyCap === 0n ? null : tokenAmount(vault.asset, pending.dailyCap),
    effectiveAt: isoFromSeconds(pending.effectiveAt),
  };
}

export function vaultSummary({ view, row, apy }: Omit<DirectoryVault, "vault">): VaultSummary {
  return {
    id: view.id,
    name: view.name,
    asset: view.asset,
    shares: view.shares,
    sharePrice: view.sharePrice,
    tvl: tokenAmount(view.asset, view.totalAssets),
    apy7d: apy.apy7d,
    apy30d: apy.apy30d,
    caps: {
      hourly: view.hourly.cap === 0n ? null : tokenAmount(view.asset, view.hourly.cap),
      daily: view.daily.cap === 0n ? null : tokenAmount(view.asset, view.daily.cap),
    },
    feeBps: view.feeBps,
    paused: view.paused,
    indexedAt: row.updatedAt.toISOString(),
  };
}

export function vaultDetail(entry: DirectoryVault, schedule: ScheduleSettings, nowMs: number): VaultDetail {
  const { view } = entry;
  // The fee, minimum and caps a request sent now meets: a pending config past its time is in force
  // (the program applies it before reading), even before anyone has sent the transaction that stores it.
  const vault = { ...entry.vault, state: configInForce(entry.vault.state, nowMs) };
  const { state } = vault;
  return {
    ...vaultSummary(entry),
    caps: {
      hourly: state.hourlyCap === 0n ? null : tokenAmount(view.asset, state.hourlyCap),
      daily: state.dailyCap === 0n ? null : tokenAmount(view.asset, state.dailyCap),
    },
    totalShares: tokenAmount(view.shares, view.totalShares),
    navSequence: view.navSequence.toString(),
    navUpdatedAt: view.navUpdatedAt > 0n ? isoFromSeconds(view.navUpdatedAt) : null,
    ...withdrawalPolicyAndLimits(vault, schedule, nowMs),
    pendingConfig: pendingConfigView(entry.vault, nowMs),
  };
}

export interface VaultNav {
  sharePrice: number;
  totalAssets: TokenAmount;
  totalShares: TokenAmount;
  navSequence: string;
  struckAt: string | null;
}

export function vaultNav(view: VaultView): VaultNav {
  return {
    sharePrice: view.sharePrice,
    totalAssets: tokenAmount(view.asset, view.totalAssets),
    totalShares: tokenAmount(view.shares, view.totalShares),
    navSequence: view.navSequence.toString(),
    struckAt: view.navUpdatedAt > 0n ? isoFromSeconds(view.navUpdatedAt) : null,
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
/** What the statistics read from the store beside the directory's row. */
export interface VaultStatsReads {
  averageSecondsToClaimable30d: number | null;
  firstNavAt: Date | null;
}

export function vaultStats(
  { view, row, apy }: Omit<DirectoryVault, "vault">,
  reads: VaultStatsReads,
): VaultStats {
  const queued = view.queueTail - view.queueClaimed;
  return {
    tvl: tokenAmount(view.asset, view.totalAssets),
    depositors: row.holders,
    apy7d: apy.apy7d,
    apy30d: apy.apy30d,
    queuedShares: tokenAmount(view.shares, queued),
    queuedAssets: tokenAmount(
      view.asset,
      assetsForSharesRoundDown(queued, view.totalAssets, view.totalShares),
    ),
    stagedShares: tokenAmount(view.shares, view.queueFunded - view.queueClaimed),
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
