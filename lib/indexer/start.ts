// The indexer of an API context: the advisory lock on PostgreSQL (a connection of its own), the
// in-process claim on embedded PGlite, the run interval (INDEXER_INTERVAL_SECONDS, default 15;
// INDEXER=off leaves it to other instances) and the WebSocket that wakes it when the program's
// transactions confirm (INDEXER_WS_URL: a ws(s):// URL, `off`, or unset for the node's own — the
// localnet's from its addresses file, else the RPC URL's port + 1 over ws(s), as web3.js assumes).
import { resolve } from "node:path";

import { z } from "zod";

import { DEFAULT_ADDRESSES_FILE, readAddressesFile } from "../env-schema";
import { defaultWebSocketUrl } from "../web/server-config";

import type { ApiContext } from "../api/context";
import { SqlIndexerStore } from "../store/indexer";
import { liveEventsOf } from "../events/live";
import { webhooksOf } from "../webhooks/start";
import { Indexer } from "./indexer";
import { embeddedLeaderLock, postgresLeaderLock } from "./leader-lock";
import type { IndexerProgress } from "./indexer";
import { processMetrics } from "../observability/metrics";
import type { RpcClient } from "../chain/rpc";

/** The indexer's gauges: how far behind the chain its last run was, and what it read of each vault. */
async function recordIndexerRun(rpc: RpcClient, progress: IndexerProgress): Promise<void> {
  const metrics = processMetrics();
  metrics.indexerIndexedSlot.set(progress.slot);
  metrics.indexerLastRun.set(Date.now() / 1000);
  for (const vault of progress.vaults) {
    metrics.vaultNavUpdatedAt.set({ vault: vault.address }, Number(vault.navUpdatedAt));
    metrics.vaultUnfundedShares.set({ vault: vault.address }, Number(vault.unfundedShares));
  }
  const current = await rpc.call<number>("getSlot", [{ commitment: "confirmed" }], { background: true });
  metrics.indexerLag.set(Math.max(0, current - progress.slot));
}

const indexerEnv = z.object({
  INDEXER: z.enum(["on", "off"]).default("on"),
  INDEXER_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3_600).default(15),
  INDEXER_WS_URL: z
    .union([z.literal("off"), z.url({ protocol: /^wss?$/, error: "must be a ws:// or wss:// URL, or off" })])
    .optional(),
});

export interface IndexerSettings {
  enabled: boolean;
  intervalMs: number;
  /** The PubSub endpoint that wakes the indexer; null: none (the interval alone). */
  wsUrl: string | null;
}

function sameOrigin(left: string, right: string): boolean {
  try {
    return new URL(left).origin === new URL(right).origin;
  } catch {
    return false;
  }
}

/** The node's PubSub endpoint when INDEXER_WS_URL names none. */
export function defaultIndexerWsUrl(
  env: Readonly<Record<string, string | undefined>>,
  rpcUrl: string,
): string {
  const file = readAddressesFile(resolve(env.LOCALNET_ADDRESSES_FILE || DEFAULT_ADDRESSES_FILE));
  if (file !== null && file !== "invalid" && file.wsUrl !== undefined && file.rpcUrl !== undefined) {
    if (sameOrigin(file.rpcUrl, rpcUrl)) {
      return file.wsUrl;
    }
  }
  return defaultWebSocketUrl(rpcUrl);
}

export function parseIndexerSettings(
  env: Readonly<Record<string, string | undefined>>,
  rpcUrl: string,
): IndexerSettings {
  const parsed = indexerEnv.safeParse({
    INDEXER: env.INDEXER === "" ? undefined : env.INDEXER,
    INDEXER_INTERVAL_SECONDS: env.INDEXER_INTERVAL_SECONDS === "" ? undefined : env.INDEXER_INTERVAL_SECONDS,
    INDEXER_WS_URL: env.INDEXER_WS_URL === "" ? undefined : env.INDEXER_WS_URL,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid configuration: ${String(issue?.path[0] ?? "INDEXER")} ${issue?.message ?? ""}`);
  }
  const { INDEXER, INDEXER_INTERVAL_SECONDS, INDEXER_WS_URL } = parsed.data;
  return {
    enabled: INDEXER === "on",
    intervalMs: INDEXER_INTERVAL_SECONDS * 1000,
    wsUrl: INDEXER_WS_URL === "off" ? null : (INDEXER_WS_URL ?? defaultIndexerWsUrl(env, rpcUrl)),
  };
}

const stores = new WeakMap<ApiContext, SqlIndexerStore>();

/** The indexer's rows over the context's store (one instance per context). */
export function indexerStoreOf(context: ApiContext): SqlIndexerStore {
  let store = stores.get(context);
  if (store === undefined) {
    store = new SqlIndexerStore(context.store);
    stores.set(context, store);
  }
  return store;
}

export function createIndexer(
  context: ApiContext,
  options: {
    intervalMs: number;
    schema?: string;
    /** The PubSub endpoint that wakes it (parseIndexerSettings); without one, the interval alone. */
    wsUrl?: string | null;
  },
): Indexer {
  const { config } = context;
  return new Indexer({
    rpc: context.rpc,
    chain: context.chain,
    store: indexerStoreOf(context),
    genesis: context.genesis,
    lock:
      config.databaseUrl === null
        ? embeddedLeaderLock(context.store)
        : postgresLeaderLock(config.databaseUrl, options.schema ?? "public", config.databaseTimeoutMs),
    programId: config.programId,
    protocolId: config.protocolId,
    intervalMs: options.intervalMs,
    wsUrl: options.wsUrl ?? null,
    partnerEvents: {
      symbolOf: context.deps.symbolOf,
      capacityLowBps: webhooksOf(context).settings.capacityLowBps,
    },
    onDeliveriesQueued: () => webhooksOf(context).worker.wake(),
    onEventsRecorded: () => liveEventsOf(context).wake(),
    onError: (error) =>
      context.log.log("warn", "indexer run failed", {
        error: error instanceof Error ? error.message : String(error),
      }),
    onNewChain: ({ previous, current }) =>
      context.log.log(
        "warn",
        "indexer: a new chain (its genesis hash changed); the previous chain's rows are deleted and indexing starts over",
        {
          previous,
          current,
        },
      ),
    onRun: (progress) => {
      recordIndexerRun(context.rpc, progress).catch(() => undefined);
    },
  });
}
