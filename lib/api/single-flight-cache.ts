// A small TTL cache whose misses are loaded once however many callers ask at the same time.
export class SingleFlightCache<V> {
  private readonly values = new Map<string, { value: V; at: number }>();
  private readonly loading = new Map<string, Promise<V>>();
  /** Bumped by clear(): a load started before it is not kept. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1_000,
    private readonly now: () => number = Date.now,
  ) {}

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const cached = this.values.get(key);
    if (cached !== undefined && this.now() - cached.at < this.ttlMs) {
      return cached.value;
    }
    let pending = this.loading.get(key);
    if (pending === undefined) {
      const generation = this.generation;
      const loaded = load()
        .then((value) => {
          if (generation === this.generation) {
            if (this.values.size >= this.maxEntries) {
              this.values.clear();
            }
            this.values.set(key, { value, at: this.now() });
          }
          return value;
        })
        .finally(() => {
          if (this.loading.get(key) === loaded) {
            this.loading.delete(key);
          }
        });
      this.loading.set(key, loaded);
      pending = loaded;
    }
    return pending;
  }

  /** Forgets every value and pending load (loads already running still answer their callers). */
  clear(): void {
    this.generation += 1;
    this.values.clear();
    this.loading.clear();
  }

  delete(key: string): void {
    this.values.delete(key);
  }
}
