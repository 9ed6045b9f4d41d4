// The one error table: every code the API answers with, its HTTP status, and the function that turns
// anything thrown into the spec's envelope. Unknown errors become a generic 500 that reveals nothing.
import { ChainUnavailableError } from "../chain/rpc";
import { StoreUnavailableError } from "../store/db";
import { DomainError, type DomainErrorCode, type DomainErrorContexts } from "../vault/model/domain-errors";
import type { ApiContext } from "./types";
import type { RequestMeta } from "./handler";

export type EdgeErrorCode =
  | "INVALID_REQUEST"
  | "INVALID_JSON"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "RATE_LIMITED"
  | "CHAIN_UNAVAILABLE"
  | "STORE_UNAVAILABLE"
  | "INTERNAL_ERROR";

export type ErrorCode = EdgeErrorCode | DomainErrorCode;

/** The typed facts behind a domain code, sent as the envelope's `context` (see DomainError). */
export type ErrorContext = NonNullable<DomainErrorContexts[DomainErrorCode]>;

export const CODE_TO_STATUS: Readonly<Record<ErrorCode, number>> = {
  INVALID_REQUEST: 400,
  INVALID_JSON: 400,
  INVALID_AMOUNT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  VAULT_NOT_FOUND: 404,
  WEBHOOK_NOT_FOUND: 404,
  DELIVERY_NOT_FOUND: 404,
  TARGET_REFUSED: 400,
  METHOD_NOT_ALLOWED: 405,
  VAULT_PAUSED: 409,
  WITHDRAWAL_PENDING: 409,
  NO_PENDING_WITHDRAWAL: 409,
  WITHDRAWAL_NOT_CLAIMABLE: 409,
  INITIATE_NOT_RECORDED: 409,
  SIGNATURE_CONFLICT: 409,
  DELIVERY_IN_FLIGHT: 409,
  PARTNER_ACCOUNT_MISSING: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INSUFFICIENT_BALANCE: 422,
  WEBHOOK_LIMIT_REACHED: 422,
  INSUFFICIENT_SOL: 422,
  BELOW_MINIMUM: 422,
  AMOUNT_TOO_SMALL: 422,
  CAPACITY_EXCEEDED: 422,
  PARTNER_FEE_ABOVE_MAXIMUM: 422,
  TRANSACTION_NOT_CONFIRMED: 422,
  TRANSACTION_FAILED: 422,
  NOT_A_VAULT_TRANSACTION: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  CHAIN_UNAVAILABLE: 503,
  STORE_UNAVAILABLE: 503,
};

/**
 * Marks an ApiError whichever copy of this module made it: bundlers (Next.js builds each route on its
 * own) can load this file more than once in a process, and `instanceof` only knows its own copy.
 */
const API_ERROR_BRAND = Symbol.for("vault-gateway.api-error");

export class ApiError extends Error {
  readonly [API_ERROR_BRAND] = true;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: string,
    readonly headers: Readonly<Record<string, string>> = {},
    readonly context?: ErrorContext,
  ) {
    super(message);
    this.name = "ApiError";
  }

  get status(): number {
    return CODE_TO_STATUS[this.code];
  }
}

/** An ApiError from this or any other copy of this module. */
export function isApiError(thrown: unknown): thrown is ApiError {
  return typeof thrown === "object" && thrown !== null && API_ERROR_BRAND in thrown;
}

/** Whatever was thrown, as an ApiError; `internal` is true for bugs (logged, never shown). */
export function toApiError(thrown: unknown): { error: ApiError; internal: boolean } {
  if (isApiError(thrown)) {
    return { error: thrown, internal: false };
  }
  if (thrown instanceof DomainError) {
    return {
      error: new ApiError(thrown.code, thrown.message, thrown.details, {}, thrown.context ?? undefined),
      internal: false,
    };
  }
  if (thrown instanceof ChainUnavailableError) {
    return {
      error: new ApiError("CHAIN_UNAVAILABLE", "The blockchain node is unreachable; try again shortly"),
      internal: false,
    };
  }
  if (thrown instanceof StoreUnavailableError) {
    return {
      error: new ApiError("STORE_UNAVAILABLE", "The database is unreachable; try again shortly"),
      internal: false,
    };
  }
  return { error: new ApiError("INTERNAL_ERROR", "Internal error"), internal: true };
}

export interface ErrorBody {
  success: false;
  error: string;
  details?: string;
  code: ErrorCode;
  /** Machine-readable facts behind `code`, shaped per code; clients word errors from code and context. */
  context?: ErrorContext;
  requestId: string;
}

export function errorBody(error: ApiError, requestId: string): ErrorBody {
  return {
    success: false,
    error: error.message,
    ...(error.details === undefined ? {} : { details: error.details }),
    code: error.code,
    ...(error.context === undefined ? {} : { context: error.context }),
    requestId,
  };
}

/**
 * What a wrapper answers for whatever its handler threw: the ApiError, its code noted for the request
 * log; a bug is logged with its stack under the request id and answered as the generic 500.
 */
export function answerFor(thrown: unknown, context: Pick<ApiContext, "log">, meta: RequestMeta): ApiError {
  const { error, internal } = toApiError(thrown);
  if (internal) {
    context.log.log("error", "unhandled error", {
      requestId: meta.requestId,
      error: thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown),
    });
  }
  meta.errorCode = error.code;
  return error;
}
