// POST /api/actions/vault/{vault_id}/confirm
import { completeAction } from "../../actions/vault-actions";
import { actionEndpoint } from "../endpoint";
import { actionCallbackRequest, completedActionSchema, noActionQuery } from "../schemas/actions";
import { vaultPathParams } from "../schemas/common";

export const postConfirmAction = actionEndpoint({
  operationId: "postConfirmAction",
  method: "POST",
  path: "/api/actions/vault/:vault_id/confirm",
  summary: "Every action's links.next: verifies and records the signature as POST /api/history does",
  params: vaultPathParams,
  query: noActionQuery,
  body: actionCallbackRequest,
  response: completedActionSchema,
  statuses: [404, 409, 413, 415, 422],
  handler: async ({ params, body, context, origin }) =>
    completeAction(
      context.deps,
      context.store.history,
      { origin },
      { vault: params.vault_id, account: body.account, signature: body.signature },
    ),
});
