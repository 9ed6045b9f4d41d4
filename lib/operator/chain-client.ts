// What the operator commands need from any Solana RPC: accounts, rent, blockhashes, simulation, and
// sending legacy transactions, sent and confirmed by the senders' one module (lib/vault/send/send-transaction.ts).
// Built on lib/chain/rpc.ts, so its calls are counted and timed like the servers' are.
import bs58 from "bs58";
import { PublicKey, Transaction, type Keypair, type TransactionInstruction } from "@solana/web3.js";
import { z } from "zod";

import { RpcError, createRpcClient, type RpcClient, type RpcObserver } from "../chain/rpc";
import {
  PreflightRefusal,
  confirmSignatures,
  sendAndConfirm,
  sendSigned,
  type Confirmation,
  type TransactionRpc,
} from "../vault/send/send-transaction";
import { decodeTransactionFailure, type TransactionFailure } from "../vault/send/transaction-failure";

export interface OnChainAccount {
  lamports: bigint;
  data: Uint8Array;
  owner: PublicKey;
  executable: boolean;
}

/**
 * A transaction the chain refused or executed with an error; `err` is the RPC's error value, decoded
 * (the vault program's errors by their IDL name) by lib/vault/send/transaction-failure.ts.
 */
export class TransactionFailedError extends Error {
  readonly failure: TransactionFailure;

  constructor(
    readonly label: string,
    readonly err: unknown,
    readonly logs: readonly string[],
    /** The transaction's top-level programs in order: they name the program of an InstructionError. */
    programs: readonly string[] = [],
  ) {
    const failure = decodeTransactionFailure(err, { logs, programs });
    // The runtime's own explanation, when it logged one, says more than the error value.
    const reason = logs.find((line) => !line.startsWith("Program "));
    super(`${label} failed: ${failure.description}${reason === undefined ? "" : `: ${reason}`}`);
    this.failure = failure;
  }
}

export function programsOf(instructions: readonly TransactionInstruction[]): string[] {
  return instructions.map((instruction) => instruction.programId.toBase58());
}

const accountInfoSchema = z.object({
  value: z
    .object({
      lamports: z.number(),
      data: z.tuple([z.string(), z.literal("base64")]),
      owner: z.string(),
      executable: z.boolean(),
    })
    .nullable(),
});

const blockhashSchema = z.object({
  value: z.object({ blockhash: z.string(), lastValidBlockHeight: z.number() }),
});

const statusesSchema = z.object({
  value: z.array(
    z
      .object({
        err: z.unknown().nullable(),
        confirmationStatus: z.enum(["processed", "confirmed", "finalized"]).nullable().optional(),
      })
      .nullable(),
  ),
});

const simulationSchema = z.object({
  value: z.object({
    err: z.unknown().nullable(),
    logs: z.array(z.string()).nullable(),
    unitsConsumed: z.number().optional(),
  }),
});

export interface Blockhash {
  blockhash: string;
  lastValidBlockHeight: number;
}

export interface SignedTransaction {
  signature: string;
  wire: Buffer;
}

export interface Simulation {
  err: unknown;
  /** `err` decoded (lib/vault/send/transaction-failure.ts); null when the simulation succeeded. */
  failure: TransactionFailure | null;
  logs: string[];
  unitsConsumed: number;
}

const POLL_MS = 400;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class ChainClient {
  readonly rpc: RpcClient;
  private readonly transport: TransactionRpc;
  /** Transactions this client has sent, retries included. */
  sent = 0;

  constructor(url: string, options: { timeoutMs?: number; observe?: RpcObserver } = {}) {
    this.rpc = createRpcClient(url, options.timeoutMs ?? 10_000, options.observe);
    this.transport = rpcTransport(this.rpc);
  }

  async getAccount(address: PublicKey): Promise<OnChainAccount | null> {
    const result = accountInfoSchema.parse(
      await this.rpc.call("getAccountInfo", [
        address.toBase58(),
        { encoding: "base64", commitment: "confirmed" },
      ]),
    );
    if (result.value === null) {
      return null;
    }
    return {
      lamports: BigInt(result.value.lamports),
      data: Buffer.from(result.value.data[0], "base64"),
      owner: new PublicKey(result.value.owner),
      executable: result.value.executable,
    };
  }

  /** An account as the node holds it, with the slot the node answered at (its context). */
  async getAccountAtSlot(address: PublicKey): Promise<{ slot: bigint; account: OnChainAccount | null }> {
    const result = accountInfoSchema
      .extend({ context: z.object({ slot: z.number() }) })
      .parse(
        await this.rpc.call("getAccountInfo", [
          address.toBase58(),
          { encoding: "base64", commitment: "confirmed" },
        ]),
      );
    const slot = BigInt(result.context.slot);
    if (result.value === null) {
      return { slot, account: null };
    }
    return {
      slot,
      account: {
        lamports: BigInt(result.value.lamports),
        data: Buffer.from(result.value.data[0], "base64"),
        owner: new PublicKey(result.value.owner),
        executable: result.value.executable,
      },
    };
  }

  async getBalance(address: PublicKey): Promise<bigint> {
    const result = z
      .object({ value: z.number() })
      .parse(await this.rpc.call("getBalance", [address.toBase58(), { commitment: "confirmed" }]));
    return BigInt(result.value);
  }

  async rentExempt(size: number): Promise<bigint> {
    return BigInt(z.number().parse(await this.rpc.call("getMinimumBalanceForRentExemption", [size])));
  }

  async latestBlockhash(): Promise<Blockhash> {
    return blockhashSchema.parse(await this.rpc.call("getLatestBlockhash", [{ commitment: "confirmed" }]))
      .value;
  }

  async blockHeight(): Promise<number> {
    return z.number().parse(await this.rpc.call("getBlockHeight", [{ commitment: "confirmed" }]));
  }

  async slot(): Promise<bigint> {
    return BigInt(z.number().parse(await this.rpc.call("getSlot", [{ commitment: "confirmed" }])));
  }

  /** Resolves once the confirmed slot is past `slot`. */
  async waitForSlotAfter(slot: bigint): Promise<void> {
    while ((await this.slot()) <= slot) {
      await sleep(POLL_MS);
    }
  }

  sign(
    instructions: readonly TransactionInstruction[],
    feePayer: Keypair,
    signers: readonly Keypair[],
    blockhash: string,
  ): SignedTransaction {
    const transaction = new Transaction({ feePayer: feePayer.publicKey, recentBlockhash: blockhash }).add(
      ...instructions,
    );
    const unique = [feePayer, ...signers.filter((signer) => !signer.publicKey.equals(feePayer.publicKey))];
    transaction.sign(...unique);
    const signature = transaction.signature;
    if (signature === null) {
      throw new Error("The transaction has no fee-payer signature after signing");
    }
    return { signature: bs58.encode(signature), wire: transaction.serialize() };
  }

  /** Runs the instructions without sending them (no signature check; a fresh blockhash). */
  async simulate(instructions: readonly TransactionInstruction[], feePayer: PublicKey): Promise<Simulation> {
    const { blockhash } = await this.latestBlockhash();
    const transaction = new Transaction({ feePayer, recentBlockhash: blockhash }).add(...instructions);
    const wire = transaction.serialize({ requireAllSignatures: false, verifySignatures: false });
    const result = simulationSchema.parse(
      await this.rpc.call("simulateTransaction", [
        wire.toString("base64"),
        { encoding: "base64", sigVerify: false, replaceRecentBlockhash: true, commitment: "confirmed" },
      ]),
    );
    const err = result.value.err ?? null;
    const logs = result.value.logs ?? [];
    return {
      err,
      failure:
        err === null ? null : decodeTransactionFailure(err, { logs, programs: programsOf(instructions) }),
      logs,
      unitsConsumed: result.value.unitsConsumed ?? 0,
    };
  }

  /** Sends a signed transaction; a preflight refusal becomes TransactionFailedError. */
  async send(
    label: string,
    transaction: SignedTransaction,
    options: { skipPreflight?: boolean; programs?: readonly string[] } = {},
  ): Promise<void> {
    this.sent += 1;
    const programs = options.programs ?? [];
    const sent = await sendSigned(this.transport, transaction.wire, { ...options, programs });
    if (sent.status === "failed") {
      throw new TransactionFailedError(label, sent.err, sent.logs, programs);
    }
  }

  /** Polls until every signature is confirmed or the blockhash's last valid block height passes. */
  confirmAll(
    signatures: readonly string[],
    lastValidBlockHeight: number,
  ): Promise<Map<string, Confirmation>> {
    return confirmSignatures(this.transport, signatures, lastValidBlockHeight);
  }

  /** Signs, sends and confirms one transaction, with a fresh blockhash each time one expires unlanded. */
  async sendAndConfirm(
    label: string,
    instructions: readonly TransactionInstruction[],
    feePayer: Keypair,
    signers: readonly Keypair[] = [],
    attempts = 3,
  ): Promise<string> {
    const programs = programsOf(instructions);
    for (let attempt = 1; ; attempt += 1) {
      const { blockhash, lastValidBlockHeight } = await this.latestBlockhash();
      const transaction = this.sign(instructions, feePayer, signers, blockhash);
      this.sent += 1;
      const result = await sendAndConfirm(this.transport, transaction.wire, lastValidBlockHeight, {
        programs,
      });
      if (result.status === "failed") {
        throw new TransactionFailedError(label, result.err, result.logs, programs);
      }
      if (result.status === "confirmed") {
        return result.signature;
      }
      if (attempt >= attempts) {
        throw new TransactionFailedError(label, "BlockhashExpired", []);
      }
    }
  }
}

/** The JSON-RPC client as lib/vault/send/send-transaction.ts's TransactionRpc. */
function rpcTransport(rpc: RpcClient): TransactionRpc {
  return {
    async send(wire, { skipPreflight }) {
      try {
        return z
          .string()
          .parse(
            await rpc.call("sendTransaction", [
              Buffer.from(wire).toString("base64"),
              { encoding: "base64", skipPreflight, preflightCommitment: "confirmed" },
            ]),
          );
      } catch (error) {
        if (
          error instanceof RpcError &&
          typeof error.data === "object" &&
          error.data !== null &&
          "err" in error.data
        ) {
          const data = error.data as { err: unknown; logs?: unknown };
          const logs = Array.isArray(data.logs)
            ? data.logs.filter((line): line is string => typeof line === "string")
            : [];
          throw new PreflightRefusal(data.err, logs);
        }
        throw error;
      }
    },
    async statuses(signatures, searchHistory) {
      const result = statusesSchema.parse(
        await rpc.call("getSignatureStatuses", [signatures, { searchTransactionHistory: searchHistory }]),
      );
      return result.value.map((status) =>
        status === null
          ? null
          : { err: status.err ?? null, confirmed: status.confirmationStatus !== "processed" },
      );
    },
    blockHeight: async () =>
      z.number().parse(await rpc.call("getBlockHeight", [{ commitment: "confirmed" }])),
  };
}
