// GET /api/vault/{vault_id} — one vault in full: summary, withdrawal policy and current limits (read scope).
import { vaultDetail } from "../../vault/reads/directory";
import { vaultReadEndpoint } from "../endpoint";
import { noQuery, vaultResponse } from "../schemas/vaults";
import { indexedVault } from "./indexed-reads";

export const getVault = vaultReadEndpoint({
  operationId: "getVault",
  path: "/api/vault/:vault_id",
  summary: "One vault in full, with its withdrawal policy and current limits",
  query: noQuery,
  response: vaultResponse,
  handler: async ({ params, context }) => {
    const entry = await indexedVault(context, params.vault_id);
    return {
      vault: vaultDetail(
        entry,
        {
          navIntervalSeconds: context.config.navIntervalSeconds,
          stageIntervalSeconds: context.config.stageIntervalSeconds,
        },
        context.deps.now(),
      ),
    };
  },
});
