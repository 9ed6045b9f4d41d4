// Reading a withdrawal's accounts freshly, in one call each: the vault, the wallet's receipt, the
// reserve and (for the builder) the wallet's SOL and token accounts and the queue's hole list. What the withdraw builder and the
// withdrawal status both read; the rules applied to what they read are in withdrawal-rules.ts.
import { PublicKey } from "@solana/web3.js";

import type { ChainAccount } from "../../chain/accounts";
import { tokenAccountAmount, findAssociatedTokenAddress } from "../../chain/spl-token";
import {
  decodeQueueHolesState,
  decodeReceiptState,
  type QueueHolesState,
  type ReceiptState,
} from "../program/accounts";
import { findQueueHoles, findReceipt } from "../program/addresses";
import { VAULT_PROGRAM_ID } from "../program/idl";
import {
  rememberVaultLayout,
  vaultFromAccount,
  vaultLayout,
  type LoadedVault,
  type VaultDeps,
  type VaultLayout,
} from "../model/vault-state";

export interface WithdrawalAccounts {
  vault: LoadedVault;
  receiptAddress: PublicKey;
  receipt: ReceiptState | null;
  /** The receipt's address as read (its lamports come back to the wallet at a claim or cancel). */
  receiptAccount: ChainAccount | null;
  reserveBalance: bigint;
  walletLamports: bigint;
  walletShares: bigint;
  /** The wallet's asset account (a claim opens it when missing), null when nothing is there. */
  assetAccount: ChainAccount | null;
  /** The wallet's share account (a cancel re-opens it when the wallet closed it). */
  shareAccount: ChainAccount | null;
  /** The vault's hole list (the first cancel that leaves a hole opens it), null when nothing is there. */
  queueHolesAccount: ChainAccount | null;
}

function tokenBalance(account: ChainAccount | null | undefined): bigint {
  return account === null || account === undefined
    ? 0n
    : (tokenAccountAmount(account.owner, account.data) ?? 0n);
}

// A shared read hands the same account objects to every status read it answers (and the account
// cache keeps them until it reads again), so each is decoded once; a new read brings new objects.
const decodedReceipts = new WeakMap<ChainAccount, ReceiptState>();
const decodedHoles = new WeakMap<ChainAccount, QueueRange[]>();

function receiptFrom(account: ChainAccount | null | undefined): ReceiptState | null {
  if (account === null || account === undefined || !account.owner.equals(VAULT_PROGRAM_ID)) {
    return null;
  }
  let receipt = decodedReceipts.get(account);
  if (receipt === undefined) {
    receipt = decodeReceiptState(account.data);
    decodedReceipts.set(account, receipt);
  }
  return receipt;
}

/**
 * The vault, the wallet's receipt and the reserve, and after them the accounts `more` names from the
 * vault's layout, freshly, in one getMultipleAccounts call.
 */
async function readVaultAndReceipt(
  deps: VaultDeps,
  vaultAddress: PublicKey,
  wallet: PublicKey,
  mode: "fresh" | "fresh-shared",
  more: (layout: VaultLayout) => PublicKey[],
) {
  const layout = await vaultLayout(deps, vaultAddress);
  const receiptAddress = findReceipt(vaultAddress, wallet);
  const [vaultAccount, receipt, reserve, ...rest] = await deps.chain.getAccounts(
    [vaultAddress, receiptAddress, layout.reserve, ...more(layout)],
    mode,
  );
  return {
    vault: vaultFromAccount(deps, vaultAddress, vaultAccount ?? null),
    receiptAddress,
    receiptAccount: receipt ?? null,
    reserveBalance: tokenBalance(reserve),
    rest,
  };
}

/**
 * Vault, receipt, reserve, the wallet's accounts and the hole list, freshly, in one getMultipleAccounts
 * call.
 */
export async function readWithdrawalAccounts(
  deps: VaultDeps,
  vaultAddress: PublicKey,
  wallet: PublicKey,
): Promise<WithdrawalAccounts> {
  const { rest, ...read } = await readVaultAndReceipt(deps, vaultAddress, wallet, "fresh", (layout) => [
    wallet,
    findAssociatedTokenAddress(wallet, layout.shareMint),
    findAssociatedTokenAddress(wallet, layout.assetMint),
    findQueueHoles(vaultAddress),
  ]);
  const [walletAccount, shareAccount, assetAccount, queueHoles] = rest;
  rememberVaultLayout(read.vault);
  return {
    vault: read.vault,
    receiptAddress: read.receiptAddress,
    receipt: receiptFrom(read.receiptAccount),
    receiptAccount: read.receiptAccount,
    reserveBalance: read.reserveBalance,
    walletLamports: walletAccount?.lamports ?? 0n,
    walletShares: tokenBalance(shareAccount),
    assetAccount: assetAccount ?? null,
    shareAccount: shareAccount ?? null,
    queueHolesAccount: queueHoles ?? null,
  };
}

/** A share range [start, end) of the withdrawal queue. */
export type QueueRange = QueueHolesState["holes"][number];

/** The holes cancelled requests left in the queue; none while the vault has no hole list. */
function holesFrom(account: ChainAccount | null | undefined): QueueRange[] {
  if (account === null || account === undefined || !account.owner.equals(VAULT_PROGRAM_ID)) {
    return [];
  }
  let holes = decodedHoles.get(account);
  if (holes === undefined) {
    holes = decodeQueueHolesState(account.data).holes;
    decodedHoles.set(account, holes);
  }
  return holes;
}

export type StatusAccounts = Pick<
  WithdrawalAccounts,
  "vault" | "receipt" | "receiptAddress" | "reserveBalance"
> & {
  /** The queue's holes (cancelled requests staging will pass at no cost), oldest first. */
  queueHoles: QueueRange[];
};

/**
 * Vault, receipt, reserve and the queue's holes, freshly, in one call: what the status needs. Status
 * reads of one wallet at the same time share the call (a read sent after each of them asked).
 */
export async function readStatusAccounts(
  deps: VaultDeps,
  vaultAddress: PublicKey,
  wallet: PublicKey,
): Promise<StatusAccounts> {
  // Status reads asked at once share one fresh read ("fresh-shared", lib/chain/accounts.ts).
  const read = await readVaultAndReceipt(deps, vaultAddress, wallet, "fresh-shared", () => [
    findQueueHoles(vaultAddress),
  ]);
  return {
    vault: read.vault,
    receiptAddress: read.receiptAddress,
    receipt: receiptFrom(read.receiptAccount),
    reserveBalance: read.reserveBalance,
    queueHoles: holesFrom(read.rest[0]),
  };
}
