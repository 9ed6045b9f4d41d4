// Amounts as people type and read them: human decimal text to raw bigint units (never through a float),
// read as the person's locale writes numbers, and raw units back to grouped text ("12,345.67 USDC").
import {
  U64_MAX,
  formatDisplay,
  formatUnits,
  groupThousands,
  type DisplayOptions,
} from "../vault/model/token-amount";

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

export type FormatOptions = DisplayOptions;

/** 1234567891n with 6 decimals → "1,234.56" (truncated, so a balance is never overstated). */
export function formatAmount(raw: bigint, decimals: number, options: FormatOptions = {}): string {
  return formatDisplay(raw, decimals, options);
}

/**
 * The exact amount as plain input text (no grouping) with the locale's decimal mark, for "max" buttons:
 * 1500000n, 6 → "1.5" ("1,5" in "de"), which parseAmountInput reads back in that locale.
 */
export function amountInputText(raw: bigint, decimals: number, locale?: string): string {
  const text = formatUnits(raw, decimals);
  return decimalMarkOf(locale) === "," ? text.replace(".", ",") : text;
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
export function formatCompactAmount(raw: bigint, decimals: number): string {
  const negative = raw < 0n;
  const magnitude = negative ? -raw : raw;
  const whole = magnitude / 10n ** BigInt(decimals);
  if (whole < 10_000n) {
    return formatAmount(raw, decimals);
  }
  const unit = COMPACT_UNITS.find(({ exponent }) => whole >= 10n ** BigInt(exponent)) ?? COMPACT_UNITS[3];
  // Two decimals of the unit, truncated: the raw amount in hundredths of the unit.
  const hundredths = (magnitude * 100n) / 10n ** BigInt(decimals + unit.exponent);
  const text = `${groupThousands((hundredths / 100n).toString())}.${(hundredths % 100n).toString().padStart(2, "0")}`;
  return `${negative ? "-" : ""}${text}${unit.suffix}`;
}
