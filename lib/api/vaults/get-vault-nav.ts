// GET /api/vault/{vault_id}/nav — share price, total assets and shares, NAV sequence, struck at (read scope).
import { vaultReadEndpoint } from "../endpoint";
import { noQuery, navResponse } from "../schemas/vaults";
import { indexedVault } from "./indexed-reads";

export const getNav = vaultReadEndpoint({
  operationId: "getVaultNav",
  path: "/api/vault/:vault_id/nav",
  summary: "Share price, total assets and shares, NAV sequence and when it was struck",
  query: noQuery,
  response: navResponse,
  handler: async ({ params, context }) => (await indexedVault(context, params.vault_id)).nav,
});
