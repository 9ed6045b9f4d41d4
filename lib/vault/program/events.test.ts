import { Keypair } from "@solana/web3.js";
import BN from "bn.js";
import { describe, expect, it } from "vitest";

import { decodeVaultEvents } from "./events";
import { vaultCoder } from "../../../tests/fixtures/anchor-coder";
import { VAULT_PROGRAM_ID, vaultIdl } from "./idl";

const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
const OTHER_PROGRAM = Keypair.generate().publicKey.toBase58();

function stagedEventBytes(stagedShares: number): Buffer {
  const discriminator = vaultIdl.events.find((event) => event.name === "WithdrawalsStaged")?.discriminator;
  const vault = Keypair.generate().publicKey;
  const body = vaultCoder.types.encode("WithdrawalsStaged", {
    vault,
    staged_shares: new BN(stagedShares),
    queue_funded: new BN(10),
    queue_tail: new BN(20),
    timestamp: new BN(-5),
  });
  return Buffer.concat([Buffer.from(discriminator ?? []), body]);
}

describe("decodeVaultEvents", () => {
  const program = VAULT_PROGRAM_ID.toBase58();

  it("decodes the vault program's data lines into typed events with bigint fields", () => {
    const logs = [
      `Program ${program} invoke [1]`,
      `Program data: ${stagedEventBytes(7).toString("base64")}`,
      `Program ${program} consumed 1000 of 200000 compute units`,
      `Program ${program} success`,
    ];
    const [event, ...rest] = decodeVaultEvents(logs);
    expect(rest).toEqual([]);
    expect(event?.name).toBe("WithdrawalsStaged");
    if (event?.name === "WithdrawalsStaged") {
      expect(event.data.stagedShares).toBe(7n);
      expect(event.data.queueFunded).toBe(10n);
      expect(event.data.queueTail).toBe(20n);
      expect(event.data.timestamp).toBe(-5n);
    }
  });

  it("ignores data lines of programs the vault invokes and of other top-level programs", () => {
    const foreign = Buffer.from("not an event").toString("base64");
    const logs = [
      `Program ${OTHER_PROGRAM} invoke [1]`,
      `Program data: ${stagedEventBytes(1).toString("base64")}`,
      `Program ${OTHER_PROGRAM} success`,
      `Program ${program} invoke [1]`,
      `Program ${TOKEN_PROGRAM} invoke [2]`,
      `Program data: ${foreign}`,
      `Program ${TOKEN_PROGRAM} success`,
      `Program data: ${stagedEventBytes(2).toString("base64")}`,
      `Program ${program} success`,
    ];
    const events = decodeVaultEvents(logs);
    expect(events.map((event) => event.name === "WithdrawalsStaged" && event.data.stagedShares)).toEqual([
      2n,
    ]);
  });

  it("joins the slices of a multi-slice data line", () => {
    const bytes = stagedEventBytes(3);
    const logs = [
      `Program ${program} invoke [1]`,
      `Program data: ${bytes.subarray(0, 8).toString("base64")} ${bytes.subarray(8).toString("base64")}`,
      `Program ${program} success`,
    ];
    expect(decodeVaultEvents(logs)).toHaveLength(1);
  });

  it("refuses a data line of the vault program that is no vault event", () => {
    const logs = [`Program ${program} invoke [1]`, `Program data: ${Buffer.alloc(16).toString("base64")}`];
    expect(() => decodeVaultEvents(logs)).toThrow(/does not hold a vault event/);
  });
});
