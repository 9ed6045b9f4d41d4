// POST /api/actions/vault/{vault_id}/cancel
import { prepareWithdrawalAction } from "../../actions/vault-actions";
import { actionEndpoint } from "../endpoint";
import { actionPostRequest, actionPostResponseSchema, noActionQuery } from "../schemas/actions";
import { vaultPathParams } from "../schemas/common";
import { schedule } from "./action-facts";

export const postCancelAction = actionEndpoint({
  operationId: "postCancelAction",
  method: "POST",
  path: "/api/actions/vault/:vault_id/cancel",
  summary: "The unsigned v0 cancel of the account's pending withdrawal (409 when nothing is pending)",
  params: vaultPathParams,
  query: noActionQuery,
  body: actionPostRequest,
  response: actionPostResponseSchema,
  statuses: [404, 409, 413, 415, 422],
  handler: async ({ params, body, context }) =>
    prepareWithdrawalAction(context.deps, schedule(context), "cancel", {
      vault: params.vault_id,
      account: body.account,
    }),
});
