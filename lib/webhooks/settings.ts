// Webhook settings, parsed once at boot like the rest of the configuration: whether this instance runs
// a delivery worker, which private networks a target may still be in (none unless listed), and the
// capacity_low threshold.
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
  };
}
