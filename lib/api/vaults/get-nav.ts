// GET /api/vault/{vault_id}/nav — share price, total assets and shares, NAV sequence, struck at (read scope).
import { vaultNav } from "../../vault/directory";
import { withPartnerKey } from "../partner";
import { vaultPathParams } from "../schemas/common";
import { noQuery } from "../schemas/vaults";
import { indexedVault } from "./indexed-reads";

export const getNav = withPartnerKey(
  async ({ params, context }) => vaultNav((await indexedVault(context, params.vault_id)).vault),
  {
    scope: "read",
    params: vaultPathParams,
    input: { from: "query", schema: noQuery },
    target: (_input, params) => ({ vault: params.vault_id, wallet: null }),
  },
);
