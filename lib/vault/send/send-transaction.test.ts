import { describe, expect, it, vi } from "vitest";

import { VAULT_PROGRAM_ADDRESS } from "../program/program-id";
import {
  PreflightRefusal,
  confirmSignatures,
  sendAndConfirm,
  type SignatureState,
  type TransactionRpc,
} from "./send-transaction";

const WIRE = new Uint8Array([1, 2, 3]);
const PROGRAMS = ["ComputeBudget111111111111111111111111111111", VAULT_PROGRAM_ADDRESS];

/** A node whose block height and signature states the test scripts. */
function node(script: {
  send?: TransactionRpc["send"];
  height?: () => number;
  state?: (signature: string, searchHistory: boolean) => SignatureState | null;
}) {
  const rpc = {
    send: vi.fn(script.send ?? (async () => "signature-1")),
    statuses: vi.fn(async (signatures: readonly string[], searchHistory: boolean) =>
      signatures.map((signature) => script.state?.(signature, searchHistory) ?? null),
    ),
    blockHeight: vi.fn(async () => script.height?.() ?? 100),
  };
  return rpc;
}

describe("sendAndConfirm", () => {
  it("returns the signature once the node says confirmed, waiting out a processed status", async () => {
    let polls = 0;
    const rpc = node({
      state: () => {
        polls += 1;
        return polls < 3 ? { err: null, confirmed: false } : { err: null, confirmed: true };
      },
    });
    const result = await sendAndConfirm(rpc, WIRE, 150, { programs: PROGRAMS, pollMs: 1 });
    expect(result).toEqual({ status: "confirmed", signature: "signature-1" });
    expect(rpc.send).toHaveBeenCalledWith(WIRE, { skipPreflight: false });
    expect(polls).toBe(3);
  });

  it("names a preflight refusal by the vault IDL, with no signature, and never polls", async () => {
    const rpc = node({
      send: async () => {
        throw new PreflightRefusal({ InstructionError: [1, { Custom: 6020 }] }, ["Program log: cap"]);
      },
    });
    const result = await sendAndConfirm(rpc, WIRE, 150, { programs: PROGRAMS, pollMs: 1 });
    expect(result).toMatchObject({
      status: "failed",
      signature: null,
      logs: ["Program log: cap"],
      failure: { kind: "custom", customCode: 6020, vaultError: { name: "HourlyWithdrawalCapExceeded" } },
    });
    expect(rpc.statuses).not.toHaveBeenCalled();
  });

  it("decodes a landed failure with its signature; another program's 6020 is not the vault's", async () => {
    const landed = { err: { InstructionError: [0, { Custom: 6020 }] }, confirmed: true };
    const result = await sendAndConfirm(node({ state: () => landed }), WIRE, 150, {
      programs: PROGRAMS,
      pollMs: 1,
    });
    expect(result).toMatchObject({
      status: "failed",
      signature: "signature-1",
      failure: { kind: "other", customCode: 6020, vaultError: null },
    });
  });

  it("calls a transaction expired only after the history does not have it either", async () => {
    const unseen = node({ height: () => 151 });
    expect(await sendAndConfirm(unseen, WIRE, 150, { programs: PROGRAMS, pollMs: 1 })).toEqual({
      status: "expired",
      signature: "signature-1",
    });
    expect(unseen.statuses).toHaveBeenLastCalledWith(["signature-1"], true);

    // Landed unseen (only the history has it, even as processed): confirmed, so never sent again.
    const inHistory = node({
      height: () => 151,
      state: (_, searchHistory) => (searchHistory ? { err: null, confirmed: false } : null),
    });
    expect(await sendAndConfirm(inHistory, WIRE, 150, { programs: PROGRAMS, pollMs: 1 })).toEqual({
      status: "confirmed",
      signature: "signature-1",
    });
  });

  it("throws what the transport throws: an RPC that does not answer is no refusal", async () => {
    const down = new Error("connect ECONNREFUSED");
    const rpc = node({
      send: async () => {
        throw down;
      },
    });
    await expect(sendAndConfirm(rpc, WIRE, 150, { programs: PROGRAMS })).rejects.toBe(down);
  });
});

describe("confirmSignatures", () => {
  it("asks for at most 256 signatures a call and settles each", async () => {
    const signatures = Array.from({ length: 600 }, (_, index) => `signature-${index}`);
    const rpc = node({
      state: (signature) => ({ err: signature === "signature-599" ? "Bad" : null, confirmed: true }),
    });
    const outcomes = await confirmSignatures(rpc, signatures, 150, 1);
    expect(rpc.statuses.mock.calls.map(([batch]) => batch.length)).toEqual([256, 256, 88]);
    expect(outcomes.size).toBe(600);
    expect(outcomes.get("signature-0")).toEqual({ status: "confirmed", err: null });
    expect(outcomes.get("signature-599")).toEqual({ status: "confirmed", err: "Bad" });
  });
});
