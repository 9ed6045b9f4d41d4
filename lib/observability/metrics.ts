// Prometheus metrics of a server process (web server, lean API host, keeper) with prom-client: HTTP
// requests by route pattern and status with latency, RPC calls by method with latency and errors, the
// blockhash cache's age, the indexer's lag, each vault's last NAV strike and staging, and keeper
// leadership. One set per process, kept on globalThis: Next.js bundles its own copy of lib/ for the
// route handlers, and both copies must count into the registry that GET /metrics serves.
import { timingSafeEqual } from "node:crypto";

import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export type RpcOutcome = "ok" | "rpc_error" | "unavailable";

export interface ProcessMetrics {
  registry: Registry;
  httpRequests: Counter<"route" | "method" | "status">;
  httpDuration: Histogram<"route" | "method">;
  rpcCalls: Counter<"method" | "outcome">;
  rpcDuration: Histogram<"method">;
  indexerLag: Gauge;
  indexerLeader: Gauge;
  indexerIndexedSlot: Gauge;
  indexerLastRun: Gauge;
  vaultNavUpdatedAt: Gauge<"vault">;
  vaultUnfundedShares: Gauge<"vault">;
  keeperLeader: Gauge<"keeper">;
  keeperLastStrike: Gauge<"vault">;
  keeperLastStaging: Gauge<"vault">;
  keeperActions: Counter<"vault" | "action" | "outcome">;
  rateLimitsShared: Gauge;
  /** Blockhash caches to report the age of (the oldest is reported). */
  blockhashAges: Set<() => number | null>;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function createMetrics(): ProcessMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const blockhashAges = new Set<() => number | null>();
  const registers = [registry];
  return {
    registry,
    blockhashAges,
    httpRequests: new Counter({
      name: "http_requests_total",
      help: "HTTP requests answered, by route pattern, method and status",
      labelNames: ["route", "method", "status"],
      registers,
    }),
    httpDuration: new Histogram({
      name: "http_request_duration_seconds",
      help: "Time from a request's arrival to its response's end, by route pattern",
      labelNames: ["route", "method"],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    rpcCalls: new Counter({
      name: "solana_rpc_calls_total",
      help: "Solana JSON-RPC calls, by method and outcome (ok, rpc_error, unavailable)",
      labelNames: ["method", "outcome"],
      registers,
    }),
    rpcDuration: new Histogram({
      name: "solana_rpc_call_duration_seconds",
      help: "Solana JSON-RPC call latency, by method",
      labelNames: ["method"],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    indexerLag: new Gauge({
      name: "indexer_lag_slots",
      help: "Slots between the chain's confirmed slot and the one the last indexer run read",
      registers,
    }),
    indexerLeader: new Gauge({
      name: "indexer_leader",
      help: "1 while this process's indexer holds the leader lock (one instance over a database), else 0",
      registers,
    }),
    indexerIndexedSlot: new Gauge({
      name: "indexer_indexed_slot",
      help: "Slot of the vault accounts the last indexer run read",
      registers,
    }),
    indexerLastRun: new Gauge({
      name: "indexer_last_run_timestamp_seconds",
      help: "When this process's indexer last finished a run as leader",
      registers,
    }),
    vaultNavUpdatedAt: new Gauge({
      name: "vault_nav_updated_timestamp_seconds",
      help: "The vault's nav_updated_at on chain (its last NAV strike), as the indexer last read it",
      labelNames: ["vault"],
      registers,
    }),
    vaultUnfundedShares: new Gauge({
      name: "vault_queue_unfunded_shares",
      help: "Shares requested for withdrawal and not yet staged (queue_tail - queue_funded), raw units",
      labelNames: ["vault"],
      registers,
    }),
    keeperLeader: new Gauge({
      name: "keeper_leader",
      help: "1 while this keeper holds the leader lock, else 0",
      labelNames: ["keeper"],
      registers,
    }),
    keeperLastStrike: new Gauge({
      name: "keeper_last_strike_timestamp_seconds",
      help: "When this keeper's last NAV strike for the vault confirmed",
      labelNames: ["vault"],
      registers,
    }),
    keeperLastStaging: new Gauge({
      name: "keeper_last_staging_timestamp_seconds",
      help: "When this keeper's last staging of the vault's withdrawal queue confirmed",
      labelNames: ["vault"],
      registers,
    }),
    keeperActions: new Counter({
      name: "keeper_actions_total",
      help: "Keeper actions by vault, action (strike, stage, close hole list, deliver) and outcome (sent, skipped, failed, rpcs disagree, already claimed)",
      labelNames: ["vault", "action", "outcome"],
      registers,
    }),
    rateLimitsShared: new Gauge({
      name: "rate_limits_shared",
      help: "1 while rate limits are counted in Redis, shared by every instance; 0 while each process counts alone (Redis unreachable, or no REDIS_URL)",
      registers,
    }),
  };
}

const GLOBAL_KEY = Symbol.for("vault-gateway.process-metrics");

export function processMetrics(): ProcessMetrics {
  const holder = globalThis as { [GLOBAL_KEY]?: ProcessMetrics };
  let metrics = holder[GLOBAL_KEY];
  if (metrics === undefined) {
    metrics = createMetrics();
    const ages = metrics.blockhashAges;
    new Gauge({
      name: "blockhash_cache_age_seconds",
      help: "Age of the recent blockhash the transaction builders would use now (the oldest cache's)",
      registers: [metrics.registry],
      collect() {
        const values = [...ages].map((age) => age()).filter((age): age is number => age !== null);
        if (values.length > 0) {
          this.set(Math.max(...values) / 1000);
        }
      },
    });
    holder[GLOBAL_KEY] = metrics;
  }
  return metrics;
}

/** For createRpcClient: one call's method, duration and outcome. */
export function observeRpcCall(method: string, seconds: number, outcome: RpcOutcome): void {
  const metrics = processMetrics();
  metrics.rpcCalls.inc({ method, outcome });
  metrics.rpcDuration.observe({ method }, seconds);
}

/** Records one answered HTTP request under its route pattern (never the raw path: bounded labels). */
export function observeHttpRequest(route: string, method: string, status: number, seconds: number): void {
  const metrics = processMetrics();
  metrics.httpRequests.inc({ route, method, status: String(status) });
  metrics.httpDuration.observe({ route, method }, seconds);
}

export interface MetricsResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Whether an Authorization header carries `Bearer <token>` (compared in constant time). */
export function tokenMatches(header: string | null, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(header ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * GET /metrics: the registry in Prometheus text. With a token (METRICS_TOKEN, from the process's
 * configuration), only a request carrying `Authorization: Bearer <token>` gets it.
 */
export async function answerMetrics(
  authorization: string | null,
  token: string | null,
): Promise<MetricsResponse> {
  if (token !== null && !tokenMatches(authorization, token)) {
    return {
      status: 401,
      headers: { "Content-Type": "text/plain; charset=utf-8", "WWW-Authenticate": 'Bearer realm="metrics"' },
      body: "metrics need Authorization: Bearer <METRICS_TOKEN>\n",
    };
  }
  const { registry } = processMetrics();
  return {
    status: 200,
    headers: { "Content-Type": registry.contentType, "Cache-Control": "no-store" },
    body: await registry.metrics(),
  };
}
