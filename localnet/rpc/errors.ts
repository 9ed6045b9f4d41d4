// JSON-RPC error objects with the codes and wording of a Solana validator (jsonrpc_core for the
// protocol errors, rpc-client-api's custom_error.rs for the -320xx server errors).

export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
export const SEND_TRANSACTION_PREFLIGHT_FAILURE = -32002;
export const TRANSACTION_SIGNATURE_VERIFICATION_FAILURE = -32003;
export const BLOCK_NOT_AVAILABLE = -32004;
export const UNSUPPORTED_TRANSACTION_VERSION = -32015;
export const MIN_CONTEXT_SLOT_NOT_REACHED = -32016;

export const parseError = (): RpcError => new RpcError(PARSE_ERROR, "Parse error");
export const invalidRequest = (message = "Invalid request"): RpcError =>
  new RpcError(INVALID_REQUEST, message);
export const methodNotFound = (): RpcError => new RpcError(METHOD_NOT_FOUND, "Method not found");
export const invalidParams = (message: string): RpcError => new RpcError(INVALID_PARAMS, message);
export const internalError = (): RpcError => new RpcError(INTERNAL_ERROR, "Internal error");

export const signatureVerificationFailure = (): RpcError =>
  new RpcError(TRANSACTION_SIGNATURE_VERIFICATION_FAILURE, "Transaction signature verification failure");

export const blockNotAvailable = (slot: bigint): RpcError =>
  new RpcError(BLOCK_NOT_AVAILABLE, `Block not available for slot ${slot}`);

export const minContextSlotNotReached = (contextSlot: bigint): RpcError =>
  new RpcError(MIN_CONTEXT_SLOT_NOT_REACHED, "Minimum context slot has not been reached", { contextSlot });

export const unsupportedTransactionVersion = (version: number): RpcError =>
  new RpcError(
    UNSUPPORTED_TRANSACTION_VERSION,
    `Transaction version (${version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${version}`,
  );
