// POST /api/vault/{vault_id}/deposit: request validation and the response shape.
import { z } from "zod";

import { rawAmountInput, successEnvelope, tokenAmountSchema, transactionFields, walletInput } from "./common";

export const depositRequest = z
  .object({
    wallet: walletInput,
    amount: rawAmountInput.optional(),
    uiAmount: z
      .number({ error: "must be a number" })
      .positive("must be a positive number")
      .optional()
      .meta({ description: "Human amount; at most the asset's decimals. `amount` wins when both are given" }),
  })
  .refine((body) => body.amount !== undefined || body.uiAmount !== undefined, {
    message: "one of amount or uiAmount is required",
    path: ["amount"],
  })
  .meta({ id: "DepositRequest" });

export const depositData = z
  .object({
    ...transactionFields,
    details: z.object({
      vaultId: z.string(),
      vaultName: z.string(),
      depositAmount: tokenAmountSchema,
      depositAmountHuman: z.string(),
      assetDecimals: z.number().int(),
      estimatedSharesReceived: tokenAmountSchema,
      currentSharePrice: z.number(),
    }),
  })
  .meta({ id: "DepositData" });

export const depositResponse = successEnvelope(depositData).meta({ id: "DepositResponse" });
