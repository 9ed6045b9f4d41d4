// POST /api/actions/vault/{vault_id}/claim
import { pendingWithdrawalActionPost } from "./action-facts";

export const postClaimAction = pendingWithdrawalActionPost({
  operationId: "postClaimAction",
  kind: "claim",
  summary: "The unsigned v0 claim of the account's pending withdrawal (409 when nothing is claimable)",
});
