// GET /api/vault/{vault_id} — one vault in full: summary, withdrawal policy and current limits (read scope).
import { vaultDetail } from "../../vault/reads/directory";
import { partnerEndpoint } from "../endpoint";
import { vaultPathParams } from "../schemas/common";
import { noQuery, vaultResponse } from "../schemas/vaults";
import { indexedVault } from "./indexed-reads";

export const getVault = partnerEndpoint({
  operationId: "getVault",
  method: "GET",
  path: "/api/vault/:vault_id",
  summary: "One vault in full, with its withdrawal policy and current limits",
  scope: "read",
  openToPages: true,
  params: vaultPathParams,
  input: { from: "query", schema: noQuery },
  response: vaultResponse,
  statuses: [404],
  names: "vault",
  target: (_input, params) => ({ vault: params.vault_id, wallet: null }),
  sample: ({ vault }) => ({ path: `/api/vault/${vault}` }),
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
