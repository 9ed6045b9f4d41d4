// Errors the pages' data layer throws, kept free of heavy imports so the words for them
// (lib/web/error-words.ts) can be loaded with the first page. The chain being unreachable is
// lib/chain/rpc's ChainUnavailableError, the same error the API's own reads throw.
//
// The words are built from types, codes and typed context only. The few functions at the end read
// the text of errors that other software throws with nothing better to go on (the RPC node's and the
// runtime's failure texts, a wallet's refusal); they are called where those errors enter the app
// (lib/web/transaction-flow.ts), which turns them into the typed errors above.
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
    /** The vault program's custom error (6000+), when the failure carried one. */
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

const CUSTOM_ERROR = /custom program error: 0x([0-9a-f]+)/i;
const CUSTOM_JSON = /"Custom":\s*(\d+)/;

/** The vault program's error code in a message or JSON error, if any. */
export function programErrorCodeIn(text: string): number | null {
  const hex = CUSTOM_ERROR.exec(text);
  if (hex?.[1] !== undefined) {
    return Number.parseInt(hex[1], 16);
  }
  const json = CUSTOM_JSON.exec(text);
  return json?.[1] === undefined ? null : Number(json[1]);
}

/** How the RPC and runtime describe "the fee payer cannot pay". */
export function isInsufficientSolText(text: string): boolean {
  return /insufficient funds for (fee|rent)|InsufficientFundsForFee|InsufficientFundsForRent|found no record of a prior credit|insufficient lamports/i.test(
    text,
  );
}

export function isBlockhashNotFoundText(text: string): boolean {
  return /blockhash not found|BlockhashNotFound|block height exceeded|has expired/i.test(text);
}
