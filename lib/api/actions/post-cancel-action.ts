// POST /api/actions/vault/{vault_id}/cancel
import { prepareWithdrawalAction } from "../../actions/vault-actions";
import { noActionQuery } from "../schemas/actions";
import { schedule, vaultActionPost } from "./action-facts";

export const postCancelAction = vaultActionPost({
  operationId: "postCancelAction",
  kind: "cancel",
  summary: "The unsigned v0 cancel of the account's pending withdrawal (409 when nothing is pending)",
  query: noActionQuery,
  prepare: ({ vault, account, context }) =>
    prepareWithdrawalAction(context.deps, schedule(context), "cancel", { vault, account }),
});
