// GET /api/vault/{id}/portfolio-history, /pnl-history and /nav-history: the series window (from, to,
// interval) and the points. As the spec says, these two vault endpoints give percent values where the
// others give fractions: every field ending in Pct is percent (8.24 = 8.24%).
import { z } from "zod";

import { SERIES_INTERVALS } from "../../vault/model/series-timestamps";
import { base58KeyOutput, successEnvelope, tokenAmountSchema, walletInput } from "./common";

/** Most points one response carries; a longer window needs a longer interval. */
export const MAX_SERIES_POINTS = 1_000;
/** The window when `from` is not given: this many days before `to`. */
export const DEFAULT_SERIES_DAYS = 30;

const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** An ISO 8601 date (UTC midnight) or date-time with Z or an offset, as epoch milliseconds. */
export const isoInstantInput = z.string({ error: "must be a string" }).transform((value, context) => {
  const match = ISO_INSTANT.exec(value);
  const [year, month, day, hour, minute, second] = (match?.slice(1) ?? []).map((part) =>
    part === undefined ? 0 : Number(part),
  );
  // Date.parse would roll 2025-02-30 over to March; a calendar date that does not exist is refused.
  const valid =
    match !== null &&
    year !== undefined &&
    month !== undefined &&
    day !== undefined &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    (hour ?? 0) <= 23 &&
    (minute ?? 0) <= 59 &&
    (second ?? 0) <= 59;
  const ms = valid ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms) || ms < 0) {
    context.addIssue({
      code: "custom",
      message:
        "must be an ISO 8601 date or date-time with a time zone, e.g. 2025-06-01 or 2025-06-01T12:00:00Z",
    });
    return z.NEVER;
  }
  return ms;
});

const seriesWindowFields = {
  from: isoInstantInput.optional().meta({
    description: `ISO 8601 start of the window (a date is UTC midnight); default ${DEFAULT_SERIES_DAYS} days before to`,
    example: "2025-06-01T00:00:00Z",
  }),
  to: isoInstantInput.optional().meta({
    description: "ISO 8601 end of the window; default, and at most, now",
    example: "2025-07-01T00:00:00Z",
  }),
  interval: z
    .enum(SERIES_INTERVALS, { error: `must be one of ${SERIES_INTERVALS.join(", ")}` })
    .optional()
    .meta({
      description: `Spacing of the points (UTC minutes, hours, days, weeks from Monday); default day. At most ${MAX_SERIES_POINTS} points per response, so minute covers at most about 16 hours`,
    }),
};

export const positionHistoryQuery = z
  .object({ wallet: walletInput, ...seriesWindowFields })
  .meta({ id: "PositionHistoryQuery" });

export const navHistoryQuery = z.object(seriesWindowFields).meta({ id: "NavHistoryQuery" });

const signedAmountSchema = z.object({
  amount: z.string().meta({ description: "Raw asset units, may be negative" }),
  uiAmount: z.number(),
});

const percentSchema = (description: string) =>
  z
    .number()
    .nullable()
    .meta({ description: `Percent (8.24 = 8.24%), truncated at 6 decimals. ${description}` });

const seriesFields = {
  vaultId: z.string(),
  from: z.string().meta({ description: "ISO 8601: the first point's time" }),
  to: z.string().meta({ description: "ISO 8601: the last point's time (the requested to, at most now)" }),
  interval: z.enum(SERIES_INTERVALS),
};

export const portfolioHistoryPointSchema = z
  .object({
    timestamp: z.string().meta({ description: "ISO 8601: the position as of this instant" }),
    sharePrice: z
      .number()
      .nullable()
      .meta({ description: "Assets per share at the newest NAV known then; null before any" }),
    shares: tokenAmountSchema.meta({ description: "Shares in the wallet (not requested for withdrawal)" }),
    pendingShares: tokenAmountSchema.meta({ description: "Shares escrowed by a withdrawal request" }),
    value: tokenAmountSchema.meta({ description: "shares + pendingShares at the share price, rounded down" }),
    costBasis: tokenAmountSchema.meta({
      description: "Average cost of the shares still held or pending, from verified deposits and claims",
    }),
    pnl: signedAmountSchema.meta({ description: "Unrealized: value − costBasis" }),
    realizedPnl: signedAmountSchema.meta({
      description: "Claimed net minus the basis claims took out, so far",
    }),
    pnlPct: percentSchema("pnl / costBasis; null without a cost basis."),
    sharePriceChangePct: percentSchema("Share price change since the series' first priced point."),
  })
  .meta({ id: "PortfolioHistoryPoint" });

export const pnlHistoryPointSchema = z
  .object({
    timestamp: z.string().meta({ description: "ISO 8601" }),
    pnl: signedAmountSchema.meta({ description: "Unrealized PnL in asset units: value − cost basis" }),
    realizedPnl: signedAmountSchema,
    pnlPct: percentSchema("pnl / cost basis; null without a cost basis."),
  })
  .meta({ id: "PnlHistoryPoint" });

export const navHistoryPointSchema = z
  .object({
    timestamp: z.string().meta({ description: "ISO 8601" }),
    sharePrice: z.number().nullable().meta({ description: "Assets per share; null before the first NAV" }),
    totalAssets: tokenAmountSchema.nullable(),
    totalShares: tokenAmountSchema.nullable(),
    navSequence: z.string().nullable(),
    struckAt: z.string().nullable().meta({ description: "ISO 8601: when that NAV was struck" }),
  })
  .meta({ id: "NavHistoryPoint" });

export const portfolioHistoryResponse = successEnvelope(
  z.object({ ...seriesFields, wallet: base58KeyOutput, points: z.array(portfolioHistoryPointSchema) }),
);
export const pnlHistoryResponse = successEnvelope(
  z.object({ ...seriesFields, wallet: base58KeyOutput, points: z.array(pnlHistoryPointSchema) }),
);
export const feesKeptSchema = z
  .object({
    since: z.string().meta({ description: "ISO 8601: the last NAV strike, from which the price rose" }),
    fromSharePrice: z.number().meta({ description: "The share price at that strike" }),
    toSharePrice: z.number().meta({ description: "The share price on chain now" }),
    change: z.number().meta({ description: "toSharePrice / fromSharePrice − 1 (0.001 = 0.1%)" }),
  })
  .meta({
    id: "FeesKept",
    description:
      "The share price rose since the last NAV strike because claims' withdrawal fees stayed in the vault and lifted every remaining share: a jump from exit fees, not yield",
  });

export const navHistoryResponse = successEnvelope(
  z.object({
    ...seriesFields,
    points: z.array(navHistoryPointSchema),
    feesKeptSinceLastStrike: feesKeptSchema.nullable().meta({
      description: "Set when the price on chain now is above the last strike's (exit fees kept by holders)",
    }),
  }),
);
