// A lean Solana JSON-RPC client: one fetch per call, a bounded timeout, and a count of the calls made
// (the benchmark reports RPC calls per request). Any transport failure or timeout becomes
// ChainUnavailableError, which the HTTP edge answers with 503; a JSON-RPC error object becomes RpcError.
export class ChainUnavailableError extends Error {
  constructor(reason: string) {
    super(`The chain is unreachable: ${reason}`);
  }
}

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
  ) {
    super(message);
  }
}

export interface RpcCallCounts {
  /** Calls made while answering a request. */
  request: number;
  /** Calls made by background refreshers (blockhash, fees, cache refresh). */
  background: number;
}

/** Told of every call: its method, duration and how it ended (the process's metrics listen here). */
export type RpcObserver = (
  method: string,
  seconds: number,
  outcome: "ok" | "rpc_error" | "unavailable",
) => void;

export interface RpcCallOptions {
  background?: boolean;
}

export interface RpcClient {
  readonly url: string;
  readonly counts: RpcCallCounts;
  call<T>(method: string, params: unknown[], options?: RpcCallOptions): Promise<T>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

let nextId = 1;

export function createRpcClient(url: string, timeoutMs: number, observe?: RpcObserver): RpcClient {
  const counts: RpcCallCounts = { request: 0, background: 0 };
  const call = async <T>(method: string, params: unknown[], options: RpcCallOptions = {}): Promise<T> => {
    if (observe === undefined) {
      return callOnce<T>(method, params, options);
    }
    const started = performance.now();
    try {
      const result = await callOnce<T>(method, params, options);
      observe(method, (performance.now() - started) / 1000, "ok");
      return result;
    } catch (error) {
      observe(
        method,
        (performance.now() - started) / 1000,
        error instanceof RpcError ? "rpc_error" : "unavailable",
      );
      throw error;
    }
  };
  const callOnce = async <T>(method: string, params: unknown[], options: RpcCallOptions): Promise<T> => {
    counts[options.background === true ? "background" : "request"] += 1;
    const id = nextId++;
    let body: unknown;
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) {
        throw new ChainUnavailableError(`${method} answered HTTP ${response.status}`);
      }
      body = await response.json();
    } catch (error) {
      if (error instanceof ChainUnavailableError) {
        throw error;
      }
      const reason =
        error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")
          ? `${method} timed out after ${timeoutMs} ms`
          : `${method} failed (${error instanceof Error ? error.message : String(error)})`;
      throw new ChainUnavailableError(reason);
    }
    if (!isRecord(body)) {
      throw new ChainUnavailableError(`${method} returned a body that is not JSON-RPC`);
    }
    if (isRecord(body.error)) {
      const code = typeof body.error.code === "number" ? body.error.code : 0;
      const message = typeof body.error.message === "string" ? body.error.message : "RPC error";
      throw new RpcError(code, message, body.error.data);
    }
    return body.result as T;
  };
  return { url, counts, call };
}
