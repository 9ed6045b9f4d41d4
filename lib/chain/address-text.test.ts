// isAddressText accepts exactly the texts web3.js's PublicKey writes back unchanged.
import { Keypair, PublicKey } from "@solana/web3.js";
import bs58 from "bs58";
import { describe, expect, it } from "vitest";

import { isAddressText } from "./address-text";

function web3Accepts(text: string): boolean {
  try {
    return new PublicKey(text).toBase58() === text;
  } catch {
    return false;
  }
}

describe("isAddressText", () => {
  const key = Keypair.generate().publicKey.toBase58();
  const cases: [string, string][] = [
    ["a wallet's address", key],
    ["the system program (all zero bytes)", "11111111111111111111111111111111"],
    ["the token program", "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"],
    ["31 bytes", bs58.encode(new Uint8Array(31).fill(7))],
    ["33 bytes", bs58.encode(new Uint8Array(33).fill(7))],
    ["a leading 1 too many (not canonical)", `1${key}`],
    ["a character outside base58 (0)", `0${key.slice(1)}`],
    ["a character outside base58 (l)", `${key.slice(0, -1)}l`],
    ["empty", ""],
    ["spaces around", ` ${key} `],
  ];
  it.each(cases)("%s: as web3.js's PublicKey decides", (_name, text) => {
    expect(isAddressText(text)).toBe(web3Accepts(text));
  });

  it("accepts the addresses and refuses the rest", () => {
    expect(cases.filter(([, text]) => isAddressText(text)).map(([name]) => name)).toEqual([
      "a wallet's address",
      "the system program (all zero bytes)",
      "the token program",
    ]);
  });
});
