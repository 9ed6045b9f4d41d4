// GET /api/health — the chain (slot, how far its latest block lags the clock), the store and Redis,
// each checked with a bounded wait. 200 and the envelope when all are up, 503 with `success: false`
// otherwise; not rate-limited (load balancers poll it), so it answers from the last check while that
// is under a second old: however often it is called, a process probes the chain, the store and Redis
// at most once a second. The checks' details (slots, latencies, errors) are shown as /metrics is:
// to anyone when METRICS_TOKEN is unset, else only with `Authorization: Bearer <METRICS_TOKEN>`;
// others get the status alone.
import type { z } from "zod";

import { tokenMatches } from "../../observability/metrics";
import type { ApiContext } from "../context";
import { opsEndpoint } from "../endpoint";
import type { ApiHandler } from "../handler";
import { json } from "../responses";
import { healthDegradedResponse, healthResponse, type healthData } from "../schemas/public";

const CHECK_TIMEOUT_MS = 1_500;

/** A check started less than this long ago is the answer (shared while it is in flight). */
export const HEALTH_CHECK_INTERVAL_MS = 1_000;

interface Check {
  ok: boolean;
  latencyMs: number | null;
  error?: string;
}

async function timed<T>(work: () => Promise<T>): Promise<{ check: Check; value: T | null }> {
  const startedAt = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const value = await Promise.race([
      work(),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)),
          CHECK_TIMEOUT_MS,
        );
      }),
    ]);
    return { check: { ok: true, latencyMs: Math.round(performance.now() - startedAt) }, value };
  } catch (error) {
    return {
      check: { ok: false, latencyMs: null, error: error instanceof Error ? error.message : String(error) },
      value: null,
    };
  } finally {
    clearTimeout(timer);
  }
}

interface HealthCheck {
  healthy: boolean;
  failing: string[];
  data: z.input<typeof healthData>;
}

async function checkHealth(context: ApiContext): Promise<HealthCheck> {
  const [chain, store, redis] = await Promise.all([
    timed(async () => {
      const slot = await context.chain.getSlot();
      const blockTime = await context.rpc.call<number | null>("getBlockTime", [slot]);
      return { slot, lagSeconds: blockTime === null ? null : Math.max(0, Date.now() / 1000 - blockTime) };
    }),
    timed(() => context.store.query("SELECT 1 AS ok")),
    context.redis === null ? Promise.resolve(null) : timed(async () => context.redis?.ping()),
  ]);
  const redisCheck: Check = redis === null ? { ok: true, latencyMs: null } : redis.check;
  const healthy = chain.check.ok && store.check.ok && redisCheck.ok;
  const failing = [
    ["chain", chain.check.ok],
    ["store", store.check.ok],
    ["redis", redisCheck.ok],
  ].flatMap(([name, ok]) => (ok === true ? [] : [String(name)]));
  return {
    healthy,
    failing,
    data: {
      status: healthy ? "ok" : "degraded",
      chain: {
        ...chain.check,
        slot: chain.value?.slot ?? null,
        lagSeconds:
          chain.value === null || chain.value.lagSeconds === null
            ? null
            : Math.round(chain.value.lagSeconds * 10) / 10,
      },
      store: { ...store.check, kind: context.store.kind },
      redis: { ...redisCheck, configured: context.redis !== null },
    },
  };
}

/** Each context's latest check: when it started, and its (possibly pending) outcome. */
const latestChecks = new WeakMap<ApiContext, { startedAt: number; outcome: Promise<HealthCheck> }>();

/** The latest check if it started under HEALTH_CHECK_INTERVAL_MS ago, else a new one. */
export function currentHealth(context: ApiContext, now = Date.now()): Promise<HealthCheck> {
  const latest = latestChecks.get(context);
  if (latest !== undefined && now - latest.startedAt < HEALTH_CHECK_INTERVAL_MS && now >= latest.startedAt) {
    return latest.outcome;
  }
  const outcome = checkHealth(context);
  latestChecks.set(context, { startedAt: now, outcome });
  return outcome;
}

const answerHealth: ApiHandler = async (request, context) => {
  const { healthy, failing, data } = await currentHealth(context);
  const token = context.config.metricsToken;
  const detailed = token === null || tokenMatches(request.headers.get("authorization"), token);
  const shown: z.input<typeof healthData> = detailed ? data : { status: data.status };
  return json(
    healthy ? 200 : 503,
    healthy
      ? ({ success: true, data: shown } satisfies z.input<typeof healthResponse>)
      : ({
          success: false,
          error: detailed ? `Degraded: ${failing.join(", ")} unavailable` : "Degraded",
          code: "SERVICE_DEGRADED",
          data: shown,
        } satisfies z.input<typeof healthDegradedResponse>),
    { "Cache-Control": "no-store" },
  );
};

export const getHealth = opsEndpoint({
  operationId: "getHealth",
  method: "GET",
  path: "/api/health",
  summary:
    "Chain, store and Redis health (200 healthy, 503 degraded), from a check at most a second old; the checks' details only with the metrics token when METRICS_TOKEN is set",
  response: healthResponse,
  errorBodies: { 503: healthDegradedResponse },
  statuses: [200, 503],
  handler: answerHealth,
});
