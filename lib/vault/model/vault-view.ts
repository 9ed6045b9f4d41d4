// The vault as both audiences read it: plain data with bigint amounts and base58 addresses, built
// from the decoded account and the deployment's token names by one function. GET /api/vault/{id} and
// the directory serialize its fields from the indexer's copy of the account (lib/vault/reads/directory.ts);
// the pages hold it as it is, read live from the chain by lib/web/chain-reader.ts, and compute their
// previews from it with share-math.ts and cap-window.ts. The windows stay as stored, so a reader
// rolls them over at its own clock (capWindow). The fee, minimum and caps are those a request sent at
// the reader's clock meets: a scheduled config past its effective time is in force (the program
// applies it before reading), one still ahead is `pendingConfig`. Only types are imported besides the
// arithmetic, so the pages may name this type without loading web3.js or the program's decoders.
import { storedWindows, type StoredCapWindow } from "./cap-window";
import { configInForce, pendingConfig, type PendingConfig } from "./pending-config";
import { sharePrice } from "./share-math";
import type { LoadedVault } from "./vault-state";

/** A token of the vault as both audiences name it (the API's `asset` and `shares`). */
export interface VaultToken {
  /** Base58. */
  mint: string;
  symbol: string;
  decimals: number;
}

export interface VaultView {
  /** The vault's address, base58. */
  id: string;
  name: string;
  asset: VaultToken;
  /** The share mint: its decimals are the asset's plus the program's decimals offset. */
  shares: VaultToken;
  totalAssets: bigint;
  totalShares: bigint;
  /** One whole share in whole assets, for display (share-math's sharePrice). */
  sharePrice: number;
  navSequence: bigint;
  /** Unix seconds of the last NAV strike (0n: never). */
  navUpdatedAt: bigint;
  feeBps: number;
  minWithdrawalShares: bigint;
  hourly: StoredCapWindow;
  daily: StoredCapWindow;
  paused: boolean;
  /** The pause in force: when it ends by itself (unix seconds) and whose it is; null when none is. */
  pause: PauseInForce | null;
  queueTail: bigint;
  queueFunded: bigint;
  queueClaimed: bigint;
  pendingRequests: bigint;
  /** A holder-hurting config change announced and not yet in force; null when none is. */
  pendingConfig: PendingConfig | null;
}

export interface PauseInForce {
  until: bigint;
  /** "admin": the protocol admin's pause (set_admin_pause), which the manager cannot lift. */
  by: "admin" | "manager";
}

function tokenOf(token: LoadedVault["asset"]): VaultToken {
  return { mint: token.mint.toBase58(), symbol: token.symbol, decimals: token.decimals };
}

/**
 * The view of a vault read from the chain (vault-state's vaultFromAccount: decoded and its tokens
 * named), its config as in force at `nowMs`.
 */
export function vaultView(vault: LoadedVault, nowMs: number): VaultView {
  const state = configInForce(vault.state, nowMs);
  const windows = storedWindows(state);
  return {
    id: vault.address.toBase58(),
    name: state.name,
    asset: tokenOf(vault.asset),
    shares: tokenOf(vault.shares),
    totalAssets: state.totalAssets,
    totalShares: state.totalShares,
    sharePrice: sharePrice(state.totalAssets, state.totalShares),
    navSequence: state.navSequence,
    navUpdatedAt: state.navUpdatedAt,
    feeBps: state.feeBps,
    minWithdrawalShares: state.minWithdrawalShares,
    hourly: windows.hourly,
    daily: windows.daily,
    paused: state.paused,
    pause: state.paused ? { until: state.pauseUntil, by: state.adminPaused ? "admin" : "manager" } : null,
    queueTail: state.queueTail,
    queueFunded: state.queueFunded,
    queueClaimed: state.queueClaimed,
    pendingRequests: state.pendingRequests,
    pendingConfig: pendingConfig(vault.state, nowMs),
  };
}
