// The pages' previews over the vault's view (lib/vault/vault-view.ts, read live from the chain by
// lib/web/chain-reader.ts): deposit shares, withdrawal gross/fee/net, cap capacity as the program will
// see it. The arithmetic is lib/vault's (share-math.ts, cap-window.ts), the one the API checks with.
import { firstOverflow, windowsAt, type CapWindow } from "../vault/cap-window";
import {
  assetsForSharesRoundDown,
  sharePrice,
  sharesForAssetsRoundDown,
  withdrawalAmounts,
} from "../vault/share-math";
import type { VaultView } from "../vault/vault-view";

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
  hourly: CapWindow;
  daily: CapWindow;
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
  const windows = windowsAt(vault, nowSeconds);
  const overflow = firstOverflow(windows, charged);
  return {
    shares,
    ...amounts,
    ...windows,
    overCap:
      overflow === null
        ? null
        : {
            window: overflow.window,
            remaining: overflow.capacity.remaining,
            resetsAt: overflow.capacity.resetsAt,
          },
    // Every share the wallet holds may always be requested, whatever the minimum (as on chain).
    belowMinimum: shares < vault.minWithdrawalShares && shares !== walletShares,
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
