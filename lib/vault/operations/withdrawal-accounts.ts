// Reading a withdrawal's accounts freshly, in one call each: the vault, the wallet's receipt, the
// reserve and (for the builder) the wallet's SOL and token accounts. What the withdraw builder and the
// withdrawal status both read; the rules applied to what they read are in withdrawal-rules.ts.
import { PublicKey } from "@solana/web3.js";

import type { ChainAccount } from "../../chain/accounts";
import { tokenAccountAmount, findAssociatedTokenAddress } from "../../chain/spl-token";
import {
  decodeQueueHoles,
  decodeReceipt,
  type QueueHolesAccount,
  type WithdrawalReceiptAccount,
} from "../program/accounts";
import { findQueueHoles, findReceipt } from "../program/addresses";
import { VAULT_PROGRAM_ID } from "../program/idl";
import {
  rememberVaultLayout,
  vaultFromAccount,
  vaultLayout,
  type LoadedVault,
  type VaultDeps,
} from "../model/vault-state";

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

/** A share range [start, end) of the withdrawal queue. */
export type QueueRange = QueueHolesAccount["holes"][number];

/** The holes cancelled requests left in the queue; none while the vault has no hole list. */
function holesFrom(account: ChainAccount | null | undefined): QueueRange[] {
  if (account === null || account === undefined || !account.owner.equals(VAULT_PROGRAM_ID)) {
    return [];
  }
  return decodeQueueHoles(account.data).holes;
}

export type StatusAccounts = Pick<
  WithdrawalAccounts,
  "vault" | "receipt" | "receiptAddress" | "reserveBalance"
> & {
  /** The queue's holes (cancelled requests staging will pass at no cost), oldest first. */
  queueHoles: QueueRange[];
};

/** Vault, receipt, reserve and the queue's holes, freshly, in one call: what the status needs. */
export async function readStatusAccounts(
  deps: VaultDeps,
  vaultAddress: PublicKey,
  wallet: PublicKey,
): Promise<StatusAccounts> {
  const layout = await vaultLayout(deps, vaultAddress);
  const receiptAddress = findReceipt(vaultAddress, wallet);
  const [vaultAccount, receipt, reserve, holes] = await deps.chain.getAccounts(
    [vaultAddress, receiptAddress, layout.reserve, findQueueHoles(vaultAddress)],
    "fresh",
  );
  const vault = vaultFromAccount(deps, vaultAddress, vaultAccount ?? null);
  return {
    vault,
    receiptAddress,
    receipt: receiptFrom(receipt),
    reserveBalance: tokenBalance(reserve),
    queueHoles: holesFrom(holes),
  };
}
