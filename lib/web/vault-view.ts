// The vault as the pages show it: plain data with bigint amounts, read from the chain by
// lib/web/chain-reader.ts (or, later, from GET /api/vault/{id}), and the pure previews computed from
// it: deposit shares, withdrawal gross/fee/net, cap capacity as the program will see it.
import { capWindow, type CapWindow } from "../vault/cap-window";
import {
  assetsForSharesRoundDown,
  sharePrice,
  sharesForAssetsRoundDown,
  withdrawalAmounts,
} from "../vault/share-math";

export interface CapWindowView {
  /** 0n: no cap. */
  cap: bigint;
  used: bigint;
  /** Unix seconds when the stored window started. */
  windowStart: bigint;
  /** Window length in seconds (3600 or 86400). */
  length: number;
}

export interface VaultView {
  id: string;
  name: string;
  assetMint: string;
  shareMint: string;
  /** The asset's decimals. */
  decimals: number;
  /** The share mint's: the asset's plus the program's decimals offset. */
  shareDecimals: number;
  assetSymbol: string;
  shareSymbol: string;
  totalAssets: bigint;
  totalShares: bigint;
  sharePrice: number;
  navSequence: bigint;
  /** Unix seconds of the last NAV strike (0n: never). */
  navUpdatedAt: bigint;
  feeBps: number;
  minWithdrawalShares: bigint;
  hourly: CapWindowView;
  daily: CapWindowView;
  paused: boolean;
  queueTail: bigint;
  queueFunded: bigint;
  queueClaimed: bigint;
  pendingRequests: bigint;
}

/** What a window can take at `nowSeconds`, as the program will see it (lib/vault/cap-window.ts). */
export type Capacity = CapWindow;

/** A vault view's cap window at `nowSeconds`: capWindow over the view's stored fields. */
export function capacityAt(window: CapWindowView, nowSeconds: number): Capacity {
  return capWindow(window.cap, window.windowStart, window.used, nowSeconds, window.length);
}

export interface DepositPreview {
  shares: bigint;
  sharePrice: number;
}

/** Shares a deposit mints at today's price (the program rounds down); null when it would mint none. */
export function previewDeposit(vault: VaultView, assets: bigint): DepositPreview | null {
  const shares = sharesForAssetsRoundDown(assets, vault.totalAssets, vault.totalShares);
  return shares === 0n ? null : { shares, sharePrice: sharePrice(vault.totalAssets, vault.totalShares) };
}

export type CapLimit = { window: "hourly" | "daily"; remaining: bigint; resetsAt: number };

export interface WithdrawPreview {
  shares: bigint;
  gross: bigint;
  fee: bigint;
  net: bigint;
  hourly: Capacity;
  daily: Capacity;
  /** The first window this withdrawal would overflow (the program checks hourly, then daily). */
  overCap: CapLimit | null;
  belowMinimum: boolean;
  exceedsBalance: boolean;
}

export function previewWithdrawal(
  vault: VaultView,
  shares: bigint,
  walletShares: bigint,
  nowSeconds: number,
): WithdrawPreview {
  const amounts = withdrawalAmounts(shares, vault.totalAssets, vault.totalShares, vault.feeBps);
  const charged = assetsForSharesRoundDown(shares, vault.totalAssets, vault.totalShares);
  const hourly = capacityAt(vault.hourly, nowSeconds);
  const daily = capacityAt(vault.daily, nowSeconds);
  let overCap: CapLimit | null = null;
  for (const [window, capacity] of [
    ["hourly", hourly],
    ["daily", daily],
  ] as const) {
    if (overCap === null && capacity.remaining !== null && charged > capacity.remaining) {
      overCap = { window, remaining: capacity.remaining, resetsAt: capacity.resetsAt };
    }
  }
  return {
    shares,
    ...amounts,
    hourly,
    daily,
    overCap,
    belowMinimum: shares < vault.minWithdrawalShares,
    exceedsBalance: shares > walletShares,
  };
}

/** What a position of `shares` is worth now (rounded down, as a claim would compute it). */
export function positionValue(vault: VaultView, shares: bigint): bigint {
  return assetsForSharesRoundDown(shares, vault.totalAssets, vault.totalShares);
}

/** What a claim of `shares` pays now, after the fee its receipt fixed (`feeBps`). */
export function claimNet(vault: VaultView, shares: bigint, feeBps: number): bigint {
  return withdrawalAmounts(shares, vault.totalAssets, vault.totalShares, feeBps).net;
}
