// POST /api/actions/vault/{vault_id}/cancel
import { pendingWithdrawalActionPost } from "./action-facts";

export const postCancelAction = pendingWithdrawalActionPost({
  operationId: "postCancelAction",
  kind: "cancel",
  summary: "The unsigned v0 cancel of the account's pending withdrawal (409 when nothing is pending)",
});
