// GET /api/actions/vault/{vault_id}/deposit
import { depositActionMetadata } from "../../actions/vault-actions";
import { actionEndpoint } from "../endpoint";
import { actionGetResponseSchema, depositActionQuery } from "../schemas/actions";
import { vaultPathParams } from "../schemas/common";
import { vaultFacts } from "./action-facts";

export const getDepositAction = actionEndpoint({
  operationId: "getDepositAction",
  method: "GET",
  path: "/api/actions/vault/:vault_id/deposit",
  summary: "Deposit action: share price, APY, fixed amounts (or ?amount='s) and an {amount} field",
  params: vaultPathParams,
  query: depositActionQuery,
  body: undefined,
  response: actionGetResponseSchema,
  statuses: [404],
  handler: async ({ params, query, context, origin }) =>
    depositActionMetadata(await vaultFacts(context, params.vault_id), { origin }, { amount: query.amount }),
});
