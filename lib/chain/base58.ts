// Base58 text of public keys, encoded once per key object, and the check of an address's text.
import bs58 from "bs58";

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

/**
 * Whether `text` is an address as Solana writes it: the base58 of exactly 32 bytes, in its one
 * canonical form (what `new PublicKey(text).toBase58() === text` checks, without loading web3.js, so
 * the CLIs that only parse the environment start faster).
 */
export function isAddressText(text: string): boolean {
  let bytes: Uint8Array;
  try {
    bytes = bs58.decode(text);
  } catch {
    return false;
  }
  return bytes.length === 32 && bs58.encode(bytes) === text;
}
