// GET /api/vault/{vault_id}/allocations — idle reserve, funded for the queue, deployed, and the deployed
// assets across the strategies the deployment declares for the vault (read scope).
import { vaultAllocations } from "../../vault/reads/portfolio";
import { vaultReadEndpoint } from "../endpoint";
import { allocationsResponse } from "../schemas/portfolio";
import { noQuery } from "../schemas/vaults";
import { indexedVault } from "./indexed-reads";

export const getAllocations = vaultReadEndpoint({
  operationId: "getVaultAllocations",
  path: "/api/vault/:vault_id/allocations",
  summary: "Where the NAV sits: idle reserve, funded for the queue, deployed (amounts and fractions)",
  query: noQuery,
  response: allocationsResponse,
  handler: async ({ params, context }) => {
    const entry = await indexedVault(context, params.vault_id);
    return vaultAllocations(entry.vault, entry.row, context.config.strategies.get(entry.row.vault) ?? []);
  },
});
