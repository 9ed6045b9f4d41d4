// The one schema of the environment: every variable any part of a server process reads (the API, the
// pages, the first-party session, the indexer, the webhook worker, the metrics endpoint), each defined
// once, parsed in one pass into typed values, and a ConfigError naming the first bad variable. The
// parts build their settings from these values (lib/config.ts holds the process's parsed copy), and the
// localnet's addresses file is read here too.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

import { z } from "zod";

import { isAddressText } from "./chain/address-text";
import { CLUSTER_NAMES } from "./cluster";
import { API_KEY_PATTERN } from "./store/api-keys";
import { parseFrameAncestors } from "./csp";

export type Env = Readonly<Record<string, string | undefined>>;

/** A bad or missing setting; the message names the variable (or file) and what it must be. */
export class ConfigError extends Error {}

/**
 * Relative paths (the addresses file, the PGlite directory) are resolved against the working
 * directory: npm scripts and Next.js both run from the repository root, and a bundled server's
 * module URL points into its build output, not the repository.
 */
export const APP_ROOT = process.cwd();

export const DEFAULT_ADDRESSES_FILE = "localnet/.state/addresses.json";

/** Variables whose empty value means "none" rather than "unset" (WEBHOOK_ALLOWED_NETWORKS=: nothing exempt). */
const EMPTY_IS_A_VALUE = new Set(["WEBHOOK_ALLOWED_NETWORKS"]);

/** The variables that are set; empty strings count as unset, as a shell's `VAR=` usually means. */
export function presentValues(env: Env): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined && (entry[1] !== "" || EMPTY_IS_A_VALUE.has(entry[0])),
    ),
  );
}

export const envInteger = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be an integer from ${min} to ${max}`)
    .transform(Number)
    .refine((value) => value >= min && value <= max, `must be an integer from ${min} to ${max}`);

export const envUrl = (protocols: readonly string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL (${protocols.join(" or ")})`,
  );

export const publicKeyText = z.string().refine(isAddressText, "must be a base58 public key");

const onOff = z.enum(["on", "off"]).default("on");

export const ENV_SCHEMA = z.object({
  // The chain and the deployment (API and pages).
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
  STRATEGIES_FILE: z.string().min(1).optional(),
  // Storage.
  DATABASE_URL: envUrl(["postgres:", "postgresql:"]).optional(),
  PGLITE_DIR: z.string().min(1).optional(),
  REDIS_URL: envUrl(["redis:", "rediss:"]).optional(),
  // The HTTP server and the API's limits.
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: envInteger(0, 65535).default(3000),
  TRUSTED_PROXY_COUNT: envInteger(0, 10).default(0),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  // The level of the one line per request (a 5xx is always a warning); unset: by NODE_ENV.
  REQUEST_LOG_LEVEL: z.enum(["debug", "info"]).optional(),
  RPC_TIMEOUT_MS: envInteger(100, 10_000).default(2000),
  DATABASE_TIMEOUT_MS: envInteger(100, 10_000).default(2000),
  DEFAULT_KEY_RPM: envInteger(1, 1_000_000).default(120),
  KEY_CACHE_SECONDS: envInteger(0, 300).default(5),
  PRIORITY_FEE_CAP_MICROLAMPORTS: envInteger(0, 100_000_000).default(100_000),
  DEPOSIT_SLIPPAGE_BPS: envInteger(0, 5000).default(50),
  NAV_INTERVAL_SECONDS: envInteger(1, 7 * 86_400).default(60),
  APY_MIN_SPAN_SECONDS: envInteger(0, 30 * 86_400).default(86_400),
  STAGE_INTERVAL_SECONDS: envInteger(1, 86_400).default(20),
  // The keeper's other settings the arrival estimate is computed from (its --stage-max-shares, --tick).
  STAGE_MAX_SHARES: z
    .string()
    .regex(/^[1-9]\d{0,19}$/, "must be a positive integer of raw share units")
    .transform((value) => BigInt(value))
    .default(25_000_000_000n),
  KEEPER_TICK_SECONDS: envInteger(1, 3_600).default(2),
  SLOT_MS: envInteger(10, 10_000).default(400),
  // The pages: the browser's endpoints and who may frame /embed/….
  PUBLIC_RPC_URL: envUrl(["http:", "https:"]).optional(),
  PUBLIC_WS_URL: envUrl(["ws:", "wss:"]).optional(),
  FAUCET_URL: envUrl(["http:", "https:"]).optional(),
  FRAME_ANCESTORS: z
    .string()
    .transform((value, context) => {
      const parsed = parseFrameAncestors(value);
      if (!parsed.ok) {
        context.addIssue({ code: "custom", message: parsed.reason });
        return z.NEVER;
      }
      return parsed.sources;
    })
    .optional(),
  // The pages' first-party session.
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  FIRST_PARTY_API_KEY: z
    .string()
    .regex(API_KEY_PATTERN, "must be an API key (vk_live_… or vk_test_…)")
    .optional(),
  FIRST_PARTY_RPM: envInteger(1, 1_000_000).default(300),
  SESSION_TTL_SECONDS: envInteger(60, 86_400).default(1_800),
  SESSION_RPM: envInteger(1, 1_000_000).default(120),
  SESSION_ISSUE_LIMIT: envInteger(1, 1_000_000).default(300),
  SESSION_ISSUE_WINDOW_SECONDS: envInteger(1, 86_400).default(600),
  // The indexer and the webhook worker.
  INDEXER: onOff,
  INDEXER_INTERVAL_SECONDS: envInteger(1, 3_600).default(15),
  INDEXER_WS_URL: z
    .string()
    .refine((value) => {
      if (value === "off") {
        return true;
      }
      try {
        return ["ws:", "wss:"].includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, "must be a ws:// or wss:// URL, or off")
    .optional(),
  WEBHOOKS: onOff,
  WEBHOOK_ALLOWED_NETWORKS: z.string().optional(),
  WEBHOOK_CAPACITY_LOW_BPS: envInteger(0, 10_000).default(1_000),
  WEBHOOK_MAX_ENDPOINTS_PER_KEY: envInteger(1, 1_000).default(20),
  WEBHOOK_CONCURRENCY: envInteger(1, 1_000).default(50),
  WEBHOOK_TIMEOUT_MS: envInteger(1_000, 60_000).default(10_000),
  WEBHOOK_RETENTION_DAYS: envInteger(1, 3_650).default(7),
  // Checked by the webhook settings (lib/webhooks/settings.ts): 32-byte keys, base64 or hex.
  WEBHOOK_SECRET_KEY: z.string().optional(),
  WEBHOOK_SECRET_KEY_PREVIOUS: z.string().optional(),
  // The keeper's second RPC: a strike needs both to read the same vault assets (see docs/operator.md).
  KEEPER_CHECK_RPC_URL: envUrl(["http:", "https:"]).optional(),
  KEEPER_CHECK_MAX_SLOT_LAG: envInteger(0, 10_000).optional(),
  // GET /metrics's bearer token; the runtime mode.
  METRICS_TOKEN: z.string().optional(),
  NODE_ENV: z.string().optional(),
});

/** The environment's values, typed, as the one schema parsed them. */
export type EnvValues = z.output<typeof ENV_SCHEMA>;

/** Variables whose value an error message must not repeat. */
const SECRET_VARIABLES = new Set([
  "SESSION_SECRET",
  "FIRST_PARTY_API_KEY",
  "METRICS_TOKEN",
  "DATABASE_URL",
  "REDIS_URL",
  "WEBHOOK_SECRET_KEY",
  "WEBHOOK_SECRET_KEY_PREVIOUS",
]);

/** Parses the environment with the one schema; throws ConfigError naming the first bad variable. */
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

export function parseEnv(env: Env): EnvValues {
  const present = presentValues(env);
  const parsed = ENV_SCHEMA.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? "environment");
    const got = SECRET_VARIABLES.has(name) ? "" : `; got "${present[name] ?? ""}"`;
    throw new ConfigError(`Invalid configuration: ${name} ${issue?.message ?? "is invalid"}${got}`);
  }
  return parsed.data;
}

const addressesFileSchema = z.object({
  rpcUrl: z.string().optional(),
  wsUrl: z.string().optional(),
  faucetUrl: z.string().optional(),
  programId: z.string().optional(),
  protocolId: z.string().nullable().optional(),
  asset: z.object({ mint: z.string(), symbol: z.string(), decimals: z.number() }).optional(),
  defaultVaultId: z.string().nullable().optional(),
});

export type AddressesFile = z.infer<typeof addressesFileSchema>;

/** The localnet's addresses file: null when there is none to read, "invalid" when it is not one. */
export function readAddressesFile(path: string): AddressesFile | null | "invalid" {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return "invalid";
  }
  const parsed = addressesFileSchema.safeParse(json);
  return parsed.success ? parsed.data : "invalid";
}
