// GET /api/actions/vault/{vault_id}/cancel
import { cancelActionMetadata } from "../../actions/vault-actions";
import { actionEndpoint } from "../endpoint";
import { actionGetResponseSchema, noActionQuery } from "../schemas/actions";
import { vaultPathParams } from "../schemas/common";
import { vaultFacts } from "./action-facts";

export const getCancelAction = actionEndpoint({
  operationId: "getCancelAction",
  method: "GET",
  path: "/api/actions/vault/:vault_id/cancel",
  summary: "Cancel action: the account's pending withdrawal request, its shares back",
  params: vaultPathParams,
  query: noActionQuery,
  body: undefined,
  response: actionGetResponseSchema,
  statuses: [404],
  handler: async ({ params, context, origin }) =>
    cancelActionMetadata(await vaultFacts(context, params.vault_id), { origin }),
});
