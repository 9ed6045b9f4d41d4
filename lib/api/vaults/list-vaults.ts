// GET /api/vaults — every vault of the program this deployment serves (read scope; a key restricted to
// vaults sees those).
import { vaultSummary } from "../../vault/reads/directory";
import { partnerEndpoint } from "../endpoint";
import { noQuery, vaultsResponse } from "../schemas/vaults";
import { indexedVaults, keyAllowsVault } from "./indexed-reads";

export const getVaults = partnerEndpoint({
  operationId: "listVaults",
  method: "GET",
  path: "/api/vaults",
  summary: "Every vault of the program: tokens, share price, TVL, APY, caps, paused",
  scope: "read",
  openToPages: true,
  input: { from: "query", schema: noQuery },
  response: vaultsResponse,
  statuses: [],
  names: "nothing",
  handler: async ({ context, principal }) => ({
    vaults: (await indexedVaults(context))
      .filter((entry) => keyAllowsVault(principal.vaults, entry.row.vault))
      .map((entry) => vaultSummary(entry)),
  }),
});
