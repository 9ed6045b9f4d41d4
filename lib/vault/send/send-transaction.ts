// Sending a signed transaction, confirming it and naming its failure, written once for every sender:
// the pages' and the typed client's flow (./transaction-flow.ts), the operator CLIs and the keeper
// (lib/operator/chain-client.ts) and the local chain's walkthrough. The local chain's own
// transactions (localnet/local-transactions.ts) and the program tests' LiteSVM harness run in the
// process, with no RPC to send through; they share the failure decoder (./transaction-failure.ts).
//
// Confirmation polls the signatures' statuses until each is confirmed or the blockhash's last valid
// block height has passed; then it searches the node's history once, so a transaction that landed
// unseen is never reported expired (and so never rebuilt, signed and paid for twice). A refusal, by
// the node's preflight or after landing, comes back as a result decoded by ./transaction-failure.ts,
// never as an exception; an RPC that does not answer throws, as its transport does.
import { SendTransactionError, type Connection } from "@solana/web3.js";

import {
  decodeTransactionFailure,
  transactionErrorInText,
  type TransactionFailure,
} from "./transaction-failure";

/** A signature's status: its error (null when it succeeded) and whether it reached `confirmed`. */
export interface SignatureState {
  err: unknown;
  confirmed: boolean;
}

/** What sending needs of an RPC: web3.js's Connection (connectionRpc) and the operators' JSON-RPC client are two. */
export interface TransactionRpc {
  /** Sends the wire transaction; resolves to its signature; rejects with PreflightRefusal when the preflight refuses it. */
  send(wire: Uint8Array, options: { skipPreflight: boolean }): Promise<string>;
  /** Each signature's state in order, null where the node does not know it. */
  statuses(
    signatures: readonly string[],
    searchHistory: boolean,
  ): Promise<readonly (SignatureState | null)[]>;
  blockHeight(): Promise<number>;
}

/** The node's preflight refused the transaction: its TransactionError (as the RPC encodes it) and logs. */
export class PreflightRefusal extends Error {
  constructor(
    readonly err: unknown,
    readonly logs: readonly string[],
  ) {
    super(typeof err === "string" ? err : JSON.stringify(err));
    this.name = "PreflightRefusal";
  }
}

/** A transaction the chain refused: by preflight (no signature) or after it landed (its signature). */
export interface Refused {
  status: "failed";
  signature: string | null;
  err: unknown;
  logs: readonly string[];
  failure: TransactionFailure;
}

export type Sent = { status: "sent"; signature: string } | Refused;

export type Confirmation = { status: "confirmed"; err: unknown } | { status: "expired" };

export type SendResult =
  { status: "confirmed"; signature: string } | { status: "expired"; signature: string } | Refused;

export interface SendOptions {
  /** Each top-level instruction's program, in order: they name the program of an InstructionError. */
  programs: readonly string[];
  skipPreflight?: boolean;
}

const POLL_MS = 400;
/** getSignatureStatuses takes at most 256 signatures a call. */
const MAX_STATUSES_PER_CALL = 256;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function refused(
  err: unknown,
  logs: readonly string[],
  programs: readonly string[],
  signature: string | null,
): Refused {
  return {
    status: "failed",
    signature,
    err,
    logs,
    failure: decodeTransactionFailure(err, { logs, programs }),
  };
}

/** Sends a signed transaction: its signature, or the preflight's refusal decoded. */
export async function sendSigned(rpc: TransactionRpc, wire: Uint8Array, options: SendOptions): Promise<Sent> {
  try {
    return {
      status: "sent",
      signature: await rpc.send(wire, { skipPreflight: options.skipPreflight ?? false }),
    };
  } catch (error) {
    if (error instanceof PreflightRefusal) {
      return refused(error.err, error.logs, options.programs, null);
    }
    throw error;
  }
}

async function statesOf(
  rpc: TransactionRpc,
  signatures: readonly string[],
  searchHistory: boolean,
): Promise<Map<string, SignatureState>> {
  const states = new Map<string, SignatureState>();
  for (let start = 0; start < signatures.length; start += MAX_STATUSES_PER_CALL) {
    const batch = signatures.slice(start, start + MAX_STATUSES_PER_CALL);
    const answer = await rpc.statuses(batch, searchHistory);
    batch.forEach((signature, index) => {
      const state = answer[index];
      if (state !== null && state !== undefined) {
        states.set(signature, state);
      }
    });
  }
  return states;
}

/**
 * Polls until every signature is confirmed or the last valid block height has passed; a signature
 * then still unseen is looked up in the history once before it is called expired.
 */
export async function confirmSignatures(
  rpc: TransactionRpc,
  signatures: readonly string[],
  lastValidBlockHeight: number,
  pollMs = POLL_MS,
): Promise<Map<string, Confirmation>> {
  const outcomes = new Map<string, Confirmation>();
  let pending = [...signatures];
  const settle = (states: Map<string, SignatureState>, landedIsEnough: boolean) => {
    for (const [signature, state] of states) {
      if (state.confirmed || landedIsEnough) {
        outcomes.set(signature, { status: "confirmed", err: state.err ?? null });
      }
    }
    pending = pending.filter((signature) => !outcomes.has(signature));
  };
  for (;;) {
    settle(await statesOf(rpc, pending, false), false);
    if (pending.length === 0) {
      return outcomes;
    }
    if ((await rpc.blockHeight()) > lastValidBlockHeight) {
      settle(await statesOf(rpc, pending, true), true);
      for (const signature of pending) {
        outcomes.set(signature, { status: "expired" });
      }
      return outcomes;
    }
    await sleep(pollMs);
  }
}

/** Sends a signed transaction and waits for it: confirmed, expired unlanded, or refused (decoded). */
export async function sendAndConfirm(
  rpc: TransactionRpc,
  wire: Uint8Array,
  lastValidBlockHeight: number,
  options: SendOptions & { pollMs?: number; onSent?: (signature: string) => void },
): Promise<SendResult> {
  const sent = await sendSigned(rpc, wire, options);
  if (sent.status === "failed") {
    return sent;
  }
  const { signature } = sent;
  options.onSent?.(signature);
  const outcome = (await confirmSignatures(rpc, [signature], lastValidBlockHeight, options.pollMs)).get(
    signature,
  );
  if (outcome === undefined || outcome.status === "expired") {
    return { status: "expired", signature };
  }
  return outcome.err === null
    ? { status: "confirmed", signature }
    : refused(outcome.err, [], options.programs, signature);
}

/** A web3.js Connection as a TransactionRpc (the pages, the typed client, the walkthrough). */
export function connectionRpc(
  connection: Pick<Connection, "sendRawTransaction" | "getSignatureStatuses" | "getBlockHeight">,
): TransactionRpc {
  return {
    async send(wire, { skipPreflight }) {
      try {
        return await connection.sendRawTransaction(wire, {
          skipPreflight,
          preflightCommitment: "confirmed",
          maxRetries: 5,
        });
      } catch (error) {
        if (error instanceof SendTransactionError) {
          // web3.js keeps only the preflight's message, which states the typed err (transactionErrorInText).
          const { message, logs } = error.transactionError;
          throw new PreflightRefusal(transactionErrorInText(message) ?? message, logs ?? []);
        }
        throw error;
      }
    },
    async statuses(signatures, searchHistory) {
      const { value } = await connection.getSignatureStatuses([...signatures], {
        searchTransactionHistory: searchHistory,
      });
      return value.map((status) =>
        status === null ? null : { err: status.err, confirmed: status.confirmationStatus !== "processed" },
      );
    },
    blockHeight: () => connection.getBlockHeight("confirmed"),
  };
}
