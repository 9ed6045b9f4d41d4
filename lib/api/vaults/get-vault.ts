// GET /api/vault/{vault_id} — one vault in full: summary, withdrawal policy and current limits (read scope).
import { vaultDetail } from "../../vault/directory";
import { withPartnerKey } from "../partner";
import { vaultPathParams } from "../schemas/common";
import { noQuery } from "../schemas/vaults";
import { indexedVault } from "./indexed-reads";

export const getVault = withPartnerKey(
  async ({ params, context }) => {
    const entry = await indexedVault(context, params.vault_id);
    return {
      vault: vaultDetail(
        entry.vault,
        entry.row,
        entry.apy,
        {
          navIntervalSeconds: context.config.navIntervalSeconds,
          stageIntervalSeconds: context.config.stageIntervalSeconds,
        },
        context.deps.now(),
      ),
    };
  },
  {
    scope: "read",
    params: vaultPathParams,
    input: { from: "query", schema: noQuery },
    target: (_input, params) => ({ vault: params.vault_id, wallet: null }),
  },
);
