// GET /api/portfolio?wallet= and GET /api/vault/{id}/allocations.
import { z } from "zod";

import { base58KeyOutput, successEnvelope, tokenAmountSchema, walletInput } from "./common";

export const portfolioQuery = z.object({ wallet: walletInput });

const signedAmountSchema = z.object({
  amount: z.string().meta({ description: "Raw units, may be negative" }),
  uiAmount: z.number(),
});

export const positionSchema = z
  .object({
    vaultId: z.string(),
    vaultName: z.string(),
    shares: tokenAmountSchema,
    value: tokenAmountSchema,
    costBasis: tokenAmountSchema,
    pnl: signedAmountSchema
      .extend({
        fraction: z.number().nullable().meta({ description: "PnL over cost basis (0.0824 = 8.24%)" }),
      })
      .meta({ description: "Unrealized PnL: the position's value against the cost basis still in it" }),
    unrealizedPnl: signedAmountSchema.meta({ description: "The same as pnl, named for what it is" }),
    realizedPnl: signedAmountSchema.meta({
      description: "What claims paid (after their fees) against the cost basis they took out",
    }),
    totalPnl: signedAmountSchema
      .extend({
        fraction: z
          .number()
          .nullable()
          .meta({ description: "Total PnL over all assets the wallet deposited (0.0824 = 8.24%)" }),
      })
      .meta({
        description:
          "Realized plus unrealized: a withdrawal fee that came back to the wallet's own shares counts as the loss it is",
      }),
    feesPaid: tokenAmountSchema.meta({
      description: "Withdrawal fees the wallet's claims paid, from the program's WithdrawalClaimed events",
    }),
    pendingWithdrawal: z.object({ shares: tokenAmountSchema, value: tokenAmountSchema }).nullable(),
    sharePrice: z.number(),
  })
  .meta({ id: "PortfolioPosition" });

export const portfolioResponse = successEnvelope(
  z.object({
    wallet: base58KeyOutput,
    positions: z.array(positionSchema),
    totalValue: z.array(tokenAmountSchema),
  }),
);

const partSchema = z.object({ amount: tokenAmountSchema, fraction: z.number().nullable() });

export const allocationsResponse = successEnvelope(
  z
    .object({
      totalAssets: tokenAmountSchema,
      idleReserve: partSchema,
      fundedForQueue: partSchema,
      deployed: partSchema,
      strategies: z
        .array(
          partSchema.extend({
            name: z.string(),
            weight: z
              .number()
              .meta({ description: "The manager's declared share of the deployed assets (0.6 = 60%)" }),
          }),
        )
        .meta({
          description:
            "The deployed assets across the strategies the deployment declares for this vault (STRATEGIES_FILE), split by their declared weights; empty when none are declared",
        }),
      asOf: z.string(),
    })
    .meta({ id: "VaultAllocations" }),
);
