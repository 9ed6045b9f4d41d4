// GET /api/actions/vault/{vault_id}/cancel
import { cancelActionMetadata } from "../../actions/vault-actions";
import { noActionQuery } from "../schemas/actions";
import { vaultActionGet } from "./action-facts";

export const getCancelAction = vaultActionGet({
  operationId: "getCancelAction",
  kind: "cancel",
  summary: "Cancel action: the account's pending withdrawal request, its shares back",
  query: noActionQuery,
  metadata: cancelActionMetadata,
});
