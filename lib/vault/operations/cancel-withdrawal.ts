// cancel_withdrawal: a pending request's escrowed shares come back to the owner's share account
// (re-opened if it was closed), less the receipt's fee in shares, which the program burns (a cancel
// costs what an honest exit costs), and the request leaves the queue. It moves no asset. The first
// cancel that leaves a hole in the queue creates the vault's hole list, whose rent the wallet pays; it
// comes back to that wallet once staging has passed every hole (close_queue_holes, which the keeper
// sends when it sees the list empty).
import { findQueueHolesAndBump } from "../program/addresses";
import { QUEUE_HOLES_ACCOUNT_SIZE } from "../program/idl";
import { defineOperation } from "./operation";

export const cancelWithdrawal = defineOperation({
  instruction: "cancel_withdrawal",
  action: "cancel",
  createdTokenAccount: "shares",
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
  // The shares that came back; the burned fee shares are the cancel's fee (in shares, not assets).
  activity: (data) => ({
    owner: data.owner,
    requestId: data.requestId,
    assets: 0n,
    shares: data.shares - data.feeShares,
    fee: null,
  }),
  partnerEvent: "withdrawal.cancelled",
  // Back in the owner's wallet from the escrow (the escrowed shares less the burned fee); the request
  // left the queue.
  partnerData: (fields) => ({
    requestId: fields.integer("requestId").toString(),
    shares: fields.sharesOf(fields.integer("shares") - fields.integer("feeShares")),
    feeShares: fields.shares("feeShares"),
  }),
});
