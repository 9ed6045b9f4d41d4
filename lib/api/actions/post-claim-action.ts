// POST /api/actions/vault/{vault_id}/claim
import { prepareWithdrawalAction } from "../../actions/vault-actions";
import { noActionQuery } from "../schemas/actions";
import { schedule, vaultActionPost } from "./action-facts";

export const postClaimAction = vaultActionPost({
  operationId: "postClaimAction",
  kind: "claim",
  summary: "The unsigned v0 claim of the account's pending withdrawal (409 when nothing is claimable)",
  query: noActionQuery,
  prepare: ({ vault, account, context }) =>
    prepareWithdrawalAction(context.deps, schedule(context), "claim", { vault, account }),
});
