import { Keypair } from "@solana/web3.js";
import BN from "bn.js";
import { describe, expect, it } from "vitest";

import { vaultCoder } from "../../../tests/fixtures/anchor-coder";
import { decodeProtocolState, decodeQueueHolesState, decodeReceiptState, decodeVaultState } from "./accounts";
import {
  PROTOCOL_ACCOUNT_SIZE,
  QUEUE_HOLES_ACCOUNT_SIZE,
  VAULT_ACCOUNT_SIZE,
  WITHDRAWAL_RECEIPT_ACCOUNT_SIZE,
} from "./idl";

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
    fee_bps: 25,
    bump: 254,
    last_holder_exit: true,
  });
}

describe("account decoders", () => {
  it("decode u64 and i64 fields to exact bigints and names fields in camelCase", async () => {
    const receipt = decodeReceiptState(await encodedReceipt());
    expect(receipt).toMatchObject({
      shares: 18_446_744_073_709_551_615n,
      assetsAtRequest: 2n,
      navFloor: 3n,
      requestId: 4n,
      requestedAt: -5n,
      queueStart: 6n,
      queueEnd: 7n,
      feeBps: 25,
      bump: 254,
      lastHolderExit: true,
    });
  });

  it("refuse data of the wrong size, even with the right discriminator", async () => {
    const data = await encodedReceipt();
    expect(data.length).toBe(WITHDRAWAL_RECEIPT_ACCOUNT_SIZE);
    expect(() => decodeReceiptState(Buffer.concat([data, Buffer.alloc(1)]))).toThrow(/132 bytes, got 133/);
    expect(() => decodeReceiptState(data.subarray(0, -1))).toThrow(/132 bytes, got 131/);
  });

  it("refuse an account of another type", async () => {
    const receiptBytes = await encodedReceipt();
    const vaultSized = Buffer.concat([receiptBytes, Buffer.alloc(VAULT_ACCOUNT_SIZE - receiptBytes.length)]);
    expect(() => decodeVaultState(vaultSized)).toThrow();
  });

  it("decode a queue's holes: only the first `count` ranges, as bigints", async () => {
    const vault = Keypair.generate().publicKey;
    const holes = Array.from({ length: 16 }, (_unused, index) => ({
      start: new BN(index === 0 ? "18446744073709551614" : index * 10),
      end: new BN(index === 0 ? "18446744073709551615" : index * 10 + 5),
    }));
    const payer = Keypair.generate().publicKey;
    const data = await vaultCoder.accounts.encode("QueueHoles", { vault, bump: 253, count: 2, holes, payer });
    expect(data.length).toBe(QUEUE_HOLES_ACCOUNT_SIZE);
    expect(decodeQueueHolesState(data)).toEqual({
      vault,
      bump: 253,
      holes: [
        { start: 18_446_744_073_709_551_614n, end: 18_446_744_073_709_551_615n },
        { start: 10n, end: 15n },
      ],
      payer,
    });
    expect(() => decodeQueueHolesState(data.subarray(0, QUEUE_HOLES_ACCOUNT_SIZE - 1))).toThrow();
  });

  it("decode the protocol: its admin, pending admin, NAV bounds and partner fee maximum", async () => {
    const admin = Keypair.generate().publicKey;
    const data = await vaultCoder.accounts.encode("Protocol", {
      creator: admin,
      admin,
      pending_admin: Keypair.generate().publicKey,
      max_gain_bps: 5,
      max_loss_bps: 50,
      min_nav_interval_seconds: 4_000_000_000,
      vault_count: new BN(2),
      bump: 255,
      max_annual_gain_bps: 2_000,
      max_daily_loss_bps: 50,
      max_partner_fee_bps: 100,
      reserved: Array(58).fill(0),
    });
    expect(data.length).toBe(PROTOCOL_ACCOUNT_SIZE);
    expect(decodeProtocolState(data)).toMatchObject({
      admin,
      maxGainBps: 5,
      maxLossBps: 50,
      minNavIntervalSeconds: 4_000_000_000,
      vaultCount: 2n,
      maxAnnualGainBps: 2_000,
      maxDailyLossBps: 50,
      maxPartnerFeeBps: 100,
    });
    expect(() =>
      decodeVaultState(Buffer.concat([data, Buffer.alloc(VAULT_ACCOUNT_SIZE - data.length)])),
    ).toThrow();
  });
});
