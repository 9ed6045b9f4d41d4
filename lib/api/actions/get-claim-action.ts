// GET /api/actions/vault/{vault_id}/claim
import { claimActionMetadata } from "../../actions/vault-actions";
import { noActionQuery } from "../schemas/actions";
import { vaultActionGet } from "./action-facts";

export const getClaimAction = vaultActionGet({
  operationId: "getClaimAction",
  kind: "claim",
  summary: "Claim action",
  query: noActionQuery,
  metadata: claimActionMetadata,
});
