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

export const healthBody = z
  .object({
    status: z.enum(["ok", "degraded"]),
    chain: check.extend({ slot: z.number().nullable(), lagSeconds: z.number().nullable() }),
    store: check.extend({ kind: z.string() }),
    redis: check.extend({ configured: z.boolean() }),
  })
  .meta({ id: "Health" });
