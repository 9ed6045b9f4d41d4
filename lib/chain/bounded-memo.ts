// Memoization for pure but costly address math (program-address derivation, curve checks: each a
// SHA-256 plus a point decompression or more). Bounded: the map is dropped when it fills.
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

const base58Texts = new WeakMap<object, string>();

/**
 * `key.toBase58()`, remembered per key object: web3.js re-encodes on every call, and a request
 * touches the same few key objects (memoized wallets, cached vault fields) many times.
 */
export function base58Of(key: { toBase58(): string }): string {
  let text = base58Texts.get(key);
  if (text === undefined) {
    text = key.toBase58();
    base58Texts.set(key, text);
  }
  return text;
}
