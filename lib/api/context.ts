// Everything a handler needs, built once from the config: chain access, the store, rate limits, key
// resolution, logging, and the credential sources partner routes accept. Nothing connects at
// construction; the first request that needs a service opens it.
import { PublicKey } from "@solana/web3.js";
import { Redis } from "ioredis";

import { processConfig, type AppConfig } from "../config";
import { GenesisWatch } from "../chain/genesis-watch";
import { createRpcClient } from "../chain/rpc";
import { RpcVaultChain } from "../chain/vault-chain";
import { PartnerEventFeed } from "../events/feed";
import { listen, notify, partnerEventsChannel } from "../store/notify";
import { Store } from "../store/store";
import type { VaultDeps } from "../vault/model/vault-state";
import { forgetRequestTimes } from "../vault/reads/withdrawal-status";
import { bearerKeySource } from "./credentials";
import { noOpenStreams } from "./events/open-streams";
import { clearChainDataCaches, createChainDataCaches } from "./chain-data-cache";
import { createFirstPartyKeyCache, firstPartySessionSource } from "./first-party-session";
import { KeyResolver } from "./keys";
import { createLogger, type Logger } from "./logger";
import { createRateLimiter } from "./rate-limit";
import { SingleFlightCache } from "./single-flight-cache";
import type { ApiContext } from "./types";

export type { ApiContext } from "./types";
import { observeRpcCall, processMetrics } from "../observability/metrics";
import { createWebhooks, type Webhooks, type WebhookTuning } from "../webhooks/parts";
import { webhookSettingsFrom, type WebhookSettings } from "../webhooks/settings";

export interface ContextOverrides {
  /** Store schema (tests isolate their rows in one). */
  schema?: string;
  /** Prefix of rate-limit keys in Redis. */
  rateLimitPrefix?: string;
  logger?: Logger;
  now?: () => number;
  publicLimit?: { limit: number; windowSeconds: number };
  /** How often the genesis hash is checked (default 5 s). */
  genesisCheckMs?: number;
  /** How often the live event feed reads while anyone listens (default 1 s; tests lengthen it). */
  eventPollMs?: number;
}

function shortMint(mint: string): string {
  return `${mint.slice(0, 4)}…${mint.slice(-4)}`;
}

export function createRedis(url: string): Redis {
  const redis = new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1_000,
    commandTimeout: 500,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // Connection errors surface through commands (and the limiter's in-process stand-in); don't crash.
  redis.on("error", () => undefined);
  return redis;
}

function webhookParts(
  store: Store,
  log: Logger,
  settings: WebhookSettings,
  tuning?: WebhookTuning,
): Webhooks {
  return createWebhooks(
    store,
    settings,
    (error) =>
      log.log("warn", "webhook worker pass failed", {
        error: error instanceof Error ? error.message : String(error),
      }),
    {
      // The reason is the partner's to read (GET /api/webhooks/{id}) and the operator's to send on.
      onEndpointDisabled: ({ endpointId, keyId, reason }) =>
        log.log("warn", "webhook endpoint disabled", { endpointId, keyId, reason }),
      ...tuning,
    },
  );
}

/** Sets a context's webhook settings (and worker tuning, for tests and benchmarks) before first use. */
export function configureWebhooks(
  context: ApiContext,
  settings: WebhookSettings,
  tuning: WebhookTuning = {},
): Webhooks {
  context.webhooks = webhookParts(context.store, context.log, settings, tuning);
  return context.webhooks;
}

export function createApiContext(config: AppConfig, overrides: ContextOverrides = {}): ApiContext {
  const log = overrides.logger ?? createLogger(config.logLevel);
  const rpc = createRpcClient(config.rpcUrl, config.rpcTimeoutMs, observeRpcCall);
  const chain = new RpcVaultChain(rpc, {
    slotMs: config.slotMs,
    priorityFeeCapMicroLamports: config.priorityFeeCapMicroLamports,
  });
  const genesis = new GenesisWatch(rpc, overrides.genesisCheckMs ?? 5_000);
  const blockhashAge = (): number | null => chain.blockhashAgeMs();
  processMetrics().blockhashAges.add(blockhashAge);
  const store = new Store({
    databaseUrl: config.databaseUrl,
    pgliteDir: config.pgliteDir,
    timeoutMs: config.databaseTimeoutMs,
    schema: overrides.schema,
    onWait: (message) => log.log("info", `store: ${message}`),
  });
  const redis = config.redisUrl === null ? null : createRedis(config.redisUrl);
  processMetrics().rateLimitsShared.set(redis === null ? 0 : 1);
  const deps: VaultDeps = {
    chain,
    protocol: config.protocolId,
    symbolOf: (mint: PublicKey) => config.assetSymbols.get(mint.toBase58()) ?? shortMint(mint.toBase58()),
    now: overrides.now ?? Date.now,
  };
  const keys = new KeyResolver(store.keys, config.keyCacheSeconds, (error) =>
    log.log("warn", "recording a key's last use failed", { error: String(error) }),
  );
  const publicCaches = new Map<string, SingleFlightCache<object>>();
  const publicReads = (operationId: string): SingleFlightCache<object> => {
    let cache = publicCaches.get(operationId);
    if (cache === undefined) {
      cache = new SingleFlightCache<object>(10_000);
      publicCaches.set(operationId, cache);
    }
    return cache;
  };
  const chainData = createChainDataCaches();
  const feedError = (what: string) => (error: unknown) =>
    log.log("warn", what, { error: error instanceof Error ? error.message : String(error) });
  const databaseUrl = config.databaseUrl;
  const eventsChannel = partnerEventsChannel(overrides.schema);
  const liveEvents = new PartnerEventFeed(store, {
    pollMs: overrides.eventPollMs,
    onError: feedError("live event feed read failed"),
    // Over PostgreSQL the instances tell each other about new events; PGlite is one process's.
    ...(databaseUrl === null
      ? {}
      : {
          listen: (wake: () => void) =>
            listen({
              url: databaseUrl,
              channel: eventsChannel,
              onNotify: wake,
              onError: feedError("live event listener lost its connection; reconnecting"),
            }),
          announce: () => {
            notify(store, eventsChannel).catch(feedError("announcing new events failed"));
          },
        }),
  });
  let webhooks: Webhooks | null = null;
  genesis.onChange(({ previous, current }) => {
    log.log("warn", "the chain's genesis hash changed: a new chain; cached chain data is dropped", {
      previous,
      current,
    });
    chain.forgetChain();
    for (const cache of publicCaches.values()) cache.clear();
    clearChainDataCaches(chainData);
    forgetRequestTimes();
  });
  return {
    config,
    rpc,
    chain,
    genesis,
    deps,
    store,
    redis,
    limiter: createRateLimiter({
      redis,
      keyPrefix: overrides.rateLimitPrefix ?? "vault-gateway:rl",
      onSharedChange: (shared) => {
        processMetrics().rateLimitsShared.set(shared ? 1 : 0);
        if (shared) {
          log.log("info", "Redis is back: rate limits are shared by every instance again");
        } else {
          log.log(
            "warn",
            "Redis is unreachable: rate limits are counted by each process alone until it is back",
          );
        }
      },
    }),
    keys,
    log,
    credentialSources: [bearerKeySource, firstPartySessionSource],
    publicReads,
    chainData,
    firstPartyKey: createFirstPartyKeyCache(),
    get webhooks(): Webhooks {
      webhooks ??= webhookParts(store, log, webhookSettingsFrom(processConfig().env));
      return webhooks;
    },
    set webhooks(value: Webhooks) {
      webhooks = value;
    },
    liveEvents,
    eventStreams: noOpenStreams(),
    publicLimit: overrides.publicLimit ?? null,
    async close() {
      processMetrics().blockhashAges.delete(blockhashAge);
      genesis.stop();
      chain.stop();
      redis?.disconnect();
      liveEvents.close();
      await store.close();
    },
  };
}

/**
 * Opens the context's store as a server starts: the embedded database is held and served from boot
 * (CLIs connect to it), so this waits for it and fails the boot when it cannot be opened; a PostgreSQL
 * that is down at boot is only logged, and picked up on a later request.
 */
export async function openStoreAtBoot(context: ApiContext): Promise<void> {
  if (context.store.kind === "pglite") {
    await context.store.ready();
    return;
  }
  void context.store.ready().catch((error: unknown) =>
    context.log.log("warn", "the database is unreachable at boot; requests that need it answer 503", {
      error: error instanceof Error ? error.message : String(error),
    }),
  );
}

export function symbolOfMint(context: ApiContext, mint: string): string {
  return context.deps.symbolOf(new PublicKey(mint));
}
