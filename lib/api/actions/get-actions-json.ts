// GET /actions.json
import { actionsJson } from "../../actions/vault-actions";
import { actionEndpoint } from "../endpoint";
import { actionsJsonSchema, noActionQuery } from "../schemas/actions";
import { noParams } from "./action-facts";

export const getActionsJson = actionEndpoint({
  operationId: "getActionsJson",
  method: "GET",
  path: "/actions.json",
  summary: "Solana Actions: which site paths have actions",
  params: noParams,
  query: noActionQuery,
  body: undefined,
  response: actionsJsonSchema,
  statuses: [],
  handler: async () => actionsJson(),
});
