// The pages' (and the partner client's) Connection fetches through chainFetch, so a request that got no
// answer is known by its type where it is caught (lib/web/chain-reader's reads, lib/vault/send/transaction-flow)
// rather than by the words of the platform's or web3.js's message.

/**
 * A request to the RPC that got no answer (the platform's fetch failed) or that a gateway answered for
 * an unreachable node (502, 503, 504). Typed where it happens, in the Connection's fetch, so a read
 * need not recognise it by its words. Its name, message and cause are the ones the caller saw before
 * this type existed (the platform's error; web3.js's text for an HTTP failure), so what a person is
 * shown of it is unchanged.
 */
export class RpcTransportError extends Error {
  constructor(
    message: string,
    /** The gateway's status; null when there was no answer. */
    readonly status: number | null,
    from?: Error,
  ) {
    super(message, from === undefined ? undefined : { cause: from.cause });
    this.name = from?.name ?? "Error";
  }
}

const GATEWAY_FAILURES: ReadonlySet<number> = new Set([502, 503, 504]);

/** The Connection's fetch. web3.js hands an error its fetch throws on as it is (getAccountInfo excepted, so reads use getAccountInfoAndContext). */
export const chainFetch: typeof fetch = async (input, init) => {
  let response: Response;
  try {
    response = await fetch(input, init);
  } catch (error) {
    throw error instanceof Error
      ? new RpcTransportError(error.message, null, error)
      : new RpcTransportError(String(error), null);
  }
  if (GATEWAY_FAILURES.has(response.status)) {
    throw new RpcTransportError(
      `${response.status} ${response.statusText}: ${await response.text()}`,
      response.status,
    );
  }
  return response;
};
