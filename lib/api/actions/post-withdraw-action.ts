// POST /api/actions/vault/{vault_id}/withdraw
import { prepareWithdrawAction } from "../../actions/vault-actions";
import { loadVault } from "../../vault/model/vault-state";
import { actionEndpoint } from "../endpoint";
import { actionPostRequest, actionPostResponseSchema, withdrawActionQuery } from "../schemas/actions";
import { vaultPathParams } from "../schemas/common";
import { schedule } from "./action-facts";

export const postWithdrawAction = actionEndpoint({
  operationId: "postWithdrawAction",
  method: "POST",
  path: "/api/actions/vault/:vault_id/withdraw",
  summary:
    "The unsigned v0 withdrawal request (?amount= value, or ?shares=); gross, fee and net in the message",
  params: vaultPathParams,
  query: withdrawActionQuery,
  body: actionPostRequest,
  response: actionPostResponseSchema,
  statuses: [404, 409, 413, 415, 422],
  handler: async ({ params, query, body, context }) => {
    const vault = await loadVault(context.deps, params.vault_id, "cached");
    return prepareWithdrawAction(context.deps, schedule(context), vault, {
      vault: params.vault_id,
      account: body.account,
      amount: query.amount,
      shares: query.shares,
    });
  },
});
