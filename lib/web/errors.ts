// Errors the pages' data layer throws, kept free of heavy imports so the words for them
// (lib/web/error-words.ts) can be loaded with the first page. The chain being unreachable is
// lib/chain/rpc's ChainUnavailableError, the same error the API's own reads throw.
//
// The words are built from types, codes and typed context only. isWalletRejection, at the end, reads
// the text of a wallet's error, which Wallet Standard wallets report with no code; the chain's
// refusals are typed where they enter the app (lib/web/transaction-flow.ts).
import type { DomainContext } from "../vault/domain-errors";

/** An /api answer with `success: false` (or a body that is not the envelope). */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: string | null = null,
    readonly retryAfterSeconds: number | null = null,
    /** The envelope's `context`, typed by its code; null when the code has none. */
    readonly domain: DomainContext | null = null,
  ) {
    super(message);
    this.name = "ApiRequestError";
  }
}

/** The app's own server did not answer (offline, or the server is down). */
export class AppUnreachableError extends Error {
  constructor(reason: string) {
    super(`The app's server did not answer: ${reason}`);
    this.name = "AppUnreachableError";
  }
}

/** A transaction that landed and failed, or that preflight refused, with the program's error. */
export class TransactionRefusedError extends Error {
  constructor(
    message: string,
    /** The vault program's custom error (6000+), when the vault program is the one that failed. */
    readonly programErrorCode: number | null,
    readonly kind: "custom" | "insufficient-sol" | "blockhash" | "other",
    readonly signature: string | null = null,
    /** That error's name in the program's IDL (e.g. HourlyWithdrawalCapExceeded), when the IDL has it. */
    readonly programErrorName: string | null = null,
  ) {
    super(message);
    this.name = "TransactionRefusedError";
  }
}

/** The blockhash expired twice in a row: the transaction was rebuilt once and expired again. */
export class BlockhashExpiredError extends Error {
  constructor() {
    super("The transaction's blockhash expired before it landed, twice");
    this.name = "BlockhashExpiredError";
  }
}

/** The API prepared another action than the one asked for (the chain's state changed meanwhile). */
export class UnexpectedActionError extends Error {
  constructor(
    readonly expected: string,
    readonly received: string,
  ) {
    super(`Expected a ${expected} transaction, the API prepared a ${received}`);
    this.name = "UnexpectedActionError";
  }
}

/** Confirmed on chain, but POST /api/history failed: the action is done, the feed is behind. */
export class RecordingFailedError extends Error {
  constructor(
    readonly signature: string,
    cause: unknown,
  ) {
    super(`Transaction ${signature} is confirmed but could not be recorded`, { cause });
    this.name = "RecordingFailedError";
  }
}

/**
 * The person stopped waiting for a transaction the network was not answering about. `signed`: the
 * wallet had signed it, so it may have been sent and may still land; otherwise nothing was sent.
 */
export class TransactionStoppedError extends Error {
  constructor(readonly signed: boolean) {
    super(signed ? "Stopped waiting for a signed transaction" : "Stopped before anything was signed");
    this.name = "TransactionStoppedError";
  }
}

/** The wallet is not connected or cannot sign transactions. */
export class WalletUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WalletUnavailableError";
  }
}

const REJECTION = /reject|denied|declined|cancell?ed|user closed|approval/i;

function codeOf(value: unknown): unknown {
  return typeof value === "object" && value !== null && "code" in value ? value.code : null;
}

/**
 * Whether the person refused in their wallet: EIP-1193's code 4001 where the wallet gives it, else a
 * Wallet…Error whose message says so (Wallet Standard errors carry no code).
 */
export function isWalletRejection(error: unknown): boolean {
  const inner = error instanceof Error && "error" in error ? error.error : undefined;
  if (codeOf(error) === 4001 || codeOf(inner) === 4001) {
    return true;
  }
  if (!(error instanceof Error) || !error.name.startsWith("Wallet")) {
    return false;
  }
  const cause = error.cause instanceof Error ? ` ${error.cause.message}` : "";
  return REJECTION.test(`${error.message}${cause}`);
}
