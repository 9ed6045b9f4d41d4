// Caches of chain data kept per API context (directory reads, stats, portfolios): each context gets
// its own, emptied when the context's chain changes (a new genesis hash), so a restarted local chain
// is never answered with the previous chain's values.
import type { ApiContext } from "./context";
import { SingleFlightCache } from "./single-flight-cache";

/** A getter of the context's cache, created on first use and cleared on each genesis change. */
export function chainDataCache<V>(ttlMs: number): (context: ApiContext) => SingleFlightCache<V> {
  const caches = new WeakMap<ApiContext, SingleFlightCache<V>>();
  return (context) => {
    const existing = caches.get(context);
    if (existing !== undefined) {
      return existing;
    }
    const cache = new SingleFlightCache<V>(ttlMs);
    context.genesis.onChange(() => cache.clear());
    caches.set(context, cache);
    return cache;
  };
}
