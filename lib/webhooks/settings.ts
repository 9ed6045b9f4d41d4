// Webhook settings, parsed once at boot like the rest of the configuration: whether this instance runs
// a delivery worker, which private networks a target may still be in, and the capacity_low threshold.
import { isIP } from "node:net";

import { z } from "zod";

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

const webhookEnv = z.object({
  WEBHOOKS: z.enum(["on", "off"]).default("on"),
  WEBHOOK_ALLOWED_NETWORKS: z.string().optional(),
  WEBHOOK_CAPACITY_LOW_BPS: z.coerce.number().int().min(0).max(10_000).default(1_000),
});

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
export function parseWebhookSettings(
  env: Readonly<Record<string, string | undefined>>,
  rpcUrl: string,
): WebhookSettings {
  const parsed = webhookEnv.safeParse({
    WEBHOOKS: env.WEBHOOKS === "" ? undefined : env.WEBHOOKS,
    WEBHOOK_ALLOWED_NETWORKS: env.WEBHOOK_ALLOWED_NETWORKS,
    WEBHOOK_CAPACITY_LOW_BPS: env.WEBHOOK_CAPACITY_LOW_BPS === "" ? undefined : env.WEBHOOK_CAPACITY_LOW_BPS,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid configuration: ${String(issue?.path[0] ?? "WEBHOOKS")} ${issue?.message ?? ""}`);
  }
  const production = env.NODE_ENV === "production";
  const listed = parsed.data.WEBHOOK_ALLOWED_NETWORKS;
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
      throw new Error(`Invalid configuration: WEBHOOK_ALLOWED_NETWORKS ${network} is not a network (CIDR)`);
    }
  }
  return {
    worker: parsed.data.WEBHOOKS === "on",
    target: { allowHttp: !production, allowedNetworks: networks },
    capacityLowBps: parsed.data.WEBHOOK_CAPACITY_LOW_BPS,
  };
}
