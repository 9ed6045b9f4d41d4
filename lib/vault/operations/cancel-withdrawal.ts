// cancel_withdrawal: a pending request's escrowed shares come back to the owner's share account
// (re-opened if it was closed) and the request leaves the queue. It moves no asset. The first cancel
// that leaves a hole in the queue creates the vault's hole list, whose rent the wallet pays.
import {
  TOKEN_ACCOUNT_SIZE,
  buildCreateAssociatedTokenAccountIdempotentInstruction,
  findAssociatedTokenAddress,
} from "../../chain/spl-token";
import { assetsForSharesRoundDown } from "../model/share-math";
import { formatAbout, tokenAmount } from "../model/token-amount";
import { rentExemptMinimum, type VaultDeps } from "../model/vault-state";
import { withdrawalLimits, withdrawalPolicy, type ScheduleSettings } from "../model/withdrawal-rules";
import { findQueueHoles, findQueueHolesAndBump } from "../program/addresses";
import { QUEUE_HOLES_ACCOUNT_SIZE } from "../program/idl";
import { buildCancelWithdrawalInstruction } from "../program/instructions";
import { defineOperation } from "./operation";
import type { WithdrawalAccounts } from "./withdrawal-accounts";
import {
  buildForWallet,
  pendingReceipt,
  transactionInputs,
  type PreparedWithdrawal,
  type WithdrawOptions,
  type WithdrawRequest,
} from "./withdrawal-prepare";

export const cancelWithdrawal = defineOperation({
  instruction: "cancel_withdrawal",
  action: "cancel",
  amountArg: null,
  createdTokenAccount: "shares",
  takesWithdrawalCap: false,
  rentPaidFor: [QUEUE_HOLES_ACCOUNT_SIZE],
  // Worst case (share account re-opened and the hole list created: 22,362 CU), measured in
  // tests/api/endpoints/cancel.test.ts.
  computeUnits: 30_000,
  // The hole list, looked for while it does not exist (counted always: the build does not know
  // whether this cancel is the one that creates it).
  searchedBump: (account) => {
    const vault = account("vault");
    return vault === undefined ? null : findQueueHolesAndBump(vault).bump;
  },
  event: "WithdrawalCancelled",
  activityOf: (event) => {
    if (event.name !== "WithdrawalCancelled") return null;
    const { data } = event;
    return {
      owner: data.owner,
      fields: { kind: "cancel", requestId: data.requestId, assets: 0n, shares: data.shares, fee: null },
    };
  },
  partnerEvent: "withdrawal.cancelled",
  // Back in the owner's wallet from the escrow; the request left the queue.
  partnerData: (fields) => ({
    requestId: fields.integer("requestId").toString(),
    shares: fields.shares("shares"),
  }),
});

/**
 * The cancel's prepare step, claimable or not: its escrowed shares come back to the wallet's share
 * account (re-opened idempotently, as a claim does the asset account), the cap usage it took is
 * returned and it leaves the queue. Nothing pending is a 409, as for a claim.
 */
export async function prepareCancelWithdrawal(
  deps: VaultDeps,
  schedule: ScheduleSettings,
  accounts: WithdrawalAccounts,
  request: WithdrawRequest,
  options: WithdrawOptions,
): Promise<PreparedWithdrawal> {
  const { vault } = accounts;
  const receipt = pendingReceipt(accounts, "cancel");
  const queueHoles = findQueueHoles(vault.address);
  const [[blockhash, price], [holeList]] = await Promise.all([
    transactionInputs(deps, vault),
    deps.chain.getAccounts([queueHoles], "fresh"),
  ]);
  const { state } = vault;
  const shareAccount = findAssociatedTokenAddress(request.wallet, vault.shares.mint);
  const instructions = [
    buildCreateAssociatedTokenAccountIdempotentInstruction(
      request.wallet,
      request.wallet,
      vault.shares.mint,
      shareAccount,
    ),
    buildCancelWithdrawalInstruction({
      owner: request.wallet,
      vault: vault.address,
      receipt: accounts.receiptAddress,
      ownerShares: shareAccount,
      escrow: state.escrow,
      authority: state.authority,
      queueHoles,
    }),
  ];
  // The first cancel that leaves a hole in the queue creates the vault's hole list and pays its rent
  // before the receipt's rent comes back: the wallet must hold it beforehand.
  const holeListRent =
    holeList === null || holeList === undefined ? rentExemptMinimum(QUEUE_HOLES_ACCOUNT_SIZE) : 0n;
  const built = await buildForWallet(
    deps,
    { vault, accounts, request, options },
    cancelWithdrawal,
    instructions,
    {
      blockhash,
      price,
      rent: holeListRent + (accounts.shareAccountExists ? 0n : rentExemptMinimum(TOKEN_ACCOUNT_SIZE)),
    },
  );
  const value = assetsForSharesRoundDown(receipt.shares, state.totalAssets, state.totalShares);
  return {
    action: "cancel",
    message:
      `Cancel the pending withdrawal of ${formatAbout(receipt.shares, vault.shares)} from ${state.name}: ` +
      `the shares (about ${formatAbout(value, vault.asset)} at today's share price) come back to the wallet ` +
      `and the request leaves the queue`,
    details: {
      requestId: receipt.requestId.toString(),
      returnedShares: tokenAmount(vault.shares, receipt.shares),
      returnedValue: tokenAmount(vault.asset, value),
      withdrawalPolicy: withdrawalPolicy(vault, schedule),
      withdrawalLimits: withdrawalLimits(vault, deps.now()),
      withdrawalEstimate: null,
      withdrawalReservation: null,
    },
    ...built,
  };
}
