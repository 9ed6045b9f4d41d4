// GET /api/vault/{vault_id}/stats — TVL, depositors, APY 7d/30d (fractions), queue, staged so far, the
// average time from request to claimable over 30 days and the first NAV strike (read scope).
import { vaultStats, type VaultStatsReads } from "../../vault/reads/directory";
import type { ApiContext } from "../context";
import { vaultReadEndpoint } from "../endpoint";
import { noQuery, statsResponse } from "../schemas/vaults";
import { indexedVault } from "./indexed-reads";

const WINDOW_SECONDS = 30 * 86_400;

/**
 * The 30-day average from the database's aggregate, not from 30 days of events loaded per request,
 * and the first strike from one index lookup.
 */
function statsReads(context: ApiContext, vault: string, nowMs: number): Promise<VaultStatsReads> {
  return context.chainData.vaultStats.get(vault, async () => {
    const store = context.store.indexer;
    const [averageSecondsToClaimable30d, firstStrike] = await Promise.all([
      store.averageSecondsToClaimable(vault, Math.floor(nowMs / 1000) - WINDOW_SECONDS),
      store.firstNavStrike(vault),
    ]);
    return { averageSecondsToClaimable30d, firstNavAt: firstStrike?.takenAt ?? null };
  });
}

export const getStats = vaultReadEndpoint({
  operationId: "getVaultStats",
  path: "/api/vault/:vault_id/stats",
  summary: "TVL, depositors, APY over 7 and 30 days (fractions), queue and staging, time to claimable",
  query: noQuery,
  response: statsResponse,
  handler: async ({ params, context }) => {
    const entry = await indexedVault(context, params.vault_id);
    const now = context.deps.now();
    return vaultStats(entry, await statsReads(context, entry.row.vault, now));
  },
});
