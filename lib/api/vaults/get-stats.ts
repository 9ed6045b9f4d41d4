// GET /api/vault/{vault_id}/stats — TVL, depositors, APY 7d/30d (fractions), queue, staged so far and
// the average time from request to claimable over 30 days (read scope).
import { indexerStoreOf } from "../../indexer/start";
import { vaultStats } from "../../vault/directory";
import type { ApiContext } from "../context";
import { withPartnerKey } from "../partner";
import { vaultPathParams } from "../schemas/common";
import { noQuery } from "../schemas/vaults";
import { SingleFlightCache } from "../single-flight-cache";
import { indexedVault } from "./indexed-reads";

const WINDOW_SECONDS = 30 * 86_400;
// The average moves only when a request becomes claimable; the directory's rows are cached as long.
const CACHE_MS = 2_000;

const caches = new WeakMap<ApiContext, SingleFlightCache<number | null>>();

/** The 30-day average from the database's aggregate, not from 30 days of events loaded per request. */
function averageSecondsToClaimable(
  context: ApiContext,
  vault: string,
  nowMs: number,
): Promise<number | null> {
  let cache = caches.get(context);
  if (cache === undefined) {
    cache = new SingleFlightCache<number | null>(CACHE_MS);
    caches.set(context, cache);
  }
  return cache.get(vault, () =>
    indexerStoreOf(context).averageSecondsToClaimable(vault, Math.floor(nowMs / 1000) - WINDOW_SECONDS),
  );
}

export const getStats = withPartnerKey(
  async ({ params, context }) => {
    const entry = await indexedVault(context, params.vault_id);
    const now = context.deps.now();
    return vaultStats(
      entry.vault,
      entry.row,
      entry.apy,
      await averageSecondsToClaimable(context, entry.row.vault, now),
    );
  },
  {
    scope: "read",
    params: vaultPathParams,
    input: { from: "query", schema: noQuery },
    target: (_input, params) => ({ vault: params.vault_id, wallet: null }),
  },
);
