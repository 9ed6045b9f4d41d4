// Webhook settings, parsed once at boot like the rest of the configuration: whether this instance runs
// a delivery worker, which private networks a target may still be in (none unless listed), and the
// capacity_low threshold.
import { isIP } from "node:net";
import { dirname, resolve } from "node:path";

import { z } from "zod";

import { APP_ROOT, ConfigError, parseEnv, type Env, type EnvValues } from "../env-schema";
import { parseSecretKey, type SecretKeySource } from "./secret-box";
import type { TargetPolicy } from "./target";

export interface WebhookSettings {
  worker: boolean;
  target: TargetPolicy;
  capacityLowBps: number;
  /** The key signing secrets are sealed with at rest. */
  secretKey: SecretKeySource;
  /** Endpoints one API key may have (WEBHOOK_MAX_ENDPOINTS_PER_KEY). */
  maxEndpointsPerKey: number;
  /** Attempts a worker makes at once (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** How long an attempt may take (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** How long finished deliveries are kept (WEBHOOK_RETENTION_DAYS). */
  retentionMs: number;
}

/** The development key's file: beside the embedded database (`.data/webhook-secret.key` by default). */
export function secretKeyFile(values: EnvValues): string {
  const database =
    values.DATABASE_URL === undefined && values.PGLITE_DIR !== undefined && values.PGLITE_DIR !== ":memory:"
      ? resolve(APP_ROOT, values.PGLITE_DIR)
      : resolve(APP_ROOT, ".data/pglite");
  return resolve(dirname(database), "webhook-secret.key");
}

/**
 * WEBHOOK_SECRET_KEY (and WEBHOOK_SECRET_KEY_PREVIOUS after a rotation) when set. Unset: a key kept in
 * a file beside the embedded database, or in memory with an in-memory database; refused in production
 * with DATABASE_URL, where every instance must seal and open with the same key.
 */
function secretKeySource(values: EnvValues): SecretKeySource {
  const previous = (values.WEBHOOK_SECRET_KEY_PREVIOUS ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => {
      const key = parseSecretKey(part);
      if (key === null) {
        throw new ConfigError(
          "Invalid configuration: WEBHOOK_SECRET_KEY_PREVIOUS must be a comma-separated list of 32-byte keys (base64 or 64 hex digits)",
        );
      }
      return key;
    });
  if (values.WEBHOOK_SECRET_KEY !== undefined) {
    const current = parseSecretKey(values.WEBHOOK_SECRET_KEY);
    if (current === null) {
      throw new ConfigError(
        "Invalid configuration: WEBHOOK_SECRET_KEY must be 32 bytes, base64 or 64 hex digits (openssl rand -base64 32)",
      );
    }
    return { kind: "env", current, previous };
  }
  if (values.DATABASE_URL !== undefined && values.NODE_ENV === "production") {
    throw new ConfigError(
      "Invalid configuration: WEBHOOK_SECRET_KEY is required in production with DATABASE_URL (every instance seals webhook secrets with it; openssl rand -base64 32)",
    );
  }
  if (values.DATABASE_URL === undefined && values.PGLITE_DIR === ":memory:") {
    return { kind: "memory" };
  }
  return { kind: "file", path: secretKeyFile(values), previous };
}

const cidr = z.string().refine((value) => {
  const [address = "", prefix] = value.split("/");
  const family = isIP(address);
  const bits = prefix === undefined ? 0 : Number(prefix);
  return family !== 0 && Number.isInteger(bits) && bits >= 0 && bits <= (family === 4 ? 32 : 128);
}, "must be a comma-separated list of networks (CIDR, e.g. 127.0.0.0/8)");

/**
 * https only in production. No private network is exempt from the target check unless
 * WEBHOOK_ALLOWED_NETWORKS lists it, whatever the host or NODE_ENV: `npm run dev` with a receiver on
 * this machine sets WEBHOOK_ALLOWED_NETWORKS=127.0.0.1/32.
 */
export function parseWebhookSettings(env: Env): WebhookSettings {
  return webhookSettingsFrom(parseEnv(env));
}

/** The webhook settings from the parsed environment. */
export function webhookSettingsFrom(values: EnvValues): WebhookSettings {
  const production = values.NODE_ENV === "production";
  const networks = (values.WEBHOOK_ALLOWED_NETWORKS ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  for (const network of networks) {
    if (!cidr.safeParse(network).success) {
      throw new ConfigError(
        `Invalid configuration: WEBHOOK_ALLOWED_NETWORKS ${network} is not a network (CIDR)`,
      );
    }
  }
  return {
    worker: values.WEBHOOKS === "on",
    target: { allowHttp: !production, allowedNetworks: networks },
    capacityLowBps: values.WEBHOOK_CAPACITY_LOW_BPS,
    secretKey: secretKeySource(values),
    maxEndpointsPerKey: values.WEBHOOK_MAX_ENDPOINTS_PER_KEY,
    concurrency: values.WEBHOOK_CONCURRENCY,
    timeoutMs: values.WEBHOOK_TIMEOUT_MS,
    retentionMs: values.WEBHOOK_RETENTION_DAYS * 86_400_000,
  };
}
