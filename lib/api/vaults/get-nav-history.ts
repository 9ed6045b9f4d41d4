// GET /api/vault/{vault_id}/nav-history?from=&to=&interval= — the share price series from the
// indexer's NAV strikes: at each point the newest NAV struck at or before it, and the rise since the
// last strike that exit fees kept by the holders explain (read scope).
import { navHistoryPoints } from "../../vault/reads/directory";
import { feesKeptSinceStrike } from "../../vault/model/fees-kept";
import { sharePrice } from "../../vault/model/share-math";
import { vaultReadEndpoint } from "../endpoint";
import { MAX_SERIES_POINTS, navHistoryQuery, navHistoryResponse } from "../schemas/position-history";
import { indexedVault } from "./indexed-reads";
import { resolveSeriesWindow, seriesFields } from "./series-window";

export const getNavHistory = vaultReadEndpoint({
  operationId: "getNavHistory",
  path: "/api/vault/:vault_id/nav-history",
  summary: `The share price series from the indexed NAV strikes: at each point the NAV struck at or before it; at most ${MAX_SERIES_POINTS} points`,
  query: navHistoryQuery,
  response: navHistoryResponse,
  sampleQuery: "interval=hour",
  handler: async ({ input, params, context }) => {
    const window = resolveSeriesWindow(input, context.deps.now());
    const entry = await indexedVault(context, params.vault_id);
    // One round trip: the window's strikes and, last, the strike in force now.
    const strikes = await context.store.indexer.navAt(entry.row.vault, [
      ...window.timestamps.map((ms) => new Date(ms)),
      new Date(context.deps.now()),
    ]);
    const current = strikes.at(-1) ?? null;
    const kept =
      current === null
        ? null
        : feesKeptSinceStrike(
            {
              time: (current.navUpdatedAt ?? current.takenAt).getTime() / 1000,
              sharePrice: sharePrice(current.totalAssets, current.totalShares),
            },
            entry.view.sharePrice,
          );
    return {
      ...seriesFields(entry.row.vault, window),
      points: navHistoryPoints(entry.vault, window.timestamps, strikes.slice(0, -1)),
      feesKeptSinceLastStrike:
        kept === null
          ? null
          : {
              since: new Date(kept.since * 1000).toISOString(),
              fromSharePrice: kept.from,
              toSharePrice: kept.to,
              change: kept.change,
            },
    };
  },
});
