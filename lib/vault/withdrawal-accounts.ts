// Reading a withdrawal's accounts freshly, in one call each: the vault, the wallet's receipt, the
// reserve and (for the builder) the wallet's SOL and token accounts. What the withdraw builder and the
// withdrawal status both read; the rules applied to what they read are in withdrawal-rules.ts.
import { PublicKey } from "@solana/web3.js";

import type { ChainAccount } from "../chain/accounts";
import { tokenAccountAmount, findAssociatedTokenAddress } from "../chain/spl-token";
import { decodeReceipt, type WithdrawalReceiptAccount } from "./accounts";
import { findReceipt } from "./addresses";
import { VAULT_PROGRAM_ID } from "./idl";
import {
  rememberVaultLayout,
  vaultFromAccount,
  vaultLayout,
  type LoadedVault,
  type VaultDeps,
} from "./vault-state";

export interface WithdrawalAccounts {
  vault: LoadedVault;
  receiptAddress: PublicKey;
  receipt: WithdrawalReceiptAccount | null;
  reserveBalance: bigint;
  walletLamports: bigint;
  walletShares: bigint;
  assetAccountExists: boolean;
  /** The wallet's share account is open (a cancel re-opens it when the wallet closed it). */
  shareAccountExists: boolean;
}

function tokenBalance(account: ChainAccount | null | undefined): bigint {
  return account === null || account === undefined
    ? 0n
    : (tokenAccountAmount(account.owner, account.data) ?? 0n);
}

function receiptFrom(account: ChainAccount | null | undefined): WithdrawalReceiptAccount | null {
  if (account === null || account === undefined || !account.owner.equals(VAULT_PROGRAM_ID)) {
    return null;
  }
  return decodeReceipt(account.data);
}

/** Vault, receipt, reserve and the wallet's accounts, freshly, in one getMultipleAccounts call. */
export async function readWithdrawalAccounts(
  deps: VaultDeps,
  vaultAddress: PublicKey,
  wallet: PublicKey,
): Promise<WithdrawalAccounts> {
  const layout = await vaultLayout(deps, vaultAddress);
  const receiptAddress = findReceipt(vaultAddress, wallet);
  const [vaultAccount, receipt, reserve, walletAccount, shareAccount, assetAccount] =
    await deps.chain.getAccounts(
      [
        vaultAddress,
        receiptAddress,
        layout.reserve,
        wallet,
        findAssociatedTokenAddress(wallet, layout.shareMint),
        findAssociatedTokenAddress(wallet, layout.assetMint),
      ],
      "fresh",
    );
  const vault = vaultFromAccount(deps, vaultAddress, vaultAccount ?? null);
  rememberVaultLayout(vault);
  return {
    vault,
    receiptAddress,
    receipt: receiptFrom(receipt),
    reserveBalance: tokenBalance(reserve),
    walletLamports: walletAccount?.lamports ?? 0n,
    walletShares: tokenBalance(shareAccount),
    assetAccountExists: assetAccount !== null && assetAccount !== undefined,
    shareAccountExists: shareAccount !== null && shareAccount !== undefined,
  };
}

/** Vault, receipt and reserve, freshly, in one call: what the status needs. */
export async function readStatusAccounts(
  deps: VaultDeps,
  vaultAddress: PublicKey,
  wallet: PublicKey,
): Promise<Pick<WithdrawalAccounts, "vault" | "receipt" | "receiptAddress" | "reserveBalance">> {
  const layout = await vaultLayout(deps, vaultAddress);
  const receiptAddress = findReceipt(vaultAddress, wallet);
  const [vaultAccount, receipt, reserve] = await deps.chain.getAccounts(
    [vaultAddress, receiptAddress, layout.reserve],
    "fresh",
  );
  const vault = vaultFromAccount(deps, vaultAddress, vaultAccount ?? null);
  return { vault, receiptAddress, receipt: receiptFrom(receipt), reserveBalance: tokenBalance(reserve) };
}
