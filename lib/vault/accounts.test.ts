import { Keypair } from "@solana/web3.js";
import BN from "bn.js";
import { describe, expect, it } from "vitest";

import { decodeReceipt, decodeVault } from "./accounts";
import { WITHDRAWAL_RECEIPT_ACCOUNT_SIZE, vaultCoder } from "./idl";

async function encodedReceipt(): Promise<Buffer> {
  return vaultCoder.accounts.encode("WithdrawalReceipt", {
    vault: Keypair.generate().publicKey,
    owner: Keypair.generate().publicKey,
    shares: new BN("18446744073709551615"),
    assets_at_request: new BN(2),
    nav_floor: new BN(3),
    request_id: new BN(4),
    requested_at: new BN(-5),
    queue_start: new BN(6),
    queue_end: new BN(7),
    bump: 254,
  });
}

describe("account decoders", () => {
  it("decode u64 and i64 fields to exact bigints and names fields in camelCase", async () => {
    const receipt = decodeReceipt(await encodedReceipt());
    expect(receipt).toMatchObject({
      shares: 18_446_744_073_709_551_615n,
      assetsAtRequest: 2n,
      navFloor: 3n,
      requestId: 4n,
      requestedAt: -5n,
      queueStart: 6n,
      queueEnd: 7n,
      bump: 254,
    });
  });

  it("refuse data of the wrong size, even with the right discriminator", async () => {
    const data = await encodedReceipt();
    expect(data.length).toBe(WITHDRAWAL_RECEIPT_ACCOUNT_SIZE);
    expect(() => decodeReceipt(Buffer.concat([data, Buffer.alloc(1)]))).toThrow(/129 bytes, got 130/);
    expect(() => decodeReceipt(data.subarray(0, -1))).toThrow(/129 bytes, got 128/);
  });

  it("refuse an account of another type", async () => {
    const receiptBytes = await encodedReceipt();
    const vaultSized = Buffer.concat([receiptBytes, Buffer.alloc(441 - receiptBytes.length)]);
    expect(() => decodeVault(vaultSized)).toThrow();
  });
});
