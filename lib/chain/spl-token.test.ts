// Associated token addresses (kept by mint and owner, least recently used dropped first) and the
// amount read from token accounts.
import { Keypair, PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { LruMap } from "./bounded-memo";
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  TOKEN_ACCOUNT_SIZE,
  TOKEN_PROGRAM_ID,
  findAssociatedTokenAddress,
  tokenAccountAmount,
} from "./spl-token";

const key = (): PublicKey => Keypair.generate().publicKey;

function derived(owner: PublicKey, mint: PublicKey): PublicKey {
  const [address] = PublicKey.findProgramAddressSync(
    [owner.toBuffer(), TOKEN_PROGRAM_ID.toBuffer(), mint.toBuffer()],
    ASSOCIATED_TOKEN_PROGRAM_ID,
  );
  return address;
}

describe("associated token addresses", () => {
  it("are the program-derived address of (owner, token program, mint), for each pair", () => {
    const [ownerA, ownerB, mintA, mintB] = [key(), key(), key(), key()];
    for (const [owner, mint] of [
      [ownerA, mintA],
      [ownerA, mintB],
      [ownerB, mintA],
      [ownerB, mintB],
    ] as const) {
      expect(findAssociatedTokenAddress(owner, mint).equals(derived(owner, mint))).toBe(true);
    }
  });

  it("are the same whichever key object names the owner and mint", () => {
    const owner = key();
    const mint = key();
    const first = findAssociatedTokenAddress(owner, mint);
    expect(
      first.equals(
        findAssociatedTokenAddress(new PublicKey(owner.toBase58()), new PublicKey(mint.toBytes())),
      ),
    ).toBe(true);
    expect(findAssociatedTokenAddress(owner, mint)).toBe(first);
  });
});

describe("LruMap", () => {
  it("keeps at most maxEntries, dropping the least recently used", () => {
    const map = new LruMap<string, number>(2);
    map.set("a", 1);
    map.set("b", 2);
    expect(map.get("a")).toBe(1);
    map.set("c", 3);
    expect(map.size).toBe(2);
    expect(map.get("b")).toBeUndefined();
    expect([map.get("a"), map.get("c")]).toEqual([1, 3]);
    map.set("a", 10);
    map.set("d", 4);
    expect([map.get("a"), map.get("c"), map.get("d")]).toEqual([10, undefined, 4]);
  });
});

describe("tokenAccountAmount", () => {
  const account = (amount: bigint, state = 1): Uint8Array => {
    const data = new Uint8Array(TOKEN_ACCOUNT_SIZE);
    new DataView(data.buffer).setBigUint64(64, amount, true);
    data[108] = state;
    return data;
  };

  it("reads the amount of an initialized token account", () => {
    expect(tokenAccountAmount(TOKEN_PROGRAM_ID, account(18_446_744_073_709_551_615n))).toBe(
      18_446_744_073_709_551_615n,
    );
  });

  it("is null for another program's account, another size or an uninitialized account", () => {
    expect(tokenAccountAmount(key(), account(5n))).toBeNull();
    expect(tokenAccountAmount(TOKEN_PROGRAM_ID, new Uint8Array(TOKEN_ACCOUNT_SIZE + 1))).toBeNull();
    expect(tokenAccountAmount(TOKEN_PROGRAM_ID, account(5n, 0))).toBeNull();
  });
});
