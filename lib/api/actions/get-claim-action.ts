// GET /api/actions/vault/{vault_id}/claim
import { claimActionMetadata } from "../../actions/vault-actions";
import { actionEndpoint } from "../endpoint";
import { actionGetResponseSchema, noActionQuery } from "../schemas/actions";
import { vaultPathParams } from "../schemas/common";
import { vaultFacts } from "./action-facts";

export const getClaimAction = actionEndpoint({
  operationId: "getClaimAction",
  method: "GET",
  path: "/api/actions/vault/:vault_id/claim",
  summary: "Claim action",
  params: vaultPathParams,
  query: noActionQuery,
  body: undefined,
  response: actionGetResponseSchema,
  statuses: [404],
  handler: async ({ params, context, origin }) =>
    claimActionMetadata(await vaultFacts(context, params.vault_id), { origin }),
});
