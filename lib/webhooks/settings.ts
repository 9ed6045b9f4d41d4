// Webhook settings, parsed once at boot like the rest of the configuration: whether this instance runs
// a delivery worker, which private networks a target may still be in, and the capacity_low threshold.
import { isIP } from "node:net";

import { z } from "zod";

import { ConfigError, parseEnv, type Env, type EnvValues } from "../env-schema";
import type { TargetPolicy } from "./target";

export interface WebhookSettings {
  worker: boolean;
  target: TargetPolicy;
  capacityLowBps: number;
}

const cidr = z.string().refine((value) => {
  const [address = "", prefix] = value.split("/");
  const family = isIP(address);
  const bits = prefix === undefined ? 0 : Number(prefix);
  return family !== 0 && Number.isInteger(bits) && bits >= 0 && bits <= (family === 4 ? 32 : 128);
}, "must be a comma-separated list of networks (CIDR, e.g. 127.0.0.0/8)");

const LOOPBACK_NETWORKS = ["127.0.0.0/8", "::1/128"];

function isLoopbackUrl(text: string): boolean {
  try {
    const host = new URL(text).hostname;
    return host === "127.0.0.1" || host === "localhost" || host === "[::1]";
  } catch {
    return false;
  }
}

/**
 * https only in production. Outside production against the local chain (RPC on loopback) a receiver on
 * loopback is allowed, so `npm run dev` can deliver to http://127.0.0.1; WEBHOOK_ALLOWED_NETWORKS
 * replaces that default (empty: nothing exempt).
 */
export function parseWebhookSettings(env: Env, rpcUrl: string): WebhookSettings {
  return webhookSettingsFrom(parseEnv(env), rpcUrl);
}

/** The webhook settings from the parsed environment, for a context whose chain is at `rpcUrl`. */
export function webhookSettingsFrom(values: EnvValues, rpcUrl: string): WebhookSettings {
  const production = values.NODE_ENV === "production";
  const listed = values.WEBHOOK_ALLOWED_NETWORKS;
  const networks =
    listed === undefined
      ? !production && isLoopbackUrl(rpcUrl)
        ? LOOPBACK_NETWORKS
        : []
      : listed
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
  };
}
