// The check of an address's text without web3.js (the CLIs that only parse the environment start
// faster), apart from base58.ts so the typed client's bundle does not carry bs58.
import bs58 from "bs58";

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
