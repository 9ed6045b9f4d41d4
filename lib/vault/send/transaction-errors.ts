// The errors of a built transaction's way from the API to the chain, shared by the typed client
// (lib/client) and the pages (lib/web/errors.ts re-exports them beside the pages' own): the API's
// refusal, the chain's refusal (typed where it enters, lib/vault/send/transaction-flow.ts), an expired
// blockhash, a confirmed transaction the history did not take, and a refusal in the wallet.
// Free of heavy imports, so the pages' error words can name them with the first page.
import type { DomainContext } from "../model/domain-errors";

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
