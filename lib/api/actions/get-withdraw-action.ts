// GET /api/actions/vault/{vault_id}/withdraw
import { withdrawActionMetadata } from "../../actions/vault-actions";
import { actionEndpoint } from "../endpoint";
import { actionGetResponseSchema, withdrawActionQuery } from "../schemas/actions";
import { vaultPathParams } from "../schemas/common";
import { vaultFacts } from "./action-facts";

export const getWithdrawAction = actionEndpoint({
  operationId: "getWithdrawAction",
  method: "GET",
  path: "/api/actions/vault/:vault_id/withdraw",
  summary: "Withdraw action: by value or by shares (?amount= or ?shares= offers that amount first)",
  params: vaultPathParams,
  query: withdrawActionQuery,
  body: undefined,
  response: actionGetResponseSchema,
  statuses: [404],
  handler: async ({ params, query, context, origin }) =>
    withdrawActionMetadata(
      await vaultFacts(context, params.vault_id),
      { origin },
      { amount: query.amount, shares: query.shares },
    ),
});
