// The keyless endpoints (bare bodies, no envelope) and the health check.
import { z } from "zod";

import { addressInput } from "./common";

export const publicVaultQuery = z.object({ vault: addressInput.optional() }).meta({ id: "PublicVaultQuery" });

export const circulatingSupplyBody = z
  .object({ circulatingSupply: z.number() })
  .meta({ id: "CirculatingSupply" });

export const oracleBody = z.object({ sharePrice: z.number() }).meta({ id: "Oracle" });

export const bareErrorSchema = z
  .object({ error: z.string(), code: z.string(), requestId: z.string() })
  .meta({ id: "BareError" });

const check = z.object({ ok: z.boolean(), latencyMs: z.number().nullable(), error: z.string().optional() });

/** The checks' details are present with the metrics token (or when METRICS_TOKEN is unset). */
export const healthData = z
  .object({
    status: z.enum(["ok", "degraded"]),
    chain: check.extend({ slot: z.number().nullable(), lagSeconds: z.number().nullable() }).optional(),
    store: check.extend({ kind: z.enum(["postgres", "pglite"]) }).optional(),
    redis: check.extend({ configured: z.boolean() }).optional(),
  })
  .meta({ id: "Health" });

/** 200: every check passed. */
export const healthResponse = z
  .object({ success: z.literal(true), data: healthData })
  .meta({ id: "HealthResponse" });

/** 503: the same checks, with the failing ones named. */
export const healthDegradedResponse = z
  .object({
    success: z.literal(false),
    error: z.string(),
    code: z.literal("SERVICE_DEGRADED"),
    data: healthData,
  })
  .meta({ id: "HealthDegradedResponse" });
