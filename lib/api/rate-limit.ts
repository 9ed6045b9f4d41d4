// Fixed-window rate limits through rate-limiter-flexible: in Redis when REDIS_URL is set (an atomic
// Lua increment, so counts are exact across instances and under concurrency), in process otherwise.
// If Redis fails, an in-process limiter stands in until it is back, on every route alike (neither
// open nor closed: each process then allows the limit by itself); onSharedChange says when the counts
// stop or start being shared, for the log and the rate_limits_shared metric.
import type { Redis } from "ioredis";
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";

export interface RateLimitRule {
  /** Namespace of the counter, e.g. "partner" or "public". */
  bucket: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  resetAt: number;
  /** Seconds until a request would be allowed again (0 when allowed). */
  retryAfter: number;
}

export interface RateLimiter {
  consume(rule: RateLimitRule, key: string): Promise<RateLimitDecision>;
  /** Whether `key` still has room under `rule`, without counting anything. */
  peek(rule: RateLimitRule, key: string): Promise<RateLimitDecision>;
}

export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Reset": String(decision.resetAt),
  };
  if (!decision.allowed) {
    headers["Retry-After"] = String(decision.retryAfter);
  }
  return headers;
}

function decisionFrom(
  result: RateLimiterRes,
  limit: number,
  allowed: boolean,
  now: number,
): RateLimitDecision {
  const msBeforeNext = Math.max(0, result.msBeforeNext);
  return {
    allowed,
    limit,
    remaining: allowed ? Math.max(0, result.remainingPoints) : 0,
    resetAt: Math.ceil((now + msBeforeNext) / 1000),
    retryAfter: allowed ? 0 : Math.max(1, Math.ceil(msBeforeNext / 1000)),
  };
}

export interface RateLimiterOptions {
  /** Shared counters; null for in-process ones. */
  redis: Redis | null;
  /** Prefix of every counter key, so deployments (and test runs) sharing a Redis stay apart. */
  keyPrefix: string;
  /** Called when counting moves to this process alone (false) or back to Redis (true). */
  onSharedChange?: (shared: boolean) => void;
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const limiters = new Map<string, RateLimiterAbstract>();

  function limiterFor(rule: RateLimitRule): RateLimiterAbstract {
    const id = `${rule.bucket}:${rule.limit}:${rule.windowSeconds}`;
    let limiter = limiters.get(id);
    if (limiter === undefined) {
      // The limit is not part of the key prefix: a key's count survives a change of its limit.
      const keyPrefix = `${options.keyPrefix}:${rule.bucket}:${rule.windowSeconds}`;
      const memory = new RateLimiterMemory({ keyPrefix, points: rule.limit, duration: rule.windowSeconds });
      limiter =
        options.redis === null
          ? memory
          : new RateLimiterRedis({
              storeClient: options.redis,
              keyPrefix,
              points: rule.limit,
              duration: rule.windowSeconds,
              rejectIfRedisNotReady: true,
              insuranceLimiter: memory,
            });
      limiters.set(id, limiter);
    }
    return limiter;
  }

  let shared: boolean | null = null;
  /** Whether this count goes to Redis: the in-process stand-in is used while the client is not ready. */
  function noteMode(): void {
    const now = options.redis !== null && options.redis.status === "ready";
    if (now !== shared) {
      const first = shared === null;
      shared = now;
      if (!first || (options.redis !== null && !now)) {
        options.onSharedChange?.(now);
      }
    }
  }

  return {
    async consume(rule, key) {
      noteMode();
      const limiter = limiterFor(rule);
      try {
        const result = await limiter.consume(key);
        return decisionFrom(result, rule.limit, true, Date.now());
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          return decisionFrom(rejection, rule.limit, false, Date.now());
        }
        throw rejection;
      }
    },
    async peek(rule, key) {
      noteMode();
      const now = Date.now();
      const result = await limiterFor(rule).get(key);
      if (result === null) {
        return {
          allowed: true,
          limit: rule.limit,
          remaining: rule.limit,
          resetAt: Math.ceil(now / 1000),
          retryAfter: 0,
        };
      }
      return decisionFrom(result, rule.limit, result.consumedPoints < rule.limit, now);
    },
  };
}
