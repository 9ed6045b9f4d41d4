import { describe, expect, it } from "vitest";

import {
  amountInputText,
  decimalMarkOf,
  formatAmount,
  formatCompactAmount,
  formatPercent,
  formatSol,
  parseAmountInput,
} from "./amounts";

// Locales of both kinds: decimal point (en-US, en-GB, ja-JP) and decimal comma (de-DE, fr-FR, pt-BR).
const POINT_LOCALES = ["en-US", "en-GB", "ja-JP"];
const COMMA_LOCALES = ["de-DE", "fr-FR", "pt-BR", "es-ES"];
const ALL_LOCALES = [...POINT_LOCALES, ...COMMA_LOCALES];

describe("parseAmountInput", () => {
  it.each([
    ["250", 250_000_000n],
    ["1,234.5", 1_234_500_000n],
    [" 0.000001 ", 1n],
    [".5", 500_000n],
    ["7.", 7_000_000n],
    ["1,234,567.25", 1_234_567_250_000n],
    ["1 234.5", 1_234_500_000n],
  ])("reads %j as exact raw units (en-US)", (text, raw) => {
    expect(parseAmountInput(text, 6, "en-US")).toEqual({ ok: true, raw });
  });

  it.each([
    ["250", 250_000_000n],
    ["1.234,5", 1_234_500_000n],
    ["1 234,5", 1_234_500_000n],
    ["1\u00a0234,5", 1_234_500_000n],
    ["1\u202f234,5", 1_234_500_000n],
    ["0,000001", 1n],
    [",5", 500_000n],
    ["1.000.000", 1_000_000_000_000n],
  ])("reads %j as exact raw units in a decimal-comma locale (de-DE)", (text, raw) => {
    expect(parseAmountInput(text, 6, "de-DE")).toEqual({ ok: true, raw });
  });

  // The measured bug: `1,5` previewed 15 and `1000,5` was read as 10005. A comma that is not followed by
  // groups of three digits is a decimal mark in every locale: never ten (or a thousand) times the money.
  it.each(ALL_LOCALES)("reads a decimal comma as a decimal mark, never as grouping (%s)", (locale) => {
    expect(parseAmountInput("1,5", 6, locale)).toEqual({ ok: true, raw: 1_500_000n });
    expect(parseAmountInput("1000,5", 6, locale)).toEqual({ ok: true, raw: 1_000_500_000n });
    expect(parseAmountInput("0,500", 6, locale)).toEqual({ ok: true, raw: 500_000n });
    expect(parseAmountInput("12,34", 6, locale)).toEqual({ ok: true, raw: 12_340_000n });
    expect(parseAmountInput("1.234,56", 6, locale)).toEqual({ ok: true, raw: 1_234_560_000n });
    expect(parseAmountInput("1,234.56", 6, locale)).toEqual({ ok: true, raw: 1_234_560_000n });
    expect(parseAmountInput("1'234.5", 6, locale)).toEqual({ ok: true, raw: 1_234_500_000n });
  });

  it("reads a lone mark before three digits as the locale writes it", () => {
    expect(parseAmountInput("1,500", 6, "en-US")).toEqual({ ok: true, raw: 1_500_000_000n });
    expect(parseAmountInput("1,500", 6, "de-DE")).toEqual({ ok: true, raw: 1_500_000n });
    expect(parseAmountInput("1.500", 6, "en-US")).toEqual({ ok: true, raw: 1_500_000n });
    expect(parseAmountInput("1.500", 6, "de-DE")).toEqual({ ok: true, raw: 1_500_000_000n });
  });

  it.each([
    ["", "Enter an amount"],
    ["   ", "Enter an amount"],
    ["abc", "Enter a number, like 250 or 99.5"],
    ["-5", "Enter a number, like 250 or 99.5"],
    ["1e6", "Enter a number, like 250 or 99.5"],
    ["1.5,3.2", "Enter a number, like 250 or 99.5"],
    ["1,5.3,2", "Enter a number, like 250 or 99.5"],
    ["1.2.3", "Separate thousands only in groups of three, like 1.234,5"],
    ["1,2,3", "Separate thousands only in groups of three, like 1,234.5"],
    ["1 5", "Separate thousands only in groups of three, like 1 234.5"],
    ["12,34.5", "Separate thousands only in groups of three, like 1,234.5"],
    ["0.0000001", "Use at most 6 decimal places"],
    ["0", "Enter an amount above zero"],
    ["0,0", "Enter an amount above zero"],
    ["99999999999999999999", "That amount is too large"],
  ])("refuses %j with words (en-US)", (text, reason) => {
    const parsed = parseAmountInput(text, 6, "en-US");
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.reason).toBe(reason);
  });

  it("never goes through a float: 0.1 + 0.2 stays exact", () => {
    expect(parseAmountInput("0.3", 6, "en-US")).toEqual({ ok: true, raw: 300_000n });
    expect(parseAmountInput("0,3", 6, "de-DE")).toEqual({ ok: true, raw: 300_000n });
    expect(parseAmountInput("9007199254740993", 0, "en-US")).toEqual({
      ok: true,
      raw: 9_007_199_254_740_993n,
    });
  });

  it("defaults to the runtime's locale", () => {
    expect(parseAmountInput("1,5", 6)).toEqual({ ok: true, raw: 1_500_000n });
    expect(["." as const, "," as const]).toContain(decimalMarkOf());
  });
});

describe("decimalMarkOf", () => {
  it.each(POINT_LOCALES)("%s writes a decimal point", (locale) => expect(decimalMarkOf(locale)).toBe("."));
  it.each(COMMA_LOCALES)("%s writes a decimal comma", (locale) => expect(decimalMarkOf(locale)).toBe(","));
});

describe("formatAmount", () => {
  it("groups thousands and truncates (never rounds a balance up)", () => {
    expect(formatAmount(1_234_567_891n, 6)).toBe("1,234.56");
    expect(formatAmount(999_999n, 6)).toBe("0.99");
    expect(formatAmount(0n, 6)).toBe("0.00");
    expect(formatAmount(5n, 6, { maxFraction: 6 })).toBe("0.000005");
    expect(formatAmount(-1_500_000n, 6)).toBe("-1.50");
  });

  it("round-trips max-button text in every locale", () => {
    expect(amountInputText(1_500_000n, 6, "en-US")).toBe("1.5");
    expect(amountInputText(1_500_000n, 6, "de-DE")).toBe("1,5");
    // 123.456789 and 123.456 (three decimals after three digits) read back exactly where "." groups.
    for (const locale of ALL_LOCALES) {
      for (const raw of [123_456_789n, 123_456_000n, 1_000_000n, 1n, 1_234_567_891_000n]) {
        expect(parseAmountInput(amountInputText(raw, 6, locale), 6, locale)).toEqual({ ok: true, raw });
      }
    }
  });

  it("formats percents and SOL", () => {
    expect(formatPercent(0.0824)).toBe("8.24%");
    expect(formatPercent(null)).toBe("—");
    expect(formatSol(1_500_000_000n)).toBe("1.5");
  });
});

describe("formatCompactAmount", () => {
  it.each([
    [60_911_140_000n, "60.91K"],
    [9_999_990_000n, "9,999.99"],
    [10_000_000_000n, "10.00K"],
    [1_234_567_891_000n, "1.23M"],
    [999_999_999_999n, "999.99K"],
    [4_200_000_000_000_000n, "4.20B"],
    [12_345_678_000_000_000_000n, "12.34T"],
    [-60_919_000_000n, "-60.91K"],
  ])("shortens %s (6 decimals) to %j, never rounding up", (raw, text) => {
    expect(formatCompactAmount(raw, 6)).toBe(text);
  });
});
