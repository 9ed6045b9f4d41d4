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
    partner: z
      .string({ error: "must be a key id" })
      .regex(/^key_[1-9A-HJ-NP-Za-km-z]+$/, "must be a key id (key_…)")
      .optional()
      .meta({
        description:
          "Not in the spec's shape (an addition): the app's own pages only (an embed's ?partner=), the id of the partner's API key whose fee this deposit pays. From a partner's key it is refused (403): a key's deposits pay its own partner's fee",
      }),
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
      partnerFee: z
        .object({
          partner: z.string().meta({ description: "The partner's wallet (the API key's partner)" }),
          partnerAsset: z.string().meta({
            description: "The partner's associated token account for the asset, which receives the fee",
          }),
          feeBps: z.number().int().meta({ description: "The partner fee in basis points of the amount" }),
          fee: tokenAmountSchema.meta({ description: "amount × feeBps / 10,000, rounded down" }),
          feeHuman: z.string(),
          netAmount: tokenAmountSchema.meta({ description: "What is deposited after the fee" }),
          netAmountHuman: z.string(),
        })
        .optional()
        .meta({
          description:
            "Present only when the API key carries a partner: the transaction is deposit_with_partner_fee, which pays this fee to the partner in the same instruction; estimatedSharesReceived is for netAmount",
        }),
    }),
  })
  .meta({ id: "DepositData" });

export const depositResponse = successEnvelope(depositData).meta({ id: "DepositResponse" });
