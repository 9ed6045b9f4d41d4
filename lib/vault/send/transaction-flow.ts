// The spec's client flow for a built transaction: build via /api → deserialize → check it against the
// request (deps.verify, lib/vault/operations/verify-transaction.ts) → simulate, reading the wallet's balance
// changes, and check them → the wallet signs → submit → confirm (./send-transaction.ts, the senders'
// one module) → record with POST /api/history. Nothing
// the check refuses reaches the wallet. An expired blockhash is not resubmitted:
// the transaction is rebuilt and the wallet asked again, once. Failures are thrown as they are (or
// translated into the typed errors of ./transaction-errors.ts and ChainUnavailableError); nothing is
// reported done before it is confirmed. The chain's refusals are read from the TransactionError the
// RPC returns (simulation, confirmation, signature status) by ./transaction-failure.ts, the decoder
// every sender shares, and turned into the typed error here, by one function, typedRefusal.
import { PublicKey, VersionedTransaction, type Connection, type TransactionError } from "@solana/web3.js";

import { ChainUnavailableError } from "../../chain/rpc";
import { RpcTransportError } from "../../chain/rpc-transport";
import { connectionRpc, sendAndConfirm } from "./send-transaction";
import {
  decodeTransactionFailure,
  transactionErrorInText,
  type TransactionFailure,
} from "./transaction-failure";
import { balanceChanges, watchedAddresses, type BalanceChanges } from "../operations/balance-changes";
import {
  checkBalanceChanges,
  vaultTransactionVerifier,
  type BuildAnswer,
  type CheckOptions,
  type OperationRequest,
  type VerifiedTransaction,
} from "../operations/verify-transaction";
import {
  BlockhashExpiredError,
  RecordingFailedError,
  TransactionRefusedError,
  isWalletRejection,
} from "./transaction-errors";

export type FlowStage = "preparing" | "reviewing" | "signing" | "sending" | "confirming" | "recording";

export interface FlowEvents {
  stage(stage: FlowStage): void;
  /** The blockhash expired: the transaction was rebuilt and the wallet is being asked again. */
  rebuilt(): void;
  /** The transaction passed the check and its simulation: what it does, before the wallet is asked. */
  previewed?(preview: TransactionPreview): void;
}

/** A checked transaction and the wallet's balance changes its simulation showed. */
export interface TransactionPreview {
  verified: VerifiedTransaction;
  changes: BalanceChanges;
}

export interface BuiltTransaction extends BuildAnswer {
  transaction: string;
  lastValidBlockHeight: number;
}

export interface FlowDeps {
  connection: Pick<
    Connection,
    | "simulateTransaction"
    | "sendRawTransaction"
    | "getBlockHeight"
    | "getSignatureStatuses"
    | "getMultipleAccountsInfo"
  >;
  /**
   * Checks the built transaction against the request and the build's own preview (a deposit's
   * estimate) before anything else sees it, throwing what did not match
   * (lib/vault/operations/verify-transaction.ts's vaultTransactionVerifier).
   */
  verify(transaction: VersionedTransaction, built: BuildAnswer): Promise<VerifiedTransaction>;
  /**
   * The person's go-ahead after the preview and before the wallet is asked (the pages' confirm step):
   * resolves to have the wallet sign, rejects to stop with nothing signed. Without it (the typed
   * client, whose caller checks `preview` in its result or through events) the wallet is asked at once.
   */
  confirm?(preview: TransactionPreview): Promise<void>;
  signTransaction(transaction: VersionedTransaction): Promise<VersionedTransaction>;
  events: FlowEvents;
  /** Attempts of POST /api/history before giving up (the chain's answer may lag a moment). */
  recordAttempts?: number;
  recordRetryMs?: number;
  /** How often the confirmation asks for the signature's status (default 400 ms). */
  confirmPollMs?: number;
}

export interface FlowResult<P, R> {
  prepared: P;
  signature: string;
  /** The check's findings and the simulated balance changes of the transaction that was signed. */
  preview: TransactionPreview;
  /** What POST /api/history answered: the action as the chain's events show it. */
  recorded: R;
}

/** The check's bounds as the pages hold them: the partner's wallet as text. */
export type PageCheckOptions = Omit<CheckOptions, "partner"> & { partner?: string };

/**
 * The check of every transaction built for `request` on the vault for the wallet (addresses as text,
 * as the pages hold them), for FlowDeps.verify.
 */
export function transactionCheck(
  connection: Pick<Connection, "getAccountInfo">,
  target: { vault: string; wallet: string },
  request: OperationRequest,
  { partner, ...options }: PageCheckOptions = {},
): FlowDeps["verify"] {
  return vaultTransactionVerifier(
    connection,
    { ...request, vault: new PublicKey(target.vault), wallet: new PublicKey(target.wallet) },
    partner === undefined ? options : { ...options, partner: new PublicKey(partner) },
  );
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

/** The transaction's top-level programs, in instruction order (a program id is always a static key). */
function programsOf(transaction: VersionedTransaction): string[] {
  const { compiledInstructions, staticAccountKeys } = transaction.message;
  return compiledInstructions.map(
    (instruction) => staticAccountKeys[instruction.programIdIndex]?.toBase58() ?? "",
  );
}

interface RefusalSite {
  /** The transaction that failed: its instructions name the program of an InstructionError. */
  transaction: VersionedTransaction;
  /** The simulation's (or preflight's) logs; null where the wallet gave none. */
  logs: readonly string[] | null;
}

/**
 * What a decoded refusal (./transaction-failure.ts) means for the person: no SOL to pay, an expired
 * blockhash (the ExpiredSignal to rebuild, unless it landed: a landed transaction is never rebuilt and
 * sent again), the vault program's error (named by its IDL), or any other failure.
 */
function typedRefusal(
  error: unknown,
  failure: TransactionFailure,
  signature: string | null,
): TransactionRefusedError | ExpiredSignal {
  const message = typeof error === "string" ? error : JSON.stringify(error);
  if (failure.kind === "blockhash") {
    return signature === null
      ? new ExpiredSignal(message)
      : new TransactionRefusedError(message, null, "other", signature);
  }
  return new TransactionRefusedError(
    message,
    failure.kind === "custom" ? failure.customCode : null,
    failure.kind,
    signature,
    failure.vaultError?.name ?? null,
  );
}

/** The chain's refusal of a transaction not sent (its simulation, or the wallet's), decoded and typed. */
function chainRefusal(error: TransactionError, site: RefusalSite): TransactionRefusedError | ExpiredSignal {
  const failure = decodeTransactionFailure(error, {
    logs: site.logs,
    programs: programsOf(site.transaction),
  });
  return typedRefusal(error, failure, null);
}

/**
 * The platform's own fetch failure, for a Connection that does not fetch through chainFetch (a
 * partner's, handed to lib/client): the Fetch standard rejects with a TypeError whose message each
 * platform words differently, so only those words tell it from a bug. A JSON-RPC error is never a
 * TypeError, so an address or a node's message in one cannot pass for an outage.
 */
function isUntypedFetchFailure(error: unknown): error is TypeError {
  return (
    error instanceof TypeError && /failed to fetch|fetch failed|networkerror|load failed/i.test(error.message)
  );
}

/** The RPC did not answer: chainFetch's RpcTransportError, or the platform's failure on another Connection. */
function networkFailure(error: unknown): ChainUnavailableError | null {
  if (error instanceof ChainUnavailableError) {
    return error;
  }
  if (error instanceof RpcTransportError || isUntypedFetchFailure(error)) {
    return new ChainUnavailableError(error.message);
  }
  return null;
}

/**
 * What a wallet's signing failure means: wallets that simulate before signing report the chain's
 * refusal (no SOL for the fee, a program error, an expired blockhash) only as text, read here in the
 * node's words into the typed errors the pages word; a refusal in the wallet, or anything else, is
 * thrown as it came.
 */
function signingFailure(error: unknown, transaction: VersionedTransaction): unknown {
  if (isWalletRejection(error)) {
    return error;
  }
  const cause = error instanceof Error && error.cause instanceof Error ? ` ${error.cause.message}` : "";
  const text = error instanceof Error ? `${error.message}${cause}` : typeof error === "string" ? error : "";
  const stated = transactionErrorInText(text);
  if (stated === null) {
    return error;
  }
  const refusal = chainRefusal(stated, { transaction, logs: null });
  // Nothing was sent: an expired blockhash here is said, not rebuilt behind the wallet's back.
  return refusal instanceof ExpiredSignal ? new BlockhashExpiredError() : refusal;
}

/** Simulates, reading the wallet's balances before and after; refuses changes the operation cannot make. */
async function simulate(
  deps: FlowDeps,
  transaction: VersionedTransaction,
  verified: VerifiedTransaction,
): Promise<TransactionPreview> {
  const addresses = watchedAddresses(verified.watched);
  const before = await deps.connection.getMultipleAccountsInfo(addresses, "confirmed");
  const result = await deps.connection.simulateTransaction(transaction, {
    sigVerify: false,
    replaceRecentBlockhash: false,
    commitment: "confirmed",
    accounts: { encoding: "base64", addresses: addresses.map((address) => address.toBase58()) },
  });
  const { err, logs, accounts } = result.value;
  if (err !== null) {
    throw chainRefusal(err, { transaction, logs });
  }
  const changes = balanceChanges(before, accounts ?? []);
  checkBalanceChanges(verified, changes);
  return { verified, changes };
}

/**
 * Sends the signed transaction and waits for it to confirm (./send-transaction.ts, which decodes a
 * refusal once); returns its signature.
 */
async function sendAndWait(
  deps: FlowDeps,
  signed: VersionedTransaction,
  lastValidBlockHeight: number,
): Promise<string> {
  try {
    const result = await sendAndConfirm(
      connectionRpc(deps.connection),
      signed.serialize(),
      lastValidBlockHeight,
      {
        programs: programsOf(signed),
        pollMs: deps.confirmPollMs,
        onSent: () => deps.events.stage("confirming"),
      },
    );
    if (result.status === "confirmed") {
      return result.signature;
    }
    throw result.status === "expired"
      ? new ExpiredSignal()
      : typedRefusal(result.err, result.failure, result.signature);
  } catch (error) {
    throw networkFailure(error) ?? error;
  }
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
      let preview: TransactionPreview;
      try {
        preview = await simulate(deps, transaction, await deps.verify(transaction, prepared));
      } catch (error) {
        throw networkFailure(error) ?? error;
      }
      deps.events.previewed?.(preview);
      if (deps.confirm !== undefined) {
        deps.events.stage("reviewing");
        await deps.confirm(preview);
      }
      deps.events.stage("signing");
      let signed: VersionedTransaction;
      try {
        signed = await deps.signTransaction(transaction);
      } catch (error) {
        throw signingFailure(error, transaction);
      }
      deps.events.stage("sending");
      const signature = await sendAndWait(deps, signed, prepared.lastValidBlockHeight);
      deps.events.stage("recording");
      const recorded = await recordWithRetry(deps, record, signature);
      return { prepared, signature, preview, recorded };
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
