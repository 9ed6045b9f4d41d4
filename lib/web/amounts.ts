// Amounts as people type and read them: human decimal text to raw bigint units (never through a float),
// and raw units back to grouped text ("12,345.67 USDC").
import { U64_MAX, formatUnits } from "../vault/token-amount";

export type ParsedAmount =
  { ok: true; raw: bigint } | { ok: false; reason: string } | { ok: false; empty: true; reason: string };

/** "1,234.5" with 6 decimals → 1234500000n. Thousands separators and spaces are ignored. */
export function parseAmountInput(text: string, decimals: number): ParsedAmount {
  const cleaned = text.replace(/[\s,_]/g, "");
  if (cleaned === "") {
    return { ok: false, empty: true, reason: "Enter an amount" };
  }
  const match = /^(\d*)(?:\.(\d*))?$/.exec(cleaned);
  if (match === null || (match[1] === "" && (match[2] ?? "") === "")) {
    return { ok: false, reason: "Enter a number, like 250 or 99.5" };
  }
  const whole = match[1] ?? "";
  const fraction = match[2] ?? "";
  if (fraction.length > decimals) {
    return { ok: false, reason: `Use at most ${decimals} decimal places` };
  }
  const raw = BigInt(`${whole === "" ? "0" : whole}${fraction.padEnd(decimals, "0")}`);
  if (raw === 0n) {
    return { ok: false, reason: "Enter an amount above zero" };
  }
  if (raw > U64_MAX) {
    return { ok: false, reason: "That amount is too large" };
  }
  return { ok: true, raw };
}

function groupThousands(whole: string): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

export interface FormatOptions {
  /** Fraction digits always shown (padded). Default 2. */
  minFraction?: number;
  /** Fraction digits at most (truncated toward zero, never rounded up). Default 2. */
  maxFraction?: number;
}

/** 1234567891n with 6 decimals → "1,234.56" (truncated, so a balance is never overstated). */
export function formatAmount(raw: bigint, decimals: number, options: FormatOptions = {}): string {
  const minFraction = options.minFraction ?? 2;
  const maxFraction = Math.max(options.maxFraction ?? 2, minFraction);
  const exact = formatUnits(raw, decimals);
  const negative = exact.startsWith("-");
  const [whole = "0", fraction = ""] = (negative ? exact.slice(1) : exact).split(".");
  let shown = fraction.slice(0, maxFraction);
  shown = shown.replace(/0+$/, "").padEnd(minFraction, "0");
  return `${negative ? "-" : ""}${groupThousands(whole)}${shown === "" ? "" : `.${shown}`}`;
}

/** The exact amount as plain input text (no grouping), for "max" buttons: 1500000n, 6 → "1.5". */
export function amountInputText(raw: bigint, decimals: number): string {
  return formatUnits(raw, decimals);
}

/** A share price such as 1.0000123: six significant decimals. */
export function formatSharePrice(price: number): string {
  return price.toFixed(6);
}

/** 0.0824 → "8.24%"; null → "—". */
export function formatPercent(fraction: number | null, digits = 2): string {
  return fraction === null || !Number.isFinite(fraction) ? "—" : `${(fraction * 100).toFixed(digits)}%`;
}

/** Lamports as SOL text: 1500000000n → "1.5". */
export function formatSol(lamports: bigint): string {
  return formatAmount(lamports, 9, { minFraction: 0, maxFraction: 4 });
}
