// GET /api/vault/{vault_id}/nav — share price, total assets and shares, NAV sequence, struck at (read scope).
import { partnerEndpoint } from "../endpoint";
import { vaultPathParams } from "../schemas/common";
import { noQuery, navResponse } from "../schemas/vaults";
import { indexedVault } from "./indexed-reads";

export const getNav = partnerEndpoint({
  operationId: "getVaultNav",
  method: "GET",
  path: "/api/vault/:vault_id/nav",
  summary: "Share price, total assets and shares, NAV sequence and when it was struck",
  scope: "read",
  openToPages: true,
  params: vaultPathParams,
  input: { from: "query", schema: noQuery },
  response: navResponse,
  statuses: [404],
  names: "vault",
  target: (_input, params) => ({ vault: params.vault_id, wallet: null }),
  sample: ({ vault }) => ({ path: `/api/vault/${vault}/nav` }),
  handler: async ({ params, context }) => (await indexedVault(context, params.vault_id)).nav,
});
