// withAction: the wrapper of the Solana Actions routes, an audience of its own: no key, limited per
// client IP like the keyless tier → parse path, query and (for POST) the JSON body → run the handler →
// the bare Actions body with the Actions headers (CORS for any origin, X-Action-Version,
// X-Blockchain-Ids). Errors answer the specification's `{ message }` with the status of our error table.
import { ACTIONS_CORS_HEADERS, createActionHeaders } from "@solana/actions";
import { z } from "zod";

import { clientNetwork } from "../client-address";
import type { ApiContext } from "../context";
import { ApiError, answerFor } from "../errors";
import type { ApiHandler, ApiResponse, RequestMeta } from "../handler";
import { rateLimitHeaders } from "../rate-limit";
import { parseInput, readJsonBody, readQuery } from "../request-input";
import { json } from "../responses";
import { PUBLIC_LIMIT } from "../with-public";

/** The version of the Actions specification these routes follow (@solana/actions-spec 2.4). */
export const ACTION_VERSION = "2.4";

/**
 * The CAIP-2 id of the chain behind RPC_URL: `solana:` and the first 32 characters of its genesis hash
 * (which is how mainnet's and devnet's well-known ids are made, and works for the local chain too). The
 * context's genesis watch keeps the hash, so a restarted local chain gets its new id.
 */
export async function blockchainId(context: ApiContext): Promise<string> {
  const hash = context.genesis.current ?? (await context.genesis.check());
  return `solana:${hash.slice(0, 32)}`;
}

/** Every Actions response's headers; without the chain id when the chain cannot be asked for it. */
async function actionHeaders(context: ApiContext): Promise<Record<string, string>> {
  try {
    return {
      ...createActionHeaders({ chainId: await blockchainId(context), actionVersion: ACTION_VERSION }),
      "Cache-Control": "no-store",
    };
  } catch {
    return { ...ACTIONS_CORS_HEADERS, "X-Action-Version": ACTION_VERSION, "Cache-Control": "no-store" };
  }
}

/** The specification's error body. */
export function actionError(error: ApiError, headers: Record<string, string>): ApiResponse {
  return json(error.status, { message: error.message }, { ...error.headers, ...headers });
}

/** The preflight every Actions route answers, with the same headers as its responses. */
export async function actionPreflight(context: ApiContext, allow: string): Promise<ApiResponse> {
  return {
    status: 204,
    headers: { ...(await actionHeaders(context)), Allow: allow, "Access-Control-Max-Age": "86400" },
    body: null,
  };
}

export interface ActionCall<Params, Query, Body> {
  params: Params;
  query: Query;
  body: Body;
  context: ApiContext;
  meta: RequestMeta;
  /** The origin the request came to: the icon and links are absolute against it. */
  origin: string;
}

export interface ActionOptions<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType | undefined> {
  params: P;
  query: Q;
  /** The JSON body's schema (POST); undefined for none (GET). */
  body: B;
}

type BodyOf<B> = B extends z.ZodType ? z.output<B> : undefined;

export function withAction<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType | undefined>(
  handler: (call: ActionCall<z.output<P>, z.output<Q>, BodyOf<B>>) => Promise<object>,
  options: ActionOptions<P, Q, B>,
): ApiHandler {
  return async (request, context, meta) => {
    const headers = await actionHeaders(context);
    try {
      const limit = context.publicLimit ?? PUBLIC_LIMIT;
      const decision = await context.limiter.consume(
        { bucket: "actions", ...limit },
        clientNetwork(request, context.config.trustedProxyCount),
      );
      Object.assign(headers, rateLimitHeaders(decision));
      if (!decision.allowed) {
        throw new ApiError(
          "RATE_LIMITED",
          `Too many requests from this address: ${decision.limit} per ${limit.windowSeconds} s; try again in ${decision.retryAfter} s`,
        );
      }
      const params = parseInput(options.params, meta.params);
      const query = parseInput(options.query, readQuery(request, meta.url));
      const body = (
        options.body === undefined ? undefined : parseInput(options.body, await readJsonBody(request))
      ) as BodyOf<B>;
      const result = await handler({ params, query, body, context, meta, origin: meta.url.origin });
      return json(200, result, headers);
    } catch (thrown) {
      return actionError(answerFor(thrown, context, meta), headers);
    }
  };
}
