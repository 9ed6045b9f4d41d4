// Resolving a bearer secret to its key: by SHA-256 hash, through a short cache (a revocation takes
// effect within KEY_CACHE_SECONDS everywhere, at once in the instance that revoked), and noting
// last use at most once a minute per key, off the request path.
import { hashApiKey, type ApiKeyRecord, type ApiKeyStore } from "../store/api-keys";
import { SingleFlightCache } from "./single-flight-cache";

const LAST_USED_INTERVAL_MS = 60_000;

export class KeyResolver {
  private readonly cache: SingleFlightCache<ApiKeyRecord | null>;
  private readonly lastTouched = new Map<string, number>();

  constructor(
    private readonly store: ApiKeyStore,
    cacheSeconds: number,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.cache = new SingleFlightCache(cacheSeconds * 1000, 10_000);
  }

  resolve(secret: string): Promise<ApiKeyRecord | null> {
    const hash = hashApiKey(secret);
    return this.cache.get(hash, () => this.store.findByHash(hash));
  }

  forget(secret: string): void {
    this.cache.delete(hashApiKey(secret));
  }

  noteUse(key: ApiKeyRecord, now = Date.now()): void {
    const last = this.lastTouched.get(key.id) ?? 0;
    if (now - last < LAST_USED_INTERVAL_MS) {
      return;
    }
    this.lastTouched.set(key.id, now);
    this.store.touchLastUsed(key.id, new Date(now)).catch(this.onError);
  }
}
