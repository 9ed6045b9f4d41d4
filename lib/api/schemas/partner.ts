// GET /api/partner/earnings: the query (window, vault, format) and the earnings, per vault and per day.
import { z } from "zod";

import { addressInput, base58KeyOutput, successEnvelope, tokenAmountSchema } from "./common";
import { isoInstantInput } from "./position-history";

export const partnerEarningsQuery = z
  .object({
    from: isoInstantInput.optional().meta({
      description:
        "ISO 8601 start of the window, inclusive (a date is UTC midnight); default: the first deposit",
      example: "2025-06-01",
    }),
    to: isoInstantInput.optional().meta({
      description: "ISO 8601 end of the window, exclusive; default now",
      example: "2025-07-01",
    }),
    vault_id: addressInput.optional().meta({ description: "Only this vault; default every vault" }),
    format: z
      .enum(["json", "csv"], { error: "must be json or csv" })
      .optional()
      .meta({ description: "json (the envelope, default) or csv (text/csv, one row per vault and UTC day)" }),
  })
  .meta({ id: "PartnerEarningsQuery" });

const earningsFigures = {
  deposits: z.number().int().meta({ description: "Deposits that paid the partner's fee" }),
  depositedAmount: tokenAmountSchema.meta({ description: "What those depositors paid in, the fee included" }),
  depositedAmountHuman: z.string(),
  feesPaid: tokenAmountSchema.meta({ description: "The partner fees the program paid to the partner" }),
  feesPaidHuman: z.string(),
  holders: z.number().int().meta({ description: "Distinct depositors" }),
  attributedShares: tokenAmountSchema.meta({ description: "The shares those deposits minted" }),
  attributedValueNow: tokenAmountSchema.meta({
    description: "Those shares at the vault's share price now (rounded down)",
  }),
  attributedValueNowHuman: z.string(),
};

export const partnerEarningsData = z
  .object({
    partner: base58KeyOutput.meta({ description: "The key's partner wallet (its fees' owner)" }),
    feeBps: z.number().int().meta({ description: "The key's partner fee now, in bps" }),
    from: z.string().nullable().meta({ description: "ISO 8601 start of the window; null: from the first" }),
    to: z.string().meta({ description: "ISO 8601 end of the window (exclusive)" }),
    vaults: z.array(
      z
        .object({
          vaultId: base58KeyOutput,
          vaultName: z.string(),
          ...earningsFigures,
          days: z.array(
            z.object({ date: z.string().meta({ description: "UTC day, YYYY-MM-DD" }), ...earningsFigures }),
          ),
        })
        .meta({ id: "PartnerVaultEarnings" }),
    ),
  })
  .meta({ id: "PartnerEarnings" });

export const partnerEarningsResponse = successEnvelope(partnerEarningsData).meta({
  id: "PartnerEarningsResponse",
});

export const PARTNER_EARNINGS_CSV_COLUMNS = [
  "date",
  "vault_id",
  "vault_name",
  "asset",
  "deposits",
  "deposited_raw",
  "deposited",
  "fees_paid_raw",
  "fees_paid",
  "holders",
  "attributed_shares_raw",
  "attributed_value_now_raw",
  "attributed_value_now",
] as const;

export const partnerEarningsCsv = z.string().meta({
  description: `format=csv: a header row (${PARTNER_EARNINGS_CSV_COLUMNS.join(",")}) then one row per vault and UTC day; *_raw columns in the token's smallest units, the others as decimals`,
});
