import {
  ComputeBudgetProgram,
  Keypair,
  SendTransactionError,
  SystemProgram,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
  type TransactionError,
} from "@solana/web3.js";
import { describe, expect, it, vi } from "vitest";

import { ChainUnavailableError } from "../chain/rpc";
import { RpcTransportError } from "../chain/rpc-transport";
import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../chain/spl-token";
import { VAULT_PROGRAM_ID } from "../vault/program/idl";
import { TransactionCheckError, type VerifiedTransaction } from "../vault/operations/verify-transaction";
import {
  BlockhashExpiredError,
  RecordingFailedError,
  TransactionRefusedError,
  UnexpectedActionError,
} from "./errors";
import {
  runVaultTransaction,
  type FlowDeps,
  type FlowStage,
  type TransactionPreview,
} from "./transaction-flow";

const payer = Keypair.generate();

// The instructions of the built transaction, by index, as the API builds them: a compute budget, a
// System transfer, the vault's instruction and an associated token account's creation.
const SYSTEM_INDEX = 1;
const VAULT_INDEX = 2;
const ASSOCIATED_INDEX = 3;
const SYSTEM = SystemProgram.programId.toBase58();
const ASSOCIATED = ASSOCIATED_TOKEN_PROGRAM_ID.toBase58();

function built(): { transaction: string; lastValidBlockHeight: number; action: string } {
  const message = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: Keypair.generate().publicKey.toBase58(),
    instructions: [
      ComputeBudgetProgram.setComputeUnitLimit({ units: 200_000 }),
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: payer.publicKey, lamports: 1 }),
      new TransactionInstruction({ programId: VAULT_PROGRAM_ID, keys: [], data: Buffer.from([1]) }),
      new TransactionInstruction({
        programId: ASSOCIATED_TOKEN_PROGRAM_ID,
        keys: [],
        data: Buffer.from([1]),
      }),
    ],
  }).compileToV0Message();
  return {
    transaction: Buffer.from(new VersionedTransaction(message).serialize()).toString("base64"),
    lastValidBlockHeight: 150,
    action: "initiate",
  };
}

type Connection = FlowDeps["connection"];

/**
 * These cases are about sending and naming the chain's answers, over transactions that are not vault
 * operations (a top-level System transfer among them), so the check stands aside here: it accepts
 * anything and bounds no balance. The check itself is tested on real transactions in
 * lib/vault/operations/verify-transaction.test.ts and, through this flow, against a lying gateway in
 * tests/api/hostile-gateway.test.ts.
 */
async function acceptedForErrorNaming(): Promise<VerifiedTransaction> {
  const key = payer.publicKey;
  return {
    operation: "deposit",
    tokens: {
      vault: key,
      assetMint: key,
      assetDecimals: 6,
      shareMint: key,
      shareDecimals: 9,
      feeBps: 10,
      protocol: key,
    },
    args: {},
    computeUnitLimit: 200_000,
    computeUnitPriceMicroLamports: 0,
    maxFeeLamports: 5_000n,
    maxLamportsSpent: 1n << 62n,
    estimatedShares: null,
    maxSlippageBps: 50,
    partnerFee: null,
    watched: { wallet: key, asset: key, shares: key },
  };
}

/** getSignatureStatuses' answer for one signature. */
function statuses(status: ReturnType<typeof landed> | null) {
  return { context: { slot: 3 }, value: [status] };
}

function landed(err: TransactionError | null, confirmationStatus = "confirmed") {
  return { slot: 2, confirmations: 1, err, confirmationStatus };
}

/** A chain past the blockhash's last valid block height (built() gives 150) that has not seen the signature. */
function expiredUnseen() {
  return {
    getBlockHeight: vi.fn(async () => 151),
    getSignatureStatuses: vi.fn(async () => statuses(null)),
  };
}

function harness(overrides: Partial<Record<keyof Connection, unknown>> = {}) {
  const stages: FlowStage[] = [];
  let rebuilt = 0;
  const connection = {
    simulateTransaction: vi.fn(async () => ({ context: { slot: 1 }, value: { err: null, logs: [] } })),
    sendRawTransaction: vi.fn(async () => "signature-1"),
    getSignatureStatuses: vi.fn(async () => statuses(landed(null))),
    getBlockHeight: vi.fn(async () => 100),
    getMultipleAccountsInfo: vi.fn(async () => [null, null, null]),
    ...overrides,
  };
  const signTransaction = vi.fn(async (transaction: VersionedTransaction) => {
    transaction.sign([payer]);
    return transaction;
  });
  const deps: FlowDeps = {
    connection: connection as unknown as Connection,
    verify: acceptedForErrorNaming,
    signTransaction,
    events: { stage: (stage) => stages.push(stage), rebuilt: () => (rebuilt += 1) },
    recordRetryMs: 1,
    confirmPollMs: 1,
  };
  return { deps, connection, signTransaction, stages, rebuilds: () => rebuilt };
}

describe("runVaultTransaction", () => {
  async function failureOf(deps: FlowDeps): Promise<unknown> {
    return runVaultTransaction(
      deps,
      async () => built(),
      async () => null,
    ).catch((thrown: unknown) => thrown);
  }

  function simulated(err: TransactionError, logs: string[] = []) {
    return vi.fn(async () => ({ context: { slot: 1 }, value: { err, logs } }));
  }

  const insufficientSol = { kind: "insufficient-sol", programErrorCode: null, programErrorName: null };
  const otherFailure = { kind: "other", programErrorCode: null, programErrorName: null };

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

  it("rebuilds and asks the wallet again when the blockhash expired unlanded, once", async () => {
    const getBlockHeight = vi.fn().mockResolvedValueOnce(151).mockResolvedValue(100);
    const getSignatureStatuses = vi
      .fn()
      .mockResolvedValueOnce(statuses(null))
      .mockResolvedValueOnce(statuses(null))
      .mockResolvedValue(statuses(landed(null)));
    const { deps, signTransaction, rebuilds } = harness({ getBlockHeight, getSignatureStatuses });
    const build = vi.fn(async () => built());
    await runVaultTransaction(deps, build, async () => null);
    expect(build).toHaveBeenCalledTimes(2);
    expect(signTransaction).toHaveBeenCalledTimes(2);
    expect(rebuilds()).toBe(1);
  });

  it("waits while the signature is only processed, and reports done once it is confirmed", async () => {
    const getSignatureStatuses = vi
      .fn()
      .mockResolvedValueOnce(statuses(null))
      .mockResolvedValueOnce(statuses(landed(null, "processed")))
      .mockResolvedValue(statuses(landed(null)));
    const { deps, stages } = harness({ getSignatureStatuses });
    const result = await runVaultTransaction(
      deps,
      async () => built(),
      async () => null,
    );
    expect(result.signature).toBe("signature-1");
    expect(getSignatureStatuses).toHaveBeenCalledTimes(3);
    expect(stages.at(-1)).toBe("recording");
  });

  it("does not send again when the blockhash expired but the chain's history has the first signature", async () => {
    const getSignatureStatuses = vi.fn(
      async (_: string[], options?: { searchTransactionHistory?: boolean }) =>
        statuses(options?.searchTransactionHistory === true ? landed(null, "finalized") : null),
    );
    const { deps, connection, signTransaction, rebuilds } = harness({
      ...expiredUnseen(),
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

  it("reports a landed failure found after the blockhash expired, typed, without rebuilding", async () => {
    const cases: [TransactionError, Record<string, unknown>][] = [
      [{ InstructionError: [VAULT_INDEX, { Custom: 6020 }] }, { programErrorCode: 6020, kind: "custom" }],
      [{ InstructionError: [SYSTEM_INDEX, { Custom: 1 }] }, insufficientSol],
    ];
    for (const [err, expected] of cases) {
      const getSignatureStatuses = vi.fn(
        async (_: string[], options?: { searchTransactionHistory?: boolean }) =>
          statuses(options?.searchTransactionHistory === true ? landed(err) : null),
      );
      const { deps, rebuilds } = harness({ ...expiredUnseen(), getSignatureStatuses });
      const error = await failureOf(deps);
      expect(error).toBeInstanceOf(TransactionRefusedError);
      expect(error).toMatchObject({ ...expected, signature: "signature-1" });
      expect(rebuilds()).toBe(0);
    }
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
    const getSignatureStatuses = vi.fn(async () =>
      statuses(landed({ InstructionError: [2, { Custom: 6021 }] })),
    );
    const { deps } = harness({ getSignatureStatuses });
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
        new Error(
          "Transaction simulation failed: Error processing Instruction 2: custom program error: 0x1785",
        ),
        { programErrorCode: 6021, programErrorName: "DailyWithdrawalCapExceeded", kind: "custom" },
      ],
      [
        Object.assign(
          new Error("Unexpected error", {
            cause: new Error("Error processing Instruction 1: custom program error: 0x1"),
          }),
          {
            name: "WalletSignTransactionError",
          },
        ),
        { programErrorCode: null, kind: "insufficient-sol" },
      ],
      [
        new Error(
          "Transaction simulation failed: Attempt to debit an account but found no record of a prior credit.",
        ),
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

  it("passes on a wallet's text that names no instruction, as the wallet wrote it", async () => {
    const { deps, signTransaction } = harness();
    const vague = new Error("custom program error: 0x1785");
    signTransaction.mockRejectedValueOnce(vague);
    await expect(
      runVaultTransaction(
        deps,
        async () => built(),
        async () => null,
      ),
    ).rejects.toBe(vague);
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

  it("refuses, before the wallet, a simulation that takes more SOL than the check allows, and reports one within", async () => {
    const SOL = 1_000_000_000;
    const bounded = async (): Promise<VerifiedTransaction> => ({
      ...(await acceptedForErrorNaming()),
      maxFeeLamports: 5_000n,
      maxLamportsSpent: 5_000n,
    });
    const wallet = {
      lamports: 2 * SOL,
      owner: SystemProgram.programId,
      data: Buffer.alloc(0),
      executable: false,
    };
    const simulatedWith = (lamports: number) =>
      vi.fn(async () => ({
        context: { slot: 1 },
        value: {
          err: null,
          logs: [],
          accounts: [
            { lamports, owner: SYSTEM, data: ["", "base64"], executable: false, rentEpoch: 0 },
            null,
            null,
          ],
        },
      }));
    const getMultipleAccountsInfo = vi.fn(async () => [wallet, null, null]);

    // 1 SOL more leaves the wallet than the fee: a transfer hidden where the check could not see it.
    const drained = harness({ simulateTransaction: simulatedWith(SOL), getMultipleAccountsInfo });
    const error = await runVaultTransaction(
      { ...drained.deps, verify: bounded },
      async () => built(),
      async () => null,
    ).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(TransactionCheckError);
    expect(error).toMatchObject({
      code: "SIMULATED_OUTFLOW",
      context: { balance: "lamports", expected: "-5000", found: "-1000000000" },
    });
    expect(drained.signTransaction).not.toHaveBeenCalled();
    expect(drained.stages).toEqual(["preparing"]);

    // The fee alone: reported before the wallet is asked, and in the result.
    const honest = harness({ simulateTransaction: simulatedWith(2 * SOL - 5_000), getMultipleAccountsInfo });
    const previews: TransactionPreview[] = [];
    const result = await runVaultTransaction(
      {
        ...honest.deps,
        verify: bounded,
        events: { ...honest.deps.events, previewed: (preview) => previews.push(preview) },
      },
      async () => built(),
      async () => null,
    );
    expect(previews.map((preview) => preview.changes)).toEqual([
      { lamports: -5_000n, asset: 0n, shares: 0n },
    ]);
    expect(result.preview.changes.lamports).toBe(-5_000n);
    expect(honest.signTransaction).toHaveBeenCalledTimes(1);
  });

  it("asks the wallet only after the confirm step says go; a declined one signs and sends nothing", async () => {
    const declined = harness();
    const seen: FlowStage[][] = [];
    const refusal = new Error("declined on the confirm step");
    const error = await failureOf({
      ...declined.deps,
      confirm: async () => {
        seen.push([...declined.stages]);
        throw refusal;
      },
    });
    expect(error).toBe(refusal);
    expect(seen).toEqual([["preparing", "reviewing"]]);
    expect(declined.signTransaction).not.toHaveBeenCalled();
    expect(declined.connection.sendRawTransaction).not.toHaveBeenCalled();

    const confirmed = harness();
    let go: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (go = resolve));
    let asked: () => void = () => undefined;
    const reviewing = new Promise<void>((resolve) => (asked = resolve));
    const run = runVaultTransaction(
      {
        ...confirmed.deps,
        confirm: () => {
          asked();
          return answered;
        },
      },
      async () => built(),
      async () => null,
    );
    // Waits for the question itself, not for a poll to see it in time.
    await reviewing;
    expect(confirmed.stages).toContain("reviewing");
    expect(confirmed.signTransaction).not.toHaveBeenCalled();
    go();
    await run;
    expect(confirmed.signTransaction).toHaveBeenCalledTimes(1);
    expect(confirmed.stages).toEqual([
      "preparing",
      "reviewing",
      "signing",
      "sending",
      "confirming",
      "recording",
    ]);
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

  it.each<[string, TransactionError, string[], Record<string, unknown>]>([
    [
      "the vault program's own code 1",
      { InstructionError: [VAULT_INDEX, { Custom: 1 }] },
      [],
      { kind: "custom", programErrorCode: 1, programErrorName: null },
    ],
    [
      "the System program's Custom 1 (a transfer it cannot afford)",
      { InstructionError: [SYSTEM_INDEX, { Custom: 1 }] },
      [],
      insufficientSol,
    ],
    [
      "the System program's 1 under the associated token program that invoked it",
      { InstructionError: [ASSOCIATED_INDEX, { Custom: 1 }] },
      [
        `Program ${ASSOCIATED} invoke [1]`,
        `Program ${SYSTEM} invoke [2]`,
        "Transfer: insufficient lamports 0, need 2039280",
        `Program ${SYSTEM} failed: custom program error: 0x1`,
        `Program ${ASSOCIATED} failed: custom program error: 0x1`,
      ],
      insufficientSol,
    ],
    [
      "the token program's 1 (not enough tokens) under the vault's instruction",
      { InstructionError: [VAULT_INDEX, { Custom: 1 }] },
      [
        `Program ${VAULT_PROGRAM_ID.toBase58()} invoke [1]`,
        `Program ${TOKEN_PROGRAM_ID.toBase58()} invoke [2]`,
        "Program log: Error: insufficient funds",
        `Program ${TOKEN_PROGRAM_ID.toBase58()} failed: custom program error: 0x1`,
        `Program ${VAULT_PROGRAM_ID.toBase58()} failed: custom program error: 0x1`,
      ],
      otherFailure,
    ],
    [
      "a vault code a program logs as the System program's failure",
      { InstructionError: [VAULT_INDEX, { Custom: 1 }] },
      [
        `Program log: Program ${SYSTEM} failed: custom program error: 0x1`,
        "Program log: insufficient lamports",
      ],
      { kind: "custom", programErrorCode: 1 },
    ],
    [
      "a vault cap's number returned by another program",
      { InstructionError: [SYSTEM_INDEX, { Custom: 6020 }] },
      [],
      otherFailure,
    ],
    ["a fee payer never funded", "AccountNotFound", [], insufficientSol],
    ["rent the payer cannot leave", "InsufficientFundsForRent", [], insufficientSol],
    ["rent, with its account", { InsufficientFundsForRent: { account_index: 0 } }, [], insufficientSol],
    [
      "a built-in instruction error",
      { InstructionError: [VAULT_INDEX, "InvalidAccountData"] },
      ["Program log: custom program error: 0x1784"],
      otherFailure,
    ],
  ])("types a simulation's refusal from its TransactionError: %s", async (_, err, logs, expected) => {
    const { deps, signTransaction } = harness({ simulateTransaction: simulated(err, logs) });
    const error = await failureOf(deps);
    expect(error).toBeInstanceOf(TransactionRefusedError);
    expect(error).toMatchObject({ ...expected, signature: null });
    expect(signTransaction).not.toHaveBeenCalled();
  });

  it("rebuilds once when the simulation finds the blockhash gone", async () => {
    const simulateTransaction = vi
      .fn()
      .mockResolvedValueOnce({ context: { slot: 1 }, value: { err: "BlockhashNotFound", logs: [] } })
      .mockResolvedValue({ context: { slot: 1 }, value: { err: null, logs: [] } });
    const { deps, signTransaction, rebuilds } = harness({ simulateTransaction });
    const build = vi.fn(async () => built());
    await runVaultTransaction(deps, build, async () => null);
    expect(build).toHaveBeenCalledTimes(2);
    expect(signTransaction).toHaveBeenCalledOnce();
    expect(rebuilds()).toBe(1);
  });

  it("types a landed failure from the signature's status, with its signature", async () => {
    const cases: [TransactionError, Record<string, unknown>][] = [
      [{ InstructionError: [VAULT_INDEX, { Custom: 6021 }] }, { kind: "custom", programErrorCode: 6021 }],
      [{ InstructionError: [SYSTEM_INDEX, { Custom: 1 }] }, insufficientSol],
      ["InsufficientFundsForRent", insufficientSol],
    ];
    for (const [err, expected] of cases) {
      const { deps, rebuilds } = harness({ getSignatureStatuses: vi.fn(async () => statuses(landed(err))) });
      const error = await failureOf(deps);
      expect(error).toBeInstanceOf(TransactionRefusedError);
      expect(error).toMatchObject({ ...expected, signature: "signature-1" });
      expect(rebuilds()).toBe(0);
    }
  });

  it("rethrows any other confirmation failure as it came", async () => {
    const aborted = new Error("The operation was aborted");
    const { deps } = harness({ getSignatureStatuses: vi.fn().mockRejectedValue(aborted) });
    expect(await failureOf(deps)).toBe(aborted);
  });

  it("types a preflight refusal from the node's message, by the instruction it names", async () => {
    const preflight = (message: string, logs: string[] = []) =>
      vi.fn(async () => {
        throw new SendTransactionError({
          action: "simulate",
          signature: "",
          transactionMessage: message,
          logs,
        });
      });
    const cases: [string, string[], Record<string, unknown>][] = [
      [
        "Transaction simulation failed: Error processing Instruction 2: custom program error: 0x1784",
        [],
        { kind: "custom", programErrorCode: 6020, programErrorName: "HourlyWithdrawalCapExceeded" },
      ],
      [
        "Transaction simulation failed: Error processing Instruction 1: custom program error: 0x1",
        [],
        insufficientSol,
      ],
      [
        "Transaction simulation failed: Error processing Instruction 3: custom program error: 0x1",
        [`Program ${SYSTEM} failed: custom program error: 0x1`],
        insufficientSol,
      ],
      [
        "Transaction simulation failed: Attempt to debit an account but found no record of a prior credit.",
        [],
        insufficientSol,
      ],
      ["Transaction simulation failed: Insufficient funds for fee", [], insufficientSol],
      [
        "Transaction simulation failed: Error processing Instruction 2: invalid account data",
        [],
        otherFailure,
      ],
    ];
    for (const [message, logs, expected] of cases) {
      const { deps } = harness({ sendRawTransaction: preflight(message, logs) });
      const error = await failureOf(deps);
      expect(error).toBeInstanceOf(TransactionRefusedError);
      expect(error).toMatchObject({ ...expected, signature: null });
    }
  });

  it("takes the Connection's RpcTransportError, and only a fetch's own TypeError, for an outage", async () => {
    const transport = new RpcTransportError("503 Service Unavailable: try later", 503);
    const { deps } = harness({ sendRawTransaction: vi.fn().mockRejectedValue(transport) });
    expect(await failureOf(deps)).toBeInstanceOf(ChainUnavailableError);

    // A node's answer that quotes an address spelling "networkerror" or "timeout", or a bug's
    // TypeError, is no outage: each is thrown as it came.
    const address = "4NetworkerrortimeoutVau1tQzXcRm9pWs2Yh7Kd3Ej";
    const notOutages = [
      new Error(`failed to simulate transaction: invalid account ${address}: fetch failed`),
      Object.assign(new Error(`Invalid param: ${address} timeout`), { name: "SolanaJSONRPCError" }),
      new TypeError("Cannot read properties of undefined (reading 'value')"),
    ];
    for (const thrown of notOutages) {
      const { deps: failing } = harness({ simulateTransaction: vi.fn().mockRejectedValue(thrown) });
      expect(await failureOf(failing)).toBe(thrown);
    }
  });
});
