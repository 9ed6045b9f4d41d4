// Token amounts as the API shows them, { mint, symbol, amount, decimals, uiAmount }, with the raw
// amount as a decimal string, and the conversions between raw units and human amounts.
import type { PublicKey } from "@solana/web3.js";
import { z } from "zod";

import { base58Of } from "../../chain/base58";

export const U64_MAX = 2n ** 64n - 1n;

export interface TokenInfo {
  mint: PublicKey;
  symbol: string;
  decimals: number;
}

export const tokenAmountSchema = z
  .object({
    mint: z.string(),
    symbol: z.string(),
    amount: z.string().meta({ description: "Raw smallest units, decimal digits" }),
    decimals: z.number().int(),
    uiAmount: z.number(),
  })
  .meta({ id: "TokenAmount" });

export type TokenAmount = z.output<typeof tokenAmountSchema>;

/** The exact decimal string of a raw amount: formatUnits(1500000n, 6) = "1.5". */
export function formatUnits(amount: bigint, decimals: number): string {
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction === "" ? "" : `.${fraction}`}`;
}

/** A token as stored (mint as a base58 string) or as read from the chain. */
export type TokenLabel = Omit<TokenInfo, "mint"> & { mint: PublicKey | string };

export function tokenAmount(token: TokenLabel, amount: bigint): TokenAmount {
  return {
    mint: typeof token.mint === "string" ? token.mint : base58Of(token.mint),
    symbol: token.symbol,
    amount: amount.toString(),
    decimals: token.decimals,
    uiAmount: Number(formatUnits(amount, token.decimals)),
  };
}

/** "12345" → "12,345". */
export function groupThousands(whole: string): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

export interface DisplayOptions {
  /** Fraction digits always shown (padded). Default 2. */
  minFraction?: number;
  /** Fraction digits at most (truncated toward zero, never rounded up). Default 2. */
  maxFraction?: number;
}

/**
 * An amount as the pages show it: 1234567891n with 6 decimals → "1,234.56" (grouped, truncated, so a
 * balance or an estimate is never overstated).
 */
export function formatDisplay(raw: bigint, decimals: number, options: DisplayOptions = {}): string {
  const minFraction = options.minFraction ?? 2;
  const maxFraction = Math.max(options.maxFraction ?? 2, minFraction);
  const exact = formatUnits(raw, decimals);
  const negative = exact.startsWith("-");
  const [whole = "0", fraction = ""] = (negative ? exact.slice(1) : exact).split(".");
  const shown = fraction.slice(0, maxFraction).replace(/0+$/, "").padEnd(minFraction, "0");
  return `${negative ? "-" : ""}${groupThousands(whole)}${shown === "" ? "" : `.${shown}`}`;
}

/** "249.87 vUSDC": an estimate or a figure in a sentence, as the pages show it (formatDisplay). */
export function formatAbout(amount: bigint, token: Pick<TokenInfo, "symbol" | "decimals">): string {
  return `${formatDisplay(amount, token.decimals)} ${token.symbol}`;
}

/** "250.00 USDC": at least two decimals, more only when the amount has them (exact: for bounds). */
export function formatHuman(amount: bigint, token: Pick<TokenInfo, "symbol" | "decimals">): string {
  const exact = formatUnits(amount, token.decimals);
  const [whole, fraction = ""] = exact.split(".");
  return `${whole}.${fraction.padEnd(2, "0")} ${token.symbol}`;
}

export type UiAmountResult = { ok: true; amount: bigint } | { ok: false; reason: string };

/**
 * Raw units of a human amount given as a JSON number. Refuses more decimals than the token has (no
 * silent rounding of money) and exponent forms, which JSON numbers of sane amounts never need.
 */
export function parseUiAmount(value: number, decimals: number): UiAmountResult {
  if (!Number.isFinite(value) || value <= 0) {
    return { ok: false, reason: "must be a positive number" };
  }
  const text = String(value);
  if (!/^\d+(\.\d+)?$/.test(text)) {
    return { ok: false, reason: `must be a plain decimal with at most ${decimals} decimals` };
  }
  const [whole = "0", fraction = ""] = text.split(".");
  if (fraction.length > decimals) {
    return { ok: false, reason: `has more than ${decimals} decimals` };
  }
  const amount = BigInt(whole + fraction.padEnd(decimals, "0"));
  if (amount > U64_MAX) {
    return { ok: false, reason: "is too large" };
  }
  return { ok: true, amount };
}
