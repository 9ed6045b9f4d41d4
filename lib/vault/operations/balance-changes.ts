// The wallet's balance changes in a simulation: its SOL, asset and share accounts read before it and
// as the simulation returns them. The check before signing bounds them; a build reports them.
// Browsers have no global Buffer; the pages run this too.
import { Buffer } from "buffer";

import { PublicKey } from "@solana/web3.js";

import { tokenAccountAmount } from "../../chain/spl-token";

/** The wallet's accounts whose balances the simulation reports, in this order. */
export interface WatchedAccounts {
  wallet: PublicKey;
  asset: PublicKey;
  shares: PublicKey;
}

/** The watched accounts in the order the simulation is asked for them. */
export function watchedAddresses(watched: WatchedAccounts): PublicKey[] {
  return [watched.wallet, watched.asset, watched.shares];
}

/** The wallet's balance changes in the simulation (negative: leaves the wallet). */
export interface BalanceChanges {
  asset: bigint;
  shares: bigint;
  lamports: bigint;
}

/** An account read before the simulation (web3.js's AccountInfo, or the API's ChainAccount). */
export type PreAccount = { lamports: number | bigint; owner: PublicKey; data: Uint8Array } | null;

/** An account as the simulation returns it (data: [base64, "base64"]). */
export type PostAccount = { lamports: number; owner: string; data: readonly string[] } | null;

function tokenBalanceBefore(account: PreAccount | undefined): bigint {
  return account === null || account === undefined
    ? 0n
    : (tokenAccountAmount(account.owner, account.data) ?? 0n);
}

function tokenBalanceAfter(account: PostAccount | undefined): bigint {
  if (account === null || account === undefined) {
    return 0n;
  }
  const [base64] = account.data;
  return base64 === undefined
    ? 0n
    : (tokenAccountAmount(new PublicKey(account.owner), Buffer.from(base64, "base64")) ?? 0n);
}

/**
 * The wallet's balance changes between its accounts read before the simulation and the simulation's
 * accounts after it (both in watchedAddresses' order). An account the simulation does not return
 * (null) holds nothing after it.
 */
export function balanceChanges(before: readonly PreAccount[], after: readonly PostAccount[]): BalanceChanges {
  const [walletBefore, assetBefore, sharesBefore] = before;
  const [walletAfter, assetAfter, sharesAfter] = after;
  return {
    lamports: BigInt(walletAfter?.lamports ?? 0) - BigInt(walletBefore?.lamports ?? 0),
    asset: tokenBalanceAfter(assetAfter) - tokenBalanceBefore(assetBefore),
    shares: tokenBalanceAfter(sharesAfter) - tokenBalanceBefore(sharesBefore),
  };
}
