import {
  Keypair,
  SendTransactionError,
  SystemProgram,
  TransactionExpiredBlockheightExceededError,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { describe, expect, it, vi } from "vitest";

import { ChainUnavailableError } from "../chain/rpc";
import {
  BlockhashExpiredError,
  RecordingFailedError,
  TransactionRefusedError,
  UnexpectedActionError,
} from "./errors";
import { runVaultTransaction, type FlowDeps, type FlowStage } from "./transaction-flow";

const payer = Keypair.generate();

function built(): { transaction: string; lastValidBlockHeight: number; action: string } {
  const message = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: Keypair.generate().publicKey.toBase58(),
    instructions: [
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: payer.publicKey, lamports: 1 }),
    ],
  }).compileToV0Message();
  return {
    transaction: Buffer.from(new VersionedTransaction(message).serialize()).toString("base64"),
    lastValidBlockHeight: 150,
    action: "initiate",
  };
}

type Connection = FlowDeps["connection"];

function harness(overrides: Partial<Record<keyof Connection, unknown>> = {}) {
  const stages: FlowStage[] = [];
  let rebuilt = 0;
  const connection = {
    simulateTransaction: vi.fn(async () => ({ context: { slot: 1 }, value: { err: null, logs: [] } })),
    sendRawTransaction: vi.fn(async () => "signature-1"),
    confirmTransaction: vi.fn(async () => ({ context: { slot: 2 }, value: { err: null } })),
    getSignatureStatuses: vi.fn(async () => ({ context: { slot: 3 }, value: [null] })),
    ...overrides,
  };
  const signTransaction = vi.fn(async (transaction: VersionedTransaction) => {
    transaction.sign([payer]);
    return transaction;
  });
  const deps: FlowDeps = {
    connection: connection as unknown as Connection,
    signTransaction,
    events: { stage: (stage) => stages.push(stage), rebuilt: () => (rebuilt += 1) },
    recordRetryMs: 1,
  };
  return { deps, connection, signTransaction, stages, rebuilds: () => rebuilt };
}

describe("runVaultTransaction", () => {
  it("builds, simulates, has the wallet sign, sends, confirms and records, in that order", async () => {
    const { deps, stages, connection, signTransaction } = harness();
    const build = vi.fn(async () => built());
    const record = vi.fn(async (signature: string) => ({ recordedAs: signature }));
    const result = await runVaultTransaction(deps, build, record);
    expect(stages).toEqual(["preparing", "signing", "sending", "confirming", "recording"]);
    expect(result.signature).toBe("signature-1");
    expect(result.recorded).toEqual({ recordedAs: "signature-1" });
    expect(connection.simulateTransaction).toHaveBeenCalledOnce();
    expect(signTransaction).toHaveBeenCalledOnce();
    expect(record).toHaveBeenCalledWith("signature-1");
  });

  it("rebuilds and asks the wallet again when the blockhash expired, once", async () => {
    const confirmTransaction = vi
      .fn()
      .mockRejectedValueOnce(new TransactionExpiredBlockheightExceededError("signature-1"))
      .mockResolvedValue({ context: { slot: 2 }, value: { err: null } });
    const { deps, signTransaction, rebuilds } = harness({ confirmTransaction });
    const build = vi.fn(async () => built());
    await runVaultTransaction(deps, build, async () => null);
    expect(build).toHaveBeenCalledTimes(2);
    expect(signTransaction).toHaveBeenCalledTimes(2);
    expect(rebuilds()).toBe(1);
  });

  it("does not send again when the confirmation expired but the chain has the first signature", async () => {
    const confirmTransaction = vi
      .fn()
      .mockRejectedValue(new TransactionExpiredBlockheightExceededError("signature-1"));
    const getSignatureStatuses = vi.fn(async () => ({
      context: { slot: 3 },
      value: [{ slot: 2, confirmations: 1, err: null, confirmationStatus: "confirmed" }],
    }));
    const { deps, connection, signTransaction, rebuilds } = harness({
      confirmTransaction,
      getSignatureStatuses,
    });
    const build = vi.fn(async () => built());
    const record = vi.fn(async (signature: string) => ({ recordedAs: signature }));
    const result = await runVaultTransaction(deps, build, record);
    expect(result.signature).toBe("signature-1");
    expect(build).toHaveBeenCalledOnce();
    expect(signTransaction).toHaveBeenCalledOnce();
    expect(connection.sendRawTransaction).toHaveBeenCalledOnce();
    expect(getSignatureStatuses).toHaveBeenCalledWith(["signature-1"], { searchTransactionHistory: true });
    expect(rebuilds()).toBe(0);
    expect(record).toHaveBeenCalledWith("signature-1");
  });

  it("reports a landed failure found after an expired confirmation, without rebuilding", async () => {
    const confirmTransaction = vi
      .fn()
      .mockRejectedValue(new TransactionExpiredBlockheightExceededError("signature-1"));
    const getSignatureStatuses = vi.fn(async () => ({
      context: { slot: 3 },
      value: [
        {
          slot: 2,
          confirmations: 1,
          err: { InstructionError: [0, { Custom: 6020 }] },
          confirmationStatus: "confirmed",
        },
      ],
    }));
    const { deps, rebuilds } = harness({ confirmTransaction, getSignatureStatuses });
    const error = await runVaultTransaction(
      deps,
      async () => built(),
      async () => "recorded",
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionRefusedError);
    expect((error as TransactionRefusedError).signature).toBe("signature-1");
    expect(rebuilds()).toBe(0);
  });

  it("gives up after a second expiry, and treats a stale blockhash at send the same way", async () => {
    const sendRawTransaction = vi.fn(async () => {
      throw new SendTransactionError({
        action: "send",
        signature: "",
        transactionMessage: "Transaction simulation failed: Blockhash not found",
        logs: [],
      });
    });
    const { deps, rebuilds } = harness({ sendRawTransaction });
    await expect(
      runVaultTransaction(
        deps,
        async () => built(),
        async () => null,
      ),
    ).rejects.toBeInstanceOf(BlockhashExpiredError);
    expect(rebuilds()).toBe(1);
  });

  it("lets the wallet's refusal through untouched, having sent nothing", async () => {
    const { deps, connection, signTransaction } = harness();
    const rejection = Object.assign(new Error("User rejected the request."), {
      name: "WalletSignTransactionError",
    });
    signTransaction.mockRejectedValueOnce(rejection);
    await expect(
      runVaultTransaction(
        deps,
        async () => built(),
        async () => null,
      ),
    ).rejects.toBe(rejection);
    expect(connection.sendRawTransaction).not.toHaveBeenCalled();
  });

  it("stops before the wallet when the simulation fails, with the program's error code", async () => {
    const simulateTransaction = vi.fn(async () => ({
      context: { slot: 1 },
      value: { err: { InstructionError: [2, { Custom: 6020 }] }, logs: ["Program log: cap"] },
    }));
    const { deps, signTransaction } = harness({ simulateTransaction });
    const error = await runVaultTransaction(
      deps,
      async () => built(),
      async () => null,
    ).catch((thrown) => thrown);
    expect(error).toBeInstanceOf(TransactionRefusedError);
    expect(error).toMatchObject({
      programErrorCode: 6020,
      programErrorName: "HourlyWithdrawalCapExceeded",
      kind: "custom",
    });
    expect(signTransaction).not.toHaveBeenCalled();
  });

  it("reports a transaction that landed and failed, with its signature", async () => {
    const confirmTransaction = vi.fn(async () => ({
      context: { slot: 2 },
      value: { err: { InstructionError: [2, { Custom: 6021 }] } },
    }));
    const { deps } = harness({ confirmTransaction });
    const error = await runVaultTransaction(
      deps,
      async () => built(),
      async () => null,
    ).catch((thrown) => thrown);
    expect(error).toMatchObject({
      programErrorCode: 6021,
      programErrorName: "DailyWithdrawalCapExceeded",
      signature: "signature-1",
    });
  });

  it("types the chain's refusal a simulating wallet reports as text, and sends nothing", async () => {
    const cases: [Error, Record<string, unknown>][] = [
      [
        new Error("custom program error: 0x1785"),
        { programErrorCode: 6021, programErrorName: "DailyWithdrawalCapExceeded", kind: "custom" },
      ],
      [
        new Error("Attempt to debit an account but found no record of a prior credit."),
        { programErrorCode: null, kind: "insufficient-sol" },
      ],
    ];
    for (const [thrown, expected] of cases) {
      const { deps, connection, signTransaction } = harness();
      signTransaction.mockRejectedValueOnce(thrown);
      const error = await runVaultTransaction(
        deps,
        async () => built(),
        async () => null,
      ).catch((caught) => caught);
      expect(error).toBeInstanceOf(TransactionRefusedError);
      expect(error).toMatchObject(expected);
      expect(connection.sendRawTransaction).not.toHaveBeenCalled();
    }
    const { deps, signTransaction } = harness();
    signTransaction.mockRejectedValueOnce(new Error("Blockhash not found"));
    await expect(
      runVaultTransaction(
        deps,
        async () => built(),
        async () => null,
      ),
    ).rejects.toBeInstanceOf(BlockhashExpiredError);
  });

  it("says when the fee payer cannot pay", async () => {
    const simulateTransaction = vi.fn(async () => ({
      context: { slot: 1 },
      value: { err: "InsufficientFundsForFee", logs: [] },
    }));
    const { deps } = harness({ simulateTransaction });
    await expect(
      runVaultTransaction(
        deps,
        async () => built(),
        async () => null,
      ),
    ).rejects.toMatchObject({
      kind: "insufficient-sol",
    });
  });

  it("retries recording, then reports the confirmed signature it could not record", async () => {
    const { deps } = harness();
    const record = vi.fn(async () => {
      throw new Error("store down");
    });
    const error = await runVaultTransaction(deps, async () => built(), record).catch((thrown) => thrown);
    expect(error).toBeInstanceOf(RecordingFailedError);
    expect(error).toMatchObject({ signature: "signature-1" });
    expect(record).toHaveBeenCalledTimes(4);
  });

  it("refuses a prepared transaction of another action before anything is signed", async () => {
    const { deps, signTransaction } = harness();
    const check = (prepared: { action: string }) => {
      if (prepared.action !== "claim") {
        throw new UnexpectedActionError("claim", prepared.action);
      }
    };
    await expect(
      runVaultTransaction(
        deps,
        async () => built(),
        async () => null,
        check,
      ),
    ).rejects.toBeInstanceOf(UnexpectedActionError);
    expect(signTransaction).not.toHaveBeenCalled();
  });

  it("turns an unreachable RPC into ChainUnavailableError", async () => {
    const simulateTransaction = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    const { deps } = harness({ simulateTransaction });
    await expect(
      runVaultTransaction(
        deps,
        async () => built(),
        async () => null,
      ),
    ).rejects.toBeInstanceOf(ChainUnavailableError);
  });
});
