// withPublic: the wrapper of the keyless routes: rate-limit per client IP → parse the query → run the
// handler → a bare body, edge-cacheable for 60 s, open to any origin. Errors are bare too, not cached.
import type { z } from "zod";

import { clientNetwork } from "./client-address";
import type { ApiContext } from "./context";
import { ApiError, answerFor } from "./errors";
import type { ApiHandler, RequestMeta } from "./handler";
import { rateLimitHeaders, type RateLimitRule } from "./rate-limit";
import { parseInputOnce, readQuery } from "./request-input";
import { bareError, json } from "./responses";

export const PUBLIC_LIMIT = { limit: 20, windowSeconds: 5 } as const;

export const PUBLIC_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
};

const SUCCESS_HEADERS = { ...PUBLIC_HEADERS, "Cache-Control": "public, s-maxage=60" };
const NOT_CACHEABLE = { "Cache-Control": "no-store" };

export interface PublicCall<Query> {
  query: Query;
  context: ApiContext;
  meta: RequestMeta;
}

export interface PublicOptions<S extends z.ZodType> {
  limit: { limit: number; windowSeconds: number };
  query: S;
}

export function withPublic<S extends z.ZodType>(
  handler: (call: PublicCall<z.output<S>>) => Promise<object>,
  options: PublicOptions<S>,
): ApiHandler {
  // The limiter's rule per limit (the endpoint's, or the context's override), made once.
  const rules = new WeakMap<object, RateLimitRule>();
  const ruleOf = (limit: { limit: number; windowSeconds: number }): RateLimitRule => {
    let rule = rules.get(limit);
    if (rule === undefined) {
      rule = { bucket: "public", ...limit };
      rules.set(limit, rule);
    }
    return rule;
  };
  return async (request, context, meta) => {
    let limitHeaders: Record<string, string> = {};
    try {
      const limit = context.publicLimit ?? options.limit;
      const decision = await context.limiter.consume(
        ruleOf(limit),
        clientNetwork(request, context.config.trustedProxyCount),
      );
      if (!decision.allowed) {
        limitHeaders = rateLimitHeaders(decision);
        throw new ApiError(
          "RATE_LIMITED",
          `Rate limit exceeded: ${decision.limit} requests per ${limit.windowSeconds} s from this address; retry after ${decision.retryAfter} s`,
        );
      }
      const query = parseInputOnce(options.query, meta.url, () => readQuery(request, meta.url));
      const body = await handler({ query, context, meta });
      return json(200, body, SUCCESS_HEADERS);
    } catch (thrown) {
      const error = answerFor(thrown, context, meta);
      return bareError(error, meta.requestId, { ...PUBLIC_HEADERS, ...NOT_CACHEABLE, ...limitHeaders });
    }
  };
}
