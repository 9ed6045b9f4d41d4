// GET /api/vault/{vault_id}/nav-history?from=&to=&interval= — the share price series from the
// indexer's NAV strikes: at each point the newest NAV struck at or before it (read scope).
import { navHistoryPoints } from "../../vault/reads/directory";
import { partnerEndpoint } from "../endpoint";
import { vaultPathParams } from "../schemas/common";
import { MAX_SERIES_POINTS, navHistoryQuery, navHistoryResponse } from "../schemas/position-history";
import { indexedVault } from "./indexed-reads";
import { resolveSeriesWindow, seriesFields } from "./series-window";

export const getNavHistory = partnerEndpoint({
  operationId: "getNavHistory",
  method: "GET",
  path: "/api/vault/:vault_id/nav-history",
  summary: `The share price series from the indexed NAV strikes: at each point the NAV struck at or before it; at most ${MAX_SERIES_POINTS} points`,
  scope: "read",
  openToPages: true,
  params: vaultPathParams,
  input: { from: "query", schema: navHistoryQuery },
  response: navHistoryResponse,
  statuses: [404],
  names: "vault",
  target: (_input, params) => ({ vault: params.vault_id, wallet: null }),
  sample: ({ vault }) => ({ path: `/api/vault/${vault}/nav-history?interval=hour` }),
  handler: async ({ input, params, context }) => {
    const window = resolveSeriesWindow(input, context.deps.now());
    const entry = await indexedVault(context, params.vault_id);
    const navAt = await context.store.indexer.navAt(
      entry.row.vault,
      window.timestamps.map((ms) => new Date(ms)),
    );
    return {
      ...seriesFields(entry.row.vault, window),
      points: navHistoryPoints(entry.vault, window.timestamps, navAt),
    };
  },
});
