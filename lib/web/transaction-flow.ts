// The spec's client flow for a built transaction: build via /api → deserialize → simulate → the wallet
// signs → submit → confirm → record with POST /api/history. An expired blockhash is not resubmitted:
// the transaction is rebuilt and the wallet asked again, once. Failures are thrown as they are (or
// translated into the typed errors of lib/web/errors.ts and ChainUnavailableError); nothing is reported done before it is
// confirmed.
import {
  SendTransactionError,
  TransactionExpiredBlockheightExceededError,
  VersionedTransaction,
  type Connection,
  type TransactionError,
} from "@solana/web3.js";

import { ChainUnavailableError } from "../chain/rpc";
import { vaultErrorFromCode } from "../vault/program-errors";
import {
  BlockhashExpiredError,
  RecordingFailedError,
  TransactionRefusedError,
  isBlockhashNotFoundText,
  isInsufficientSolText,
  isWalletRejection,
  programErrorCodeIn,
} from "./errors";

export type FlowStage = "preparing" | "signing" | "sending" | "confirming" | "recording";

export interface FlowEvents {
  stage(stage: FlowStage): void;
  /** The blockhash expired: the transaction was rebuilt and the wallet is being asked again. */
  rebuilt(): void;
}

export interface BuiltTransaction {
  transaction: string;
  lastValidBlockHeight: number;
}

export interface FlowDeps {
  connection: Pick<
    Connection,
    "simulateTransaction" | "sendRawTransaction" | "confirmTransaction" | "getSignatureStatuses"
  >;
  signTransaction(transaction: VersionedTransaction): Promise<VersionedTransaction>;
  events: FlowEvents;
  /** Attempts of POST /api/history before giving up (the chain's answer may lag a moment). */
  recordAttempts?: number;
  recordRetryMs?: number;
}

export interface FlowResult<P, R> {
  prepared: P;
  signature: string;
  /** What POST /api/history answered: the action as the chain's events show it. */
  recorded: R;
}

/** Thrown inside the loop when the blockhash expired: caught there, and only there, to rebuild. */
class ExpiredSignal extends Error {}

function decode(base64: string): VersionedTransaction {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) {
    bytes[index] = binary.charCodeAt(index);
  }
  return VersionedTransaction.deserialize(bytes);
}

function describeTransactionError(error: TransactionError | string | object): string {
  return typeof error === "string" ? error : JSON.stringify(error);
}

function refusal(text: string, signature: string | null): TransactionRefusedError {
  if (isInsufficientSolText(text)) {
    return new TransactionRefusedError(text, null, "insufficient-sol", signature);
  }
  const code = programErrorCodeIn(text);
  return new TransactionRefusedError(
    text,
    code,
    code === null ? "other" : "custom",
    signature,
    code === null ? null : (vaultErrorFromCode(code)?.name ?? null),
  );
}

function isNetworkFailure(error: unknown): boolean {
  if (error instanceof ChainUnavailableError) {
    return true;
  }
  const text = error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : String(error);
  return /failed to fetch|fetch failed|networkerror|ECONNREFUSED|load failed/i.test(text);
}

/**
 * What a wallet's signing failure means: wallets that simulate before signing report the chain's
 * refusal (no SOL for the fee, a program error, an expired blockhash) only as text, turned here into
 * the typed errors the pages word; a refusal in the wallet, or anything else, is thrown as it came.
 */
function signingFailure(error: unknown): unknown {
  if (isWalletRejection(error)) {
    return error;
  }
  const cause = error instanceof Error && error.cause instanceof Error ? ` ${error.cause.message}` : "";
  const text = error instanceof Error ? `${error.message}${cause}` : typeof error === "string" ? error : "";
  if (isInsufficientSolText(text) || programErrorCodeIn(text) !== null) {
    return refusal(text, null);
  }
  if (isBlockhashNotFoundText(text)) {
    return new BlockhashExpiredError();
  }
  return error;
}

async function simulate(deps: FlowDeps, transaction: VersionedTransaction): Promise<void> {
  const result = await deps.connection.simulateTransaction(transaction, {
    sigVerify: false,
    replaceRecentBlockhash: false,
    commitment: "confirmed",
  });
  const err = result.value.err;
  if (err === null) {
    return;
  }
  const text = `${describeTransactionError(err)} ${(result.value.logs ?? []).join(" ")}`;
  if (isBlockhashNotFoundText(text)) {
    throw new ExpiredSignal();
  }
  throw refusal(text, null);
}

async function send(deps: FlowDeps, signed: VersionedTransaction): Promise<string> {
  try {
    return await deps.connection.sendRawTransaction(signed.serialize(), {
      preflightCommitment: "confirmed",
      maxRetries: 5,
    });
  } catch (error) {
    if (error instanceof SendTransactionError) {
      const text = `${error.message} ${(error.logs ?? []).join(" ")}`;
      if (isBlockhashNotFoundText(text)) {
        throw new ExpiredSignal();
      }
      throw refusal(text, null);
    }
    throw error;
  }
}

async function confirm(
  deps: FlowDeps,
  signed: VersionedTransaction,
  signature: string,
  lastValidBlockHeight: number,
) {
  let result;
  try {
    result = await deps.connection.confirmTransaction(
      { signature, blockhash: signed.message.recentBlockhash, lastValidBlockHeight },
      "confirmed",
    );
  } catch (error) {
    if (error instanceof TransactionExpiredBlockheightExceededError) {
      // Past its last valid block height, as far as the confirmation saw: a subscription that missed
      // the landing looks the same. Ask the chain for the signature before building another
      // transaction, so one that landed is never sent (and paid) twice.
      const landed = await landedStatus(deps, signature);
      if (landed === null) {
        throw new ExpiredSignal();
      }
      if (landed.err !== null) {
        throw refusal(describeTransactionError(landed.err), signature);
      }
      return;
    }
    throw error;
  }
  if (result.value.err !== null) {
    throw refusal(describeTransactionError(result.value.err), signature);
  }
}

/** The signature's status if the chain has it (any commitment, history searched), else null. */
async function landedStatus(
  deps: FlowDeps,
  signature: string,
): Promise<{ err: TransactionError | null } | null> {
  const { value } = await deps.connection.getSignatureStatuses([signature], {
    searchTransactionHistory: true,
  });
  const status = value[0];
  return status === null || status === undefined ? null : { err: status.err };
}

async function recordWithRetry<R>(
  deps: FlowDeps,
  record: (signature: string) => Promise<R>,
  signature: string,
): Promise<R> {
  const attempts = deps.recordAttempts ?? 4;
  let lastError: unknown = null;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    try {
      return await record(signature);
    } catch (error) {
      lastError = error;
      if (attempt < attempts) {
        await new Promise((resolve) => setTimeout(resolve, (deps.recordRetryMs ?? 750) * attempt));
      }
    }
  }
  throw new RecordingFailedError(signature, lastError);
}

/** Runs the whole flow; returns once the transaction is confirmed and recorded. */
export async function runVaultTransaction<P extends BuiltTransaction, R>(
  deps: FlowDeps,
  build: () => Promise<P>,
  record: (signature: string) => Promise<R>,
  check: (prepared: P) => void = () => undefined,
): Promise<FlowResult<P, R>> {
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    deps.events.stage("preparing");
    const prepared = await build();
    check(prepared);
    const transaction = decode(prepared.transaction);
    try {
      try {
        await simulate(deps, transaction);
      } catch (error) {
        if (isNetworkFailure(error)) {
          throw error instanceof ChainUnavailableError
            ? error
            : new ChainUnavailableError(error instanceof Error ? error.message : String(error));
        }
        throw error;
      }
      deps.events.stage("signing");
      let signed: VersionedTransaction;
      try {
        signed = await deps.signTransaction(transaction);
      } catch (error) {
        throw signingFailure(error);
      }
      deps.events.stage("sending");
      let signature: string;
      try {
        signature = await send(deps, signed);
      } catch (error) {
        if (isNetworkFailure(error)) {
          throw error instanceof ChainUnavailableError
            ? error
            : new ChainUnavailableError(error instanceof Error ? error.message : String(error));
        }
        throw error;
      }
      deps.events.stage("confirming");
      await confirm(deps, signed, signature, prepared.lastValidBlockHeight);
      deps.events.stage("recording");
      const recorded = await recordWithRetry(deps, record, signature);
      return { prepared, signature, recorded };
    } catch (error) {
      if (!(error instanceof ExpiredSignal)) {
        throw error;
      }
      if (attempt === 2) {
        throw new BlockhashExpiredError();
      }
      deps.events.rebuilt();
    }
  }
  throw new BlockhashExpiredError();
}
