// Errors the pages' data layer throws, kept free of heavy imports so the words for them
// (lib/web/error-words.ts) can be loaded with the first page: the pages' own below, and those of a
// transaction's way to the chain, shared with the typed client (lib/vault/send/transaction-errors.ts). The
// chain being unreachable is lib/chain/rpc's ChainUnavailableError, the same error the API's own
// reads throw. The words are built from types, codes and typed context only.
import { ChainUnavailableError } from "../chain/rpc";
import { ApiRequestError } from "../vault/send/transaction-errors";

export {
  ApiRequestError,
  BlockhashExpiredError,
  RecordingFailedError,
  TransactionRefusedError,
  isWalletRejection,
} from "../vault/send/transaction-errors";

/** The app's own server did not answer (offline, or the server is down). */
export class AppUnreachableError extends Error {
  constructor(reason: string) {
    super(`The app's server did not answer: ${reason}`);
    this.name = "AppUnreachableError";
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

/** The person cancelled at the confirm step, before the wallet was asked: nothing was signed. */
export class TransactionCancelledError extends Error {
  constructor() {
    super("Cancelled before the wallet was asked");
    this.name = "TransactionCancelledError";
  }
}

/** The wallet is not connected or cannot sign transactions. */
export class WalletUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WalletUnavailableError";
  }
}

/**
 * The chain did not answer: the browser's own read (ChainUnavailableError) or the app's server's
 * (503 CHAIN_UNAVAILABLE). The page says it once (components/ui/chain-stall-notice.tsx) and asks again.
 */
export function isChainStall(error: unknown): boolean {
  return (
    error instanceof ChainUnavailableError ||
    (error instanceof ApiRequestError && error.code === "CHAIN_UNAVAILABLE")
  );
}
