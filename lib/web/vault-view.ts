// The pages' previews over the vault's view (lib/vault/model/vault-view.ts, read live from the chain by
// lib/web/chain-reader.ts): deposit shares, withdrawal gross/fee/net, cap capacity as the program will
// see it. The arithmetic is lib/vault's (share-math.ts, cap-window.ts), the one the API checks with.
import { firstOverflow, windowsAt, type CapWindow } from "../vault/model/cap-window";
import {
  assetsForSharesRoundDown,
  sharePrice,
  sharesForAssetsRoundDown,
  sharesForAssetsRoundUp,
  withdrawalAmounts,
} from "../vault/model/share-math";
import type { VaultView } from "../vault/model/vault-view";

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

/** The most shares whose value, rounded down as the program charges the caps, is at most `assets`. */
export function largestSharesWorthAtMost(vault: VaultView, assets: bigint): bigint {
  if (assets < 0n) {
    return 0n;
  }
  // value(s) > assets ⟺ s ≥ ceil((assets + 1) × S' / A'), so one share fewer is the largest that fits.
  return sharesForAssetsRoundUp(assets + 1n, vault.totalAssets, vault.totalShares) - 1n;
}

/** Why a withdrawal cannot be requested as typed: one reason, the first the program would give. */
export type WithdrawBlock =
  { kind: "balance"; held: bigint } | { kind: "minimum"; minimum: bigint } | ({ kind: "cap" } & CapLimit);

export interface WithdrawFit {
  /** The largest request that passes every check now: within the balance and both caps. */
  shares: bigint;
  /** What the caps count for it (its value, rounded down). */
  assets: bigint;
  /** What it pays now, after the vault's fee: what the offer promises. */
  net: bigint;
  /** When the window that bounds it rolls over (unix seconds); null when only the balance bounds it. */
  restAfter: number | null;
}

export interface WithdrawVerdict {
  block: WithdrawBlock | null;
  /** When blocked by the balance or a cap: what fits instead, if anything at or above the minimum. */
  fit: WithdrawFit | null;
}

/** The binding cap: the capped window with the least left (hourly first on a tie, as the program checks). */
function tightestCap(preview: WithdrawPreview): CapLimit | null {
  let tightest: CapLimit | null = null;
  for (const window of ["hourly", "daily"] as const) {
    const { remaining, resetsAt } = preview[window];
    if (remaining !== null && (tightest === null || remaining < tightest.remaining)) {
      tightest = { window, remaining, resetsAt };
    }
  }
  return tightest;
}

/**
 * The request as typed against the wallet's shares, the vault's minimum and both caps: the one reason
 * it cannot be sent (balance, then minimum, then caps) and the largest request that can.
 */
export function withdrawVerdict(
  vault: VaultView,
  preview: WithdrawPreview,
  walletShares: bigint,
): WithdrawVerdict {
  const block: WithdrawBlock | null = preview.exceedsBalance
    ? { kind: "balance", held: walletShares }
    : preview.belowMinimum
      ? { kind: "minimum", minimum: vault.minWithdrawalShares }
      : preview.overCap === null
        ? null
        : { kind: "cap", ...preview.overCap };
  if (block === null || block.kind === "minimum") {
    return { block, fit: null };
  }
  const cap = tightestCap(preview);
  const capShares = cap === null ? null : largestSharesWorthAtMost(vault, cap.remaining);
  const bounded = capShares !== null && capShares < walletShares;
  const shares = bounded ? capShares : walletShares;
  if (shares <= 0n || shares < vault.minWithdrawalShares) {
    return { block, fit: null };
  }
  return {
    block,
    fit: {
      shares,
      assets: assetsForSharesRoundDown(shares, vault.totalAssets, vault.totalShares),
      net: withdrawalAmounts(shares, vault.totalAssets, vault.totalShares, vault.feeBps).net,
      restAfter: bounded && cap !== null ? cap.resetsAt : null,
    },
  };
}

/**
 * The least SOL any transaction of the pages costs: one signature's base fee (LAMPORTS_PER_SIGNATURE in
 * lib/vault/model/vault-state.ts, kept out of the pages' first JavaScript). A wallet below it cannot pay for
 * anything, so the forms say so before asking the wallet to sign; the API's preparation checks the
 * full figure (priority fee and any rent) before a transaction is built.
 */
export const FEE_FLOOR_LAMPORTS = 5_000n;

/** Whether a wallet holding `lamports` cannot pay even the base fee. */
export function lacksFeeSol(lamports: bigint): boolean {
  return lamports < FEE_FLOOR_LAMPORTS;
}

/**
 * "3 depositors" beside the TVL, from the indexer's statistics, or null while they cannot be right: not
 * loaded yet, or still counting none beside assets the chain already holds (the indexer counts holders
 * on its passes, seconds behind the chain's live TVL).
 */
export function depositorsText(depositors: number | undefined, totalAssets: bigint): string | null {
  if (depositors === undefined || (depositors === 0 && totalAssets > 0n)) {
    return null;
  }
  return `${depositors} depositor${depositors === 1 ? "" : "s"}`;
}
