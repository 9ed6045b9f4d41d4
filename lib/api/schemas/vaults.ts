// The vault directory's requests and responses: GET /api/vaults, /api/vault/{id}, /nav, /stats.
import { z } from "zod";

import { successEnvelope, tokenAmountSchema } from "./common";

export const noQuery = z.object({});

const tokenSchema = z.object({ mint: z.string(), symbol: z.string(), decimals: z.number().int() });
const apyFields = {
  apy7d: z
    .number()
    .nullable()
    .meta({ description: "Fraction (0.0824 = 8.24%) from NAV snapshots; null without history" }),
  apy30d: z
    .number()
    .nullable()
    .meta({ description: "Fraction, over the trailing 30 days (or the history there is)" }),
};

export const vaultSummarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    asset: tokenSchema,
    shares: tokenSchema,
    sharePrice: z.number(),
    tvl: tokenAmountSchema,
    ...apyFields,
    caps: z.object({ hourly: tokenAmountSchema.nullable(), daily: tokenAmountSchema.nullable() }),
    feeBps: z
      .number()
      .int()
      .meta({ description: "The withdrawal fee a request sent now meets, in basis points (10 = 0.10%)" }),
    paused: z.boolean(),
    indexedAt: z.string().meta({ description: "ISO 8601: when the indexer last read the vault" }),
  })
  .meta({ id: "VaultSummary" });

const capWindowSchema = z.object({
  cap: tokenAmountSchema.nullable(),
  used: tokenAmountSchema,
  remaining: tokenAmountSchema.nullable(),
  resetsAt: z.string(),
});

const pendingConfigSchema = z
  .object({
    feeBps: z.number().int(),
    minWithdrawalShares: tokenAmountSchema,
    hourlyCap: tokenAmountSchema.nullable().meta({ description: "null: no cap" }),
    dailyCap: tokenAmountSchema.nullable().meta({ description: "null: no cap" }),
    effectiveAt: z
      .string()
      .meta({ description: "ISO 8601: when the pending config replaces the current one" }),
  })
  .meta({
    id: "PendingVaultConfig",
    description:
      "A holder-hurting config change (a higher fee or minimum, a lower, new or removed cap) waiting out the vault's on-chain notice period; requests made before effectiveAt meet the current config",
  });

export const vaultDetailSchema = vaultSummarySchema
  .extend({
    totalShares: tokenAmountSchema,
    navSequence: z.string(),
    navUpdatedAt: z.string().nullable(),
    withdrawalPolicy: z.object({
      feeBps: z.number().int(),
      minimumShares: tokenAmountSchema,
      queueOrder: z.literal("fifo"),
      capsEnforcedAt: z.literal("execution"),
      navSchedule: z.object({
        intervalSeconds: z.number().int(),
        lastNavAt: z.string().nullable(),
        nextNavAt: z.string().nullable(),
      }),
    }),
    withdrawalLimits: z.object({ hourly: capWindowSchema, daily: capWindowSchema }),
    pendingConfig: pendingConfigSchema.nullable(),
  })
  .meta({ id: "VaultDetail" });

export const vaultNavSchema = z
  .object({
    sharePrice: z.number(),
    totalAssets: tokenAmountSchema,
    totalShares: tokenAmountSchema,
    navSequence: z.string(),
    struckAt: z.string().nullable(),
  })
  .meta({ id: "VaultNav" });

export const vaultStatsSchema = z
  .object({
    tvl: tokenAmountSchema,
    depositors: z.number().int(),
    ...apyFields,
    queuedShares: tokenAmountSchema,
    queuedAssets: tokenAmountSchema,
    stagedShares: tokenAmountSchema,
    averageSecondsToClaimable30d: z.number().nullable(),
    firstNavAt: z.string().nullable().meta({
      description:
        "ISO 8601: the first indexed NAV strike with shares outstanding, where the vault's nav-history has a price; null before one",
    }),
  })
  .meta({ id: "VaultStats" });

export const vaultsResponse = successEnvelope(z.object({ vaults: z.array(vaultSummarySchema) }));
export const vaultResponse = successEnvelope(z.object({ vault: vaultDetailSchema }));
export const navResponse = successEnvelope(vaultNavSchema);
export const statsResponse = successEnvelope(vaultStatsSchema);
