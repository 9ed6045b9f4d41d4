// GET /api/health — the chain (slot, how far its latest block lags the clock), the store and Redis,
// each checked with a bounded wait. 200 and the envelope when all are up, 503 with `success: false`
// and the same checks otherwise; never cached, not rate-limited (load balancers poll it).
import type { z } from "zod";

import { opsEndpoint } from "../endpoint";
import type { ApiHandler } from "../handler";
import { json } from "../responses";
import { healthDegradedResponse, healthResponse, type healthData } from "../schemas/public";

const CHECK_TIMEOUT_MS = 1_500;

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

const answerHealth: ApiHandler = async (_request, context) => {
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
  const data: z.input<typeof healthData> = {
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
  };
  return json(
    healthy ? 200 : 503,
    healthy
      ? ({ success: true, data } satisfies z.input<typeof healthResponse>)
      : ({
          success: false,
          error: `Degraded: ${failing.join(", ")} unavailable`,
          code: "SERVICE_DEGRADED",
          data,
        } satisfies z.input<typeof healthDegradedResponse>),
    { "Cache-Control": "no-store" },
  );
};

export const getHealth = opsEndpoint({
  operationId: "getHealth",
  method: "GET",
  path: "/api/health",
  summary: "Chain, store and Redis health (200 healthy, 503 degraded with the same checks)",
  response: healthResponse,
  errorBodies: { 503: healthDegradedResponse },
  statuses: [200, 503],
  handler: answerHealth,
});
