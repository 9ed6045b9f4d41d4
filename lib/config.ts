// The app's configuration, parsed once from the environment with zod. A bad value fails fast with a
// message naming the variable. Defaults point at the local chain: its RPC port, the program id of
// lib/vault, and the vault addresses the localnet writes to its addresses file.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

import { PublicKey } from "@solana/web3.js";
import { z } from "zod";

import {
  DEFAULT_ADDRESSES_FILE,
  envInteger,
  envUrl,
  presentValues,
  readAddressesFile,
  type Env,
} from "./env-schema";
import { CLUSTER_NAMES, CLUSTER_PRESETS, clusterOfRpcUrl, type ClusterName } from "./cluster";
import { VAULT_PROGRAM_ID } from "./vault/idl";
import { WHOLE_BPS, type DeclaredStrategy } from "./vault/portfolio";

/**
 * Relative paths (the addresses file, the PGlite directory) are resolved against the working
 * directory: npm scripts and Next.js both run from the repository root, and a bundled server's
 * module URL points into its build output, not the repository.
 */
export const APP_ROOT = process.cwd();

export class ConfigError extends Error {}

const publicKeyText = z.string().refine((value) => {
  try {
    return new PublicKey(value).toBase58() === value;
  } catch {
    return false;
  }
}, "must be a base58 public key");

const envSchema = z.object({
  CLUSTER: z.enum(CLUSTER_NAMES).optional(),
  RPC_URL: envUrl(["http:", "https:"]).optional(),
  PROGRAM_ID: publicKeyText.optional(),
  DEFAULT_VAULT_ID: publicKeyText.optional(),
  PROTOCOL_ID: publicKeyText.optional(),
  LOCALNET_ADDRESSES_FILE: z.string().min(1).optional(),
  ASSET_SYMBOL: z
    .string()
    .regex(/^[A-Za-z0-9]{1,10}$/, "must be 1–10 letters or digits")
    .optional(),
  DATABASE_URL: envUrl(["postgres:", "postgresql:"]).optional(),
  PGLITE_DIR: z.string().min(1).optional(),
  STRATEGIES_FILE: z.string().min(1).optional(),
  REDIS_URL: envUrl(["redis:", "rediss:"]).optional(),
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: envInteger(0, 65535).default(3000),
  TRUSTED_PROXY_COUNT: envInteger(0, 10).default(0),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  RPC_TIMEOUT_MS: envInteger(100, 10_000).default(2000),
  DATABASE_TIMEOUT_MS: envInteger(100, 10_000).default(2000),
  DEFAULT_KEY_RPM: envInteger(1, 1_000_000).default(120),
  KEY_CACHE_SECONDS: envInteger(0, 300).default(5),
  PRIORITY_FEE_CAP_MICROLAMPORTS: envInteger(0, 100_000_000).default(100_000),
  DEPOSIT_SLIPPAGE_BPS: envInteger(0, 5000).default(50),
  NAV_INTERVAL_SECONDS: envInteger(1, 7 * 86_400).default(60),
  APY_MIN_SPAN_SECONDS: envInteger(0, 30 * 86_400).default(86_400),
  STAGE_INTERVAL_SECONDS: envInteger(1, 86_400).default(20),
  SLOT_MS: envInteger(10, 10_000).default(400),
});

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
  slotMs: number;
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

/** PGLITE_DIR=:memory: keeps the embedded database in memory (tests); unused with DATABASE_URL. */
export function pgliteDirectory(
  databaseUrl: string | undefined,
  directory: string | undefined,
): string | null {
  if (databaseUrl !== undefined || directory === ":memory:") {
    return null;
  }
  return resolve(/*turbopackIgnore: true*/ APP_ROOT, directory ?? ".data/pglite");
}

/** Parses the environment once; throws ConfigError naming the first bad variable. */
export function parseConfig(env: Env = process.env): AppConfig {
  const present = presentValues(env);
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? "environment");
    throw new ConfigError(
      `Invalid configuration: ${name} ${issue?.message ?? "is invalid"}; got "${present[name] ?? ""}"`,
    );
  }
  const values = parsed.data;
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
    rpcTimeoutMs: values.RPC_TIMEOUT_MS,
    databaseTimeoutMs: values.DATABASE_TIMEOUT_MS,
    defaultKeyRpm: values.DEFAULT_KEY_RPM,
    keyCacheSeconds: values.KEY_CACHE_SECONDS,
    priorityFeeCapMicroLamports: values.PRIORITY_FEE_CAP_MICROLAMPORTS,
    depositSlippageBps: values.DEPOSIT_SLIPPAGE_BPS,
    navIntervalSeconds: values.NAV_INTERVAL_SECONDS,
    apyMinSpanSeconds: values.APY_MIN_SPAN_SECONDS,
    stageIntervalSeconds: values.STAGE_INTERVAL_SECONDS,
    slotMs: values.SLOT_MS,
  };
}
