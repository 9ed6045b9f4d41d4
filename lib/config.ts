// The configuration module: the API's settings, and the process's configuration (processConfig), the
// environment parsed once by the one schema (lib/env-schema.ts) with each part's typed slice (API,
// pages, session, indexer, webhooks, metrics) built from it. A bad value fails with a ConfigError
// naming the variable. Defaults point at the local chain: its RPC port, the program id of lib/vault,
// and the vault addresses the localnet writes to its addresses file. Outside this module and the
// processes' entry points (scripts/*, localnet/main.ts and dev.ts, instrumentation.ts, proxy.ts)
// nothing reads process.env: the parts take their slice as an argument or from processConfig().
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

import { PublicKey } from "@solana/web3.js";
import { z } from "zod";

import {
  APP_ROOT,
  ConfigError,
  DEFAULT_ADDRESSES_FILE,
  parseEnv,
  pgliteDirectory,
  publicKeyText,
  readAddressesFile,
  type Env,
  type EnvValues,
} from "./env-schema";
import { CLUSTER_PRESETS, clusterOfRpcUrl, type ClusterName } from "./cluster";
import { indexerSettingsFrom, type IndexerSettings } from "./indexer/settings";
import { VAULT_PROGRAM_ID } from "./vault/program/idl";
import { WHOLE_BPS, type DeclaredStrategy } from "./vault/reads/portfolio";
import { sessionSettingsFrom, webConfigFrom, type SessionSettings, type WebConfig } from "./web-config";
import { webhookSettingsFrom, type WebhookSettings } from "./webhooks/settings";

export { APP_ROOT, ConfigError, parseEnv, pgliteDirectory, type EnvValues } from "./env-schema";

/** `{ "<vault id>": [{ "name": "Treasury bills", "bps": 6000 }, …] }`, each vault's weights adding up to 10,000. */
const strategiesFileSchema = z.record(
  publicKeyText,
  z
    .array(
      z.strictObject({
        name: z.string().trim().min(1).max(64),
        bps: z.number().int().min(1).max(WHOLE_BPS),
      }),
    )
    .min(1)
    .max(16)
    .refine(
      (strategies) => strategies.reduce((sum, strategy) => sum + strategy.bps, 0) === WHOLE_BPS,
      `weights (bps) must add up to ${WHOLE_BPS}`,
    ),
);

export interface AppConfig {
  /** CLUSTER, else guessed from the RPC URL: which explorer links point at. */
  cluster: ClusterName;
  rpcUrl: string;
  programId: PublicKey;
  /** The deployment's protocol account: only vaults registered under it are indexed and served. */
  protocolId: PublicKey;
  defaultVaultId: PublicKey;
  /** Symbols of asset mints the API names; other mints get a short form of their address. */
  assetSymbols: ReadonlyMap<string, string>;
  /** Each vault's strategies as its manager declares them (STRATEGIES_FILE); none by default. */
  strategies: ReadonlyMap<string, readonly DeclaredStrategy[]>;
  databaseUrl: string | null;
  pgliteDir: string | null;
  redisUrl: string | null;
  host: string;
  port: number;
  trustedProxyCount: number;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  /**
   * The level of the line logged per request under 500 (a 5xx is a warning): REQUEST_LOG_LEVEL, by
   * default debug in development (a person browsing the dev server sees the warnings, not every read)
   * and info otherwise.
   */
  requestLogLevel: "debug" | "info";
  rpcTimeoutMs: number;
  databaseTimeoutMs: number;
  defaultKeyRpm: number;
  keyCacheSeconds: number;
  priorityFeeCapMicroLamports: number;
  depositSlippageBps: number;
  navIntervalSeconds: number;
  /** The least NAV history an APY is annualized from; shorter histories give null. */
  apyMinSpanSeconds: number;
  stageIntervalSeconds: number;
  /** The keeper's most shares per staging (STAGE_MAX_SHARES), for the arrival estimate. */
  stageMaxShares: bigint;
  /** Seconds between the keeper's looks at the chain (KEEPER_TICK_SECONDS), for the arrival estimate. */
  keeperTickSeconds: number;
  slotMs: number;
  /** METRICS_TOKEN: what GET /metrics and the detailed GET /api/health ask for; null when unset. */
  metricsToken: string | null;
}

function readStrategiesFile(path: string): Map<string, readonly DeclaredStrategy[]> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration: STRATEGIES_FILE ${path} cannot be read as JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const parsed = strategiesFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(
      `Invalid configuration: STRATEGIES_FILE ${path}: ${issue?.path.join(".") ?? ""} ${
        issue?.code === "invalid_key" ? "is not a vault address (base58)" : (issue?.message ?? "is invalid")
      }`,
    );
  }
  return new Map(Object.entries(parsed.data));
}

/** The API's settings from an environment; throws ConfigError naming the first bad variable. */
export function parseConfig(env: Env): AppConfig {
  return appConfigFrom(parseEnv(env));
}

/** The API's settings from the parsed environment (the addresses and strategies files read here). */
export function appConfigFrom(values: EnvValues): AppConfig {
  const addressesPath = resolve(
    /*turbopackIgnore: true*/ APP_ROOT,
    values.LOCALNET_ADDRESSES_FILE ?? DEFAULT_ADDRESSES_FILE,
  );
  const addresses = readAddressesFile(addressesPath);
  if (addresses === "invalid") {
    throw new ConfigError(
      `Invalid configuration: LOCALNET_ADDRESSES_FILE ${addressesPath} is not a localnet addresses file`,
    );
  }

  const programId = new PublicKey(values.PROGRAM_ID ?? VAULT_PROGRAM_ID.toBase58());
  if (!programId.equals(VAULT_PROGRAM_ID)) {
    throw new ConfigError(
      `Invalid configuration: PROGRAM_ID ${programId.toBase58()} is not the program this build's IDL describes (${VAULT_PROGRAM_ID.toBase58()})`,
    );
  }
  const protocolId = values.PROTOCOL_ID ?? addresses?.protocolId ?? undefined;
  if (protocolId === undefined) {
    throw new ConfigError(
      `Invalid configuration: PROTOCOL_ID is not set and ${addressesPath} names no protocol (start the localnet first, or set PROTOCOL_ID)`,
    );
  }
  if (!publicKeyText.safeParse(protocolId).success) {
    throw new ConfigError(
      `Invalid configuration: LOCALNET_ADDRESSES_FILE ${addressesPath} names a protocolId that is not a base58 public key`,
    );
  }
  const defaultVault = values.DEFAULT_VAULT_ID ?? addresses?.defaultVaultId ?? undefined;
  if (defaultVault === undefined || defaultVault === null) {
    throw new ConfigError(
      `Invalid configuration: DEFAULT_VAULT_ID is not set and ${addressesPath} names no vault (start the localnet first, or set DEFAULT_VAULT_ID)`,
    );
  }
  const assetSymbols = new Map<string, string>();
  if (addresses?.asset !== undefined) {
    assetSymbols.set(addresses.asset.mint, values.ASSET_SYMBOL ?? addresses.asset.symbol);
  }
  const presetRpcUrl =
    values.CLUSTER === undefined || values.CLUSTER === "localnet"
      ? null
      : CLUSTER_PRESETS[values.CLUSTER].rpcUrl;
  const rpcUrl = values.RPC_URL ?? presetRpcUrl ?? addresses?.rpcUrl ?? "http://127.0.0.1:8899";
  return {
    cluster: values.CLUSTER ?? clusterOfRpcUrl(rpcUrl),
    rpcUrl,
    programId,
    protocolId: new PublicKey(protocolId),
    defaultVaultId: new PublicKey(defaultVault),
    assetSymbols,
    strategies:
      values.STRATEGIES_FILE === undefined
        ? new Map()
        : readStrategiesFile(resolve(/*turbopackIgnore: true*/ APP_ROOT, values.STRATEGIES_FILE)),
    databaseUrl: values.DATABASE_URL ?? null,
    pgliteDir: pgliteDirectory(values.DATABASE_URL, values.PGLITE_DIR),
    redisUrl: values.REDIS_URL ?? null,
    host: values.HOST,
    port: values.PORT,
    trustedProxyCount: values.TRUSTED_PROXY_COUNT,
    logLevel: values.LOG_LEVEL,
    requestLogLevel: values.REQUEST_LOG_LEVEL ?? (values.NODE_ENV === "development" ? "debug" : "info"),
    rpcTimeoutMs: values.RPC_TIMEOUT_MS,
    databaseTimeoutMs: values.DATABASE_TIMEOUT_MS,
    defaultKeyRpm: values.DEFAULT_KEY_RPM,
    keyCacheSeconds: values.KEY_CACHE_SECONDS,
    priorityFeeCapMicroLamports: values.PRIORITY_FEE_CAP_MICROLAMPORTS,
    depositSlippageBps: values.DEPOSIT_SLIPPAGE_BPS,
    navIntervalSeconds: values.NAV_INTERVAL_SECONDS,
    apyMinSpanSeconds: values.APY_MIN_SPAN_SECONDS,
    stageIntervalSeconds: values.STAGE_INTERVAL_SECONDS,
    stageMaxShares: values.STAGE_MAX_SHARES,
    keeperTickSeconds: values.KEEPER_TICK_SECONDS,
    slotMs: values.SLOT_MS,
    metricsToken:
      values.METRICS_TOKEN === undefined || values.METRICS_TOKEN === "" ? null : values.METRICS_TOKEN,
  };
}

/** A server process's configuration: the parsed environment and each part's slice, each built once. */
export interface ProcessConfig {
  readonly env: EnvValues;
  readonly api: AppConfig;
  readonly web: WebConfig;
  readonly session: SessionSettings;
  readonly indexer: IndexerSettings;
  /** The webhook settings of the process's own API context. */
  readonly webhooks: WebhookSettings;
  /** METRICS_TOKEN, when set and not empty. */
  readonly metricsToken: string | null;
  /** NODE_ENV=development (the pages' CSP allows the dev server's eval). */
  readonly development: boolean;
}

function once<T>(build: () => T): () => T {
  let built: { value: T } | null = null;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}

/**
 * The process's configuration from an environment. The environment is parsed at once; the slices are
 * built on first use (the API's reads the addresses file and needs a protocol, which a part that only
 * asks for, say, the session settings does not), and checkProcessConfig builds them all.
 */
export function createProcessConfig(env: Env): ProcessConfig {
  const values = parseEnv(env);
  const api = once(() => appConfigFrom(values));
  const web = once(() => webConfigFrom(values));
  const session = once(() => sessionSettingsFrom(values));
  const indexer = once(() => indexerSettingsFrom(values, api().rpcUrl));
  const webhooks = once(() => webhookSettingsFrom(values));
  return {
    env: values,
    get api() {
      return api();
    },
    get web() {
      return web();
    },
    get session() {
      return session();
    },
    get indexer() {
      return indexer();
    },
    get webhooks() {
      return webhooks();
    },
    metricsToken: values.METRICS_TOKEN ?? null,
    development: values.NODE_ENV === "development",
  };
}

/** Builds every slice, so a bad value fails now (at boot) naming its variable. */
export function checkProcessConfig(config: ProcessConfig): ProcessConfig {
  void [config.api, config.web, config.session, config.indexer, config.webhooks];
  return config;
}

// On globalThis: each Next.js bundle has its own copy of this module, and the process has one environment.
const KEY = Symbol.for("vault-gateway.process-config");

interface Holder {
  [KEY]?: ProcessConfig;
}

/** Makes `config` the process's (a host that parses its own environment installs it before use). */
export function installProcessConfig(config: ProcessConfig): ProcessConfig {
  (globalThis as Holder)[KEY] = config;
  return config;
}

/** The process's configuration: process.env parsed once, on first use (or at boot by the entry point). */
export function processConfig(): ProcessConfig {
  const holder = globalThis as Holder;
  holder[KEY] ??= createProcessConfig(process.env);
  return holder[KEY];
}
