// withPartnerKey: the wrapper of every partner route, one small step each: authenticate → rate-limit
// by key id (and by session, for the pages) → check scope → parse input → check the key's vault and wallet → run the handler → answer
// in the envelope, with X-RateLimit-* on every response, success or error.
import type { PublicKey } from "@solana/web3.js";
import { z } from "zod";

import { base58Of } from "../chain/base58";
import type { KeyScope } from "../store/api-keys";
import { clientNetwork } from "./client-address";
import type { ApiContext } from "./context";
import { authenticate, type Principal } from "./credentials";
import { ApiError, answerFor, isApiError } from "./errors";
import type { ApiHandler, ApiRequest, RequestMeta } from "./handler";
import { rateLimitHeaders, type RateLimitDecision } from "./rate-limit";
import { parseInput, parseInputOnce, readJsonBody, readQuery } from "./request-input";
import { envelope, envelopeError } from "./responses";

/** Failed authentications per client IP per minute before 429. */
const AUTH_FAILURES_PER_MINUTE = 30;

export interface PartnerCall<Input, Params> {
  input: Input;
  params: Params;
  principal: Principal;
  context: ApiContext;
  request: ApiRequest;
  meta: RequestMeta;
}

export interface PartnerOptions<S extends z.ZodType, P extends z.ZodType> {
  scope: KeyScope;
  /**
   * Public data the app's own pages read without a session (a credential source's visitor:
   * first-party-session.ts pageVisitorPrincipal): the directory, a vault's NAV and statistics. Never a wallet's data, never a
   * transaction.
   */
  openToPages?: boolean;
  input: { from: "body" | "query"; schema: S };
  params?: P;
  /**
   * The vault and wallet the request acts on, checked against the key's restrictions; null when the
   * request names none (a directory read, a portfolio across vaults).
   */
  target(input: z.output<S>, params: z.output<P>): RequestTarget;
}

export interface RequestTarget {
  vault: PublicKey | null;
  wallet: PublicKey | null;
}

const noParams = z.object({});

function rateLimited(decision: RateLimitDecision, what: string): ApiError {
  return new ApiError(
    "RATE_LIMITED",
    `Rate limit exceeded: ${decision.limit} requests per ${what}; retry after ${decision.retryAfter} s`,
  );
}

/** The first credential source's visitor for a request that presented no accepted credential. */
function visitorOf(request: ApiRequest, context: ApiContext): Principal | null {
  for (const source of context.credentialSources) {
    const visitor = source.visitor?.(request, context) ?? null;
    if (visitor !== null) {
      return visitor;
    }
  }
  return null;
}

const AUTH_FAILURE_RULE = { bucket: "auth-failure", limit: AUTH_FAILURES_PER_MINUTE, windowSeconds: 60 };

/**
 * Authenticates, with the failure budget of the client's network checked first: a network that has
 * used it up is refused before its credential is looked up (no store query, no key-hash work), and
 * each failure counts against it.
 */
async function authenticateOrLimit(
  request: ApiRequest,
  context: ApiContext,
  openToPages: boolean,
): Promise<{ principal: Principal } | { failure: ApiError; decision: RateLimitDecision }> {
  const network = clientNetwork(request, context.config.trustedProxyCount);
  const budget = await context.limiter.peek(AUTH_FAILURE_RULE, network);
  if (!budget.allowed) {
    return { failure: rateLimited(budget, "minute from this address"), decision: budget };
  }
  try {
    return { principal: await authenticate(request, context) };
  } catch (error) {
    if (!isApiError(error) || error.code !== "UNAUTHORIZED") {
      throw error;
    }
    // No session, or a stale one: the pages still read public data.
    const visitor = openToPages ? visitorOf(request, context) : null;
    if (visitor !== null) {
      return { principal: visitor };
    }
    const decision = await context.limiter.consume(AUTH_FAILURE_RULE, network);
    return {
      failure: decision.allowed ? error : rateLimited(decision, "minute from this address"),
      decision,
    };
  }
}

/** The session's own budget, inside its key's (one page session cannot spend the whole per-IP one). */
async function consumeSessionLimit(
  principal: Principal,
  context: ApiContext,
): Promise<RateLimitDecision | null> {
  return principal.sessionLimit === undefined
    ? null
    : context.limiter.consume(
        { bucket: "session", limit: principal.sessionLimit.rpm, windowSeconds: 60 },
        principal.sessionLimit.id,
      );
}

function requireScope(principal: Principal, scope: KeyScope): void {
  if (scope === "write" && principal.scope !== "write") {
    throw new ApiError("FORBIDDEN", "This API key has read scope; this endpoint needs a write-scope key");
  }
}

function requireTarget(principal: Principal, target: RequestTarget): void {
  const vault = target.vault === null ? null : base58Of(target.vault);
  if (vault !== null && principal.vaults !== null && !principal.vaults.includes(vault)) {
    throw new ApiError(
      "FORBIDDEN",
      `This API key is restricted to other vaults; it may not act on vault ${vault}`,
    );
  }
  const wallet = target.wallet === null ? null : base58Of(target.wallet);
  if (wallet !== null && principal.wallet !== null && principal.wallet !== wallet) {
    throw new ApiError(
      "FORBIDDEN",
      `This API key is restricted to another wallet; it may not act for ${wallet}`,
    );
  }
}

async function readInput<S extends z.ZodType>(
  request: ApiRequest,
  url: URL,
  input: { from: "body" | "query"; schema: S },
) {
  if (input.from === "query") {
    return parseInputOnce(input.schema, url, () => readQuery(request, url));
  }
  return parseInput(input.schema, await readJsonBody(request));
}

export function withPartnerKey<S extends z.ZodType, P extends z.ZodType = typeof noParams>(
  handler: (call: PartnerCall<z.output<S>, z.output<P>>) => Promise<unknown>,
  options: PartnerOptions<S, P>,
): ApiHandler {
  return async (request, context, meta) => {
    let limitHeaders: Record<string, string> = {};
    try {
      const authenticated = await authenticateOrLimit(request, context, options.openToPages === true);
      if ("failure" in authenticated) {
        limitHeaders = rateLimitHeaders(authenticated.decision);
        throw authenticated.failure;
      }
      const { principal } = authenticated;
      meta.keyId = principal.keyId;
      const decision = await context.limiter.consume(
        { bucket: "partner", limit: principal.rpm, windowSeconds: 60 },
        principal.keyId,
      );
      limitHeaders = { ...rateLimitHeaders(decision), ...principal.responseHeaders };
      if (!decision.allowed) {
        throw rateLimited(decision, "minute for this key");
      }
      const session = await consumeSessionLimit(principal, context);
      // The headers show whichever budget is nearer its end.
      if (session !== null && (!session.allowed || session.remaining < decision.remaining)) {
        limitHeaders = { ...rateLimitHeaders(session), ...principal.responseHeaders };
      }
      if (session !== null && !session.allowed) {
        throw rateLimited(session, "minute for this session");
      }
      requireScope(principal, options.scope);
      const params = parseInputOnce(
        options.params ?? noParams,
        meta.params,
        () => meta.params,
      ) as z.output<P>;
      const input = await readInput(request, meta.url, options.input);
      requireTarget(principal, options.target(input, params));
      const data = await handler({ input, params, principal, context, request, meta });
      return envelope(data, limitHeaders);
    } catch (thrown) {
      const error = answerFor(thrown, context, meta);
      return envelopeError(error, meta.requestId, limitHeaders);
    }
  };
}
