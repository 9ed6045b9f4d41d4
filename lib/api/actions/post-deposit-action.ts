// POST /api/actions/vault/{vault_id}/deposit
import { prepareDepositAction } from "../../actions/vault-actions";
import { loadVault } from "../../vault/model/vault-state";
import { actionEndpoint } from "../endpoint";
import { actionPostRequest, actionPostResponseSchema, depositActionQuery } from "../schemas/actions";
import { vaultPathParams } from "../schemas/common";

export const postDepositAction = actionEndpoint({
  operationId: "postDepositAction",
  method: "POST",
  path: "/api/actions/vault/:vault_id/deposit",
  summary: "The unsigned v0 deposit transaction for the account (?amount= in the asset's units)",
  params: vaultPathParams,
  query: depositActionQuery,
  body: actionPostRequest,
  response: actionPostResponseSchema,
  statuses: [404, 409, 413, 415, 422],
  handler: async ({ params, query, body, context }) => {
    const vault = await loadVault(context.deps, params.vault_id, "cached");
    return prepareDepositAction(context.deps, { slippageBps: context.config.depositSlippageBps }, vault, {
      vault: params.vault_id,
      account: body.account,
      amount: query.amount,
    });
  },
});
