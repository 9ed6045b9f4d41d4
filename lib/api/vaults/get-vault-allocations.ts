// GET /api/vault/{vault_id}/allocations — idle reserve, funded for the queue, deployed, and the deployed
// assets across the strategies the deployment declares for the vault (read scope).
import { vaultAllocations } from "../../vault/reads/portfolio";
import { partnerEndpoint } from "../endpoint";
import { vaultPathParams } from "../schemas/common";
import { allocationsResponse } from "../schemas/portfolio";
import { noQuery } from "../schemas/vaults";
import { indexedVault } from "./indexed-reads";

export const getAllocations = partnerEndpoint({
  operationId: "getVaultAllocations",
  method: "GET",
  path: "/api/vault/:vault_id/allocations",
  summary: "Where the NAV sits: idle reserve, funded for the queue, deployed (amounts and fractions)",
  scope: "read",
  openToPages: true,
  params: vaultPathParams,
  input: { from: "query", schema: noQuery },
  response: allocationsResponse,
  statuses: [404],
  names: "vault",
  target: (_input, params) => ({ vault: params.vault_id, wallet: null }),
  sample: ({ vault }) => ({ path: `/api/vault/${vault}/allocations` }),
  handler: async ({ params, context }) => {
    const entry = await indexedVault(context, params.vault_id);
    return vaultAllocations(entry.vault, entry.row, context.config.strategies.get(entry.row.vault) ?? []);
  },
});
