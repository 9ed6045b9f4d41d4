// Memoization for pure but costly address math (program-address derivation, curve checks: each a
// SHA-256 plus a point decompression or more). Bounded: the map is dropped when it fills; LruMap, for
// values worth keeping, drops only its least recently used entry.
export function boundedMemo<V>(compute: (key: string) => V, maxEntries = 50_000): (key: string) => V {
  const values = new Map<string, V>();
  return (key) => {
    const known = values.get(key);
    if (known !== undefined || values.has(key)) {
      return known as V;
    }
    const value = compute(key);
    if (values.size >= maxEntries) {
      values.clear();
    }
    values.set(key, value);
    return value;
  };
}

/**
 * A map that keeps its `maxEntries` most recently used entries (a Map iterates in insertion order, so
 * a hit is moved to the end and the first entry is the least recently used).
 */
export class LruMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) {
        this.entries.delete(oldest.value);
      }
    }
  }
}
