// Amounts as people type and read them: human decimal text to raw bigint units (never through a float),
// read as the person's locale writes numbers, and raw units back to text written the same way
// ("12,345.67" in en-US, "12.345,67" in de-DE), exact on bigint with the rounding named at each use.
import { U64_MAX, formatUnits } from "../vault/model/token-amount";

export type ParsedAmount =
  { ok: true; raw: bigint } | { ok: false; reason: string } | { ok: false; empty: true; reason: string };

/** The decimal mark a locale writes: "," (de, fr, es, pt-BR, ru…) or "." (en, zh, ja…). */
export type DecimalMark = "." | ",";

/** The decimal mark of `locale`, or of this runtime's (the browser's) locale when none is given. */
export function decimalMarkOf(locale?: string): DecimalMark {
  const parts = new Intl.NumberFormat(locale).formatToParts(1.5);
  return parts.find((part) => part.type === "decimal")?.value === "," ? "," : ".";
}

// Spaces (also no-break and thin ones), apostrophes and underscores only ever group digits.
const GROUPING_ONLY = /[\s\u00a0\u202f'’_]/g;
const NOT_A_NUMBER = "Enter a number, like 250 or 99.5";

/**
 * Typed text → "digits" or "digits.digits" (either side may be empty), or why it is refused.
 * `1,5` and `1000,5` are 1.5 and 1000.5 in every locale: a mark that is not followed by groups of three
 * digits cannot separate thousands. `1,500` is 1500 where the locale groups with commas and 1.5 where it
 * writes decimals with them. With both marks the last is the decimal mark. Thousands separators (also
 * spaces and apostrophes) are accepted only between groups of three, so `1 5` is refused, never 15.
 */
function canonicalDecimal(text: string, mark: DecimalMark): string | { reason: string } {
  const spaced = text.replace(GROUPING_ONLY, " ");
  const commas = spaced.split(",").length - 1;
  const dots = spaced.split(".").length - 1;
  let decimalMark: DecimalMark | null = null;
  let groupMark: DecimalMark | null = null;
  if (commas > 0 && dots > 0) {
    decimalMark = spaced.lastIndexOf(",") > spaced.lastIndexOf(".") ? "," : ".";
    groupMark = decimalMark === "," ? "." : ",";
  } else if (commas + dots > 0) {
    const used: DecimalMark = commas > 0 ? "," : ".";
    // One mark is the decimal mark unless it is this locale's thousands separator, placed as one; only a
    // thousands separator appears twice.
    const grouping =
      commas + dots > 1 || (used !== mark && isGrouped(spaced.replaceAll(" ", "").replace(used, " ")));
    decimalMark = grouping ? null : used;
    groupMark = grouping ? used : null;
  }
  const point = decimalMark === null ? -1 : spaced.lastIndexOf(decimalMark);
  const whole = point === -1 ? spaced : spaced.slice(0, point);
  const fraction = point === -1 ? null : spaced.slice(point + 1);
  const wholeGroups = groupMark === null ? whole : whole.replaceAll(groupMark, " ");
  if (fraction !== null && !/^\d*$/.test(fraction)) {
    return { reason: NOT_A_NUMBER };
  }
  if (wholeGroups.includes(" ") && !isGrouped(wholeGroups)) {
    const exampleDecimal = groupMark === "," ? "." : groupMark === "." ? "," : mark;
    return {
      reason: /^[\d ]*$/.test(wholeGroups)
        ? `Separate thousands only in groups of three, like 1${groupMark ?? " "}234${exampleDecimal}5`
        : NOT_A_NUMBER,
    };
  }
  const digits = wholeGroups.replaceAll(" ", "");
  return fraction === null ? digits : `${digits}.${fraction}`;
}

/** "1 234 567" → true: groups of three digits after a first group of one to three (not led by 0). */
function isGrouped(spacedDigits: string): boolean {
  return /^[1-9]\d{0,2}( \d{3})+$/.test(spacedDigits);
}

/**
 * "1,234.5" with 6 decimals → 1234500000n; in a locale that writes decimal commas ("de"), "1.234,5" is
 * the same amount. Grouping spaces and apostrophes are ignored. The locale defaults to the runtime's.
 */
export function parseAmountInput(text: string, decimals: number, locale?: string): ParsedAmount {
  const canonical = canonicalDecimal(text.trim(), decimalMarkOf(locale));
  if (typeof canonical !== "string") {
    return { ok: false, reason: canonical.reason };
  }
  if (canonical === "") {
    return { ok: false, empty: true, reason: "Enter an amount" };
  }
  const match = /^(\d*)(?:\.(\d*))?$/.exec(canonical);
  if (match === null || (match[1] === "" && (match[2] ?? "") === "")) {
    return { ok: false, reason: NOT_A_NUMBER };
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

/** How a figure is cut to the digits shown, named at each use. */
export type Rounding =
  /** Toward zero: a balance, or what a person receives, is never overstated. */
  | "down"
  /** Away from zero: a fee or a cost is never understated. */
  | "up"
  /** To the nearest shown digit (half away from zero): a valuation such as a position or a TVL. */
  | "nearest";

export interface FormatOptions {
  /** Fraction digits always shown (padded). Default 2. */
  minFraction?: number;
  /** Fraction digits at most. Default 2. */
  maxFraction?: number;
  /** Default "down". */
  rounding?: Rounding;
  /** The reader's locale (its digit grouping and decimal mark); the runtime's when absent. */
  locale?: string;
}

const groupings = new Map<string, Intl.NumberFormat>();

/** The locale's grouped whole number, exact for any bigint ("1.234.567" in "de-DE"). */
function groupedWhole(whole: bigint, locale: string | undefined): string {
  const key = locale ?? "";
  let format = groupings.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, { useGrouping: true, maximumFractionDigits: 0 });
    groupings.set(key, format);
  }
  return format.format(whole);
}

/** `raw` (with `decimals`) in units of 10^-fraction, cut as `rounding` says; sign kept. */
export function scaleTo(raw: bigint, decimals: number, fraction: number, rounding: Rounding): bigint {
  if (fraction >= decimals) {
    return raw * 10n ** BigInt(fraction - decimals);
  }
  const unit = 10n ** BigInt(decimals - fraction);
  const magnitude = raw < 0n ? -raw : raw;
  const rest = magnitude % unit;
  let scaled = magnitude / unit;
  if ((rounding === "up" && rest > 0n) || (rounding === "nearest" && rest * 2n >= unit)) {
    scaled += 1n;
  }
  return raw < 0n ? -scaled : scaled;
}

/** Digits written `fraction` places after the point: 150n, 2 → "1.50" in the locale's own marks. */
function writeScaled(scaled: bigint, fraction: number, minFraction: number, locale?: string): string {
  const negative = scaled < 0n;
  const magnitude = negative ? -scaled : scaled;
  const unit = 10n ** BigInt(fraction);
  const digits = (magnitude % unit)
    .toString()
    .padStart(fraction, "0")
    .slice(0, fraction)
    .replace(/0+$/, "")
    .padEnd(minFraction, "0");
  const whole = groupedWhole(magnitude / unit, locale);
  return `${negative ? "-" : ""}${whole}${digits === "" ? "" : `${decimalSymbol(locale)}${digits}`}`;
}

function decimalSymbol(locale?: string): string {
  return decimalMarkOf(locale);
}

/**
 * One formatter for money, exact on bigint and written as the reader's locale writes numbers:
 * 1234567891n with 6 decimals → "1,234.56" (en-US) or "1.234,56" (de-DE); truncated unless `rounding`
 * says otherwise, so a balance is never overstated.
 */
export function formatAmount(raw: bigint, decimals: number, options: FormatOptions = {}): string {
  const minFraction = Math.min(options.minFraction ?? 2, decimals);
  const maxFraction = Math.max(options.maxFraction ?? 2, minFraction);
  const shown = Math.min(maxFraction, decimals);
  const scaled = scaleTo(raw, decimals, shown, options.rounding ?? "down");
  return writeScaled(scaled, shown, minFraction, options.locale);
}

/**
 * The fraction digits a figure needs: `atLeast`, or, for one too small to show there (a fee of 1,200
 * raw USDC units is "0.0012", not "0.00"), enough for `significant` significant digits; never more
 * than the token has.
 */
export function fractionDigitsFor(raw: bigint, decimals: number, atLeast = 2, significant = 2): number {
  const magnitude = raw < 0n ? -raw : raw;
  if (magnitude === 0n || atLeast >= decimals || magnitude >= 10n ** BigInt(decimals - atLeast)) {
    return Math.min(atLeast, decimals);
  }
  // The leading digit sits at 10^(digits - 1 - decimals); `significant` digits reach `significant - 1` lower.
  const digits = magnitude.toString().length;
  return Math.min(decimals, Math.max(atLeast, decimals - digits + significant));
}

/** A line that adds up as shown: shown gross − shown fee = shown net, all with `fraction` digits. */
export interface MoneyLine {
  gross: string;
  fee: string;
  net: string;
  /** The fraction digits the line uses: the flow's precision for this unit. */
  fraction: number;
}

/**
 * Gross, fee and net for a person to read, so that the subtraction they see is exact: the precision
 * is the flow's (at least `minFraction`, more when the fee would otherwise not show two significant
 * digits: "1.2000 − 0.0012 = 1.1988", never "1.20 − 0.00 = 1.19"). The gross is cut down, the fee
 * rounded to the nearest shown digit (0.100002 reads 0.10, not 0.11), and the net is their difference;
 * should that overstate the real net, the line takes one more digit, up to the token's own.
 */
export function moneyLine(
  amounts: { gross: bigint; fee: bigint },
  decimals: number,
  options: { locale?: string; minFraction?: number } = {},
): MoneyLine {
  const net = amounts.gross - amounts.fee;
  for (let fraction = fractionDigitsFor(amounts.fee, decimals, options.minFraction ?? 2); ; fraction++) {
    const gross = scaleTo(amounts.gross, decimals, fraction, "down");
    const fee = scaleTo(amounts.fee, decimals, fraction, "nearest");
    const shownNet = gross - fee;
    if (fraction >= decimals || shownNet * 10n ** BigInt(decimals - fraction) <= net) {
      const write = (scaled: bigint) => writeScaled(scaled, fraction, fraction, options.locale);
      return { gross: write(gross), fee: write(fee), net: write(shownNet), fraction };
    }
  }
}

/**
 * The exact amount as plain input text (no grouping) with the locale's decimal mark, for "max" buttons:
 * 1500000n, 6 → "1.5" ("1,5" in "de"), which parseAmountInput reads back in that locale.
 */
export function amountInputText(raw: bigint, decimals: number, locale?: string): string {
  const text = formatUnits(raw, decimals);
  return decimalMarkOf(locale) === "," ? text.replace(".", ",") : text;
}

/** A share price such as 1.000012: six decimals, in the reader's locale ("1,000012" in "de-DE"). */
export function formatSharePrice(price: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 6, maximumFractionDigits: 6 }).format(price);
}

/** 0.0824 → "8.24%" ("8,24 %" in "de-DE"); null → "—". */
export function formatPercent(fraction: number | null, digits = 2, locale?: string): string {
  return fraction === null || !Number.isFinite(fraction)
    ? "—"
    : new Intl.NumberFormat(locale, {
        style: "percent",
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      }).format(fraction);
}

/**
 * Lamports as SOL text with two significant digits at least: 1500000000n → "1.5", a 5,000-lamport
 * fee → "0.000005" (never "0"). A cost is rounded up and an amount received down (`rounding`).
 */
export function formatSol(lamports: bigint, options: { locale?: string; rounding?: Rounding } = {}): string {
  return formatAmount(lamports, 9, {
    minFraction: 0,
    maxFraction: fractionDigitsFor(lamports, 9, 4),
    rounding: options.rounding ?? "down",
    locale: options.locale,
  });
}

const COMPACT_UNITS = [
  { exponent: 12, suffix: "T" },
  { exponent: 9, suffix: "B" },
  { exponent: 6, suffix: "M" },
  { exponent: 3, suffix: "K" },
] as const;

/**
 * A figure short enough for a phone's tile, truncated toward zero like every balance here:
 * 60911140000n with 6 decimals → "60.91K"; under 10,000 whole units it is formatAmount's.
 */
export function formatCompactAmount(raw: bigint, decimals: number, locale?: string): string {
  const negative = raw < 0n;
  const magnitude = negative ? -raw : raw;
  const whole = magnitude / 10n ** BigInt(decimals);
  if (whole < 10_000n) {
    return formatAmount(raw, decimals, { locale });
  }
  const unit = COMPACT_UNITS.find(({ exponent }) => whole >= 10n ** BigInt(exponent)) ?? COMPACT_UNITS[3];
  // Two decimals of the unit, truncated: the raw amount in hundredths of the unit.
  const hundredths = (magnitude * 100n) / 10n ** BigInt(decimals + unit.exponent);
  const text = writeScaled(hundredths, 2, 2, locale);
  return `${negative ? "-" : ""}${text}${unit.suffix}`;
}
