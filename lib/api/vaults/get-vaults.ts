// GET /api/vaults — every vault of the program this deployment serves (read scope; a key restricted to
// vaults sees those).
import { vaultSummary } from "../../vault/directory";
import { withPartnerKey } from "../partner";
import { noQuery } from "../schemas/vaults";
import { indexedVaults, keyAllowsVault } from "./indexed-reads";

export const getVaults = withPartnerKey(
  async ({ context, principal }) => ({
    vaults: (await indexedVaults(context))
      .filter((entry) => keyAllowsVault(principal.vaults, entry.row.vault))
      .map((entry) => vaultSummary(entry.vault, entry.row, entry.apy)),
  }),
  { scope: "read", input: { from: "query", schema: noQuery }, target: () => ({ vault: null, wallet: null }) },
);
