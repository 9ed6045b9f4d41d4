// request_withdrawal (the spec's "initiate"): the wallet's shares go into the vault's escrow and a
// receipt (rent paid by the wallet, back at claim or cancel) holds its place in the queue.
import { findReceiptAndBump } from "../program/addresses";
import { WITHDRAWAL_RECEIPT_ACCOUNT_SIZE } from "../program/idl";
import { defineOperation } from "./operation";

export const requestWithdrawal = defineOperation({
  instruction: "request_withdrawal",
  action: "initiate",
  amount: { arg: "shares", token: "shares" },
  feeCapArg: "max_fee_bps",
  takesWithdrawalCap: true,
  rentPaidFor: [WITHDRAWAL_RECEIPT_ACCOUNT_SIZE],
  computeUnits: 20_000,
  // The receipt: find_program_address over the vault and the owner.
  searchedBump: (account) => {
    const vault = account("vault");
    const owner = account("owner");
    return vault === undefined || owner === undefined ? null : findReceiptAndBump(vault, owner).bump;
  },
  event: "WithdrawalRequested",
  activity: (data) => ({
    owner: data.owner,
    requestId: data.requestId,
    assets: data.assets,
    shares: data.shares,
    fee: null,
  }),
  partnerEvent: "withdrawal.requested",
  partnerData: (fields) => ({
    requestId: fields.integer("requestId").toString(),
    shares: fields.shares("shares"),
    estimatedAssets: fields.asset("assets"),
    navFloor: fields.integer("navFloor").toString(),
  }),
});
