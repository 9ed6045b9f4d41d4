// GET /api/vault/{vault_id}/allocations — idle reserve, funded for the queue, deployed, and the deployed
// assets across the strategies the deployment declares for the vault (read scope).
import { vaultAllocations } from "../../vault/portfolio";
import { withPartnerKey } from "../partner";
import { vaultPathParams } from "../schemas/common";
import { noQuery } from "../schemas/vaults";
import { indexedVault } from "./indexed-reads";

export const getAllocations = withPartnerKey(
  async ({ params, context }) => {
    const entry = await indexedVault(context, params.vault_id);
    return vaultAllocations(entry.vault, entry.row, context.config.strategies.get(entry.row.vault) ?? []);
  },
  {
    scope: "read",
    params: vaultPathParams,
    input: { from: "query", schema: noQuery },
    target: (_input, params) => ({ vault: params.vault_id, wallet: null }),
  },
);
