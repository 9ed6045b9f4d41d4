// claim_withdrawal: a funded request pays its net (gross less the fee it accepted) into the owner's
// asset account, created if it has none; the receipt closes and its rent goes back. Anyone may send it
// (the keeper delivers claimable withdrawals): it pays only the owner.
import { defineOperation } from "./operation";

export const claimWithdrawal = defineOperation({
  instruction: "claim_withdrawal",
  action: "claim",
  createdTokenAccount: "asset",
  computeUnits: 40_000,
  event: "WithdrawalClaimed",
  activity: (data) => ({
    owner: data.owner,
    requestId: data.requestId,
    assets: data.net,
    shares: data.shares,
    fee: data.fee,
  }),
  partnerEvent: "withdrawal.claimed",
  partnerData: (fields) => ({
    requestId: fields.integer("requestId").toString(),
    shares: fields.shares("shares"),
    gross: fields.asset("gross"),
    fee: fields.asset("fee"),
    net: fields.asset("net"),
    // Who delivered it when the owner did not send it (the keeper, or anyone); null for the owner's claim.
    deliveredBy: fields.deliveredBy,
  }),
});
