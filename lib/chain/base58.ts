// Base58 text of public keys, encoded once per key object. (The check of an address's text is in
// address-text.ts: it loads bs58, which the typed client's bundle does not need.)

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
