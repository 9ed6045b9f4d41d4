import { describe, expect, it } from "vitest";

import {
  amountInputText,
  decimalMarkOf,
  formatAmount,
  formatCompactAmount,
  formatPercent,
  formatSol,
  fractionDigitsFor,
  moneyLine,
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

describe("formatAmount in the reader's locale (issue 29: German input, US output)", () => {
  it("writes 1.500,00 where 1.500 is read as fifteen hundred", () => {
    expect(formatAmount(1_500_000_000n, 6, { locale: "de-DE" })).toBe("1.500,00");
    expect(parseAmountInput("1.500,00", 6, "de-DE")).toEqual({ ok: true, raw: 1_500_000_000n });
    expect(formatAmount(9_998_500_000n, 6, { locale: "de-DE" })).toBe("9.998,50");
    expect(formatAmount(9_998_500_000n, 6, { locale: "en-US" })).toBe("9,998.50");
    expect(formatAmount(1_234_567_891n, 6, { locale: "fr-FR" })).toBe("1\u202f234,56");
  });

  it("reads back what it writes, in every locale", () => {
    for (const locale of ALL_LOCALES) {
      for (const raw of [1_500_000_000n, 9_998_500_000n, 1_234_567_891_230n, 1_200n]) {
        const text = formatAmount(raw, 6, { locale, minFraction: 6, maxFraction: 6 });
        expect(parseAmountInput(text, 6, locale), `${locale} ${text}`).toEqual({ ok: true, raw });
      }
    }
  });

  it("is exact beyond a float's 2^53", () => {
    expect(formatAmount(18_446_744_073_709_551_615n, 6, { locale: "de-DE", maxFraction: 6 })).toBe(
      "18.446.744.073.709,551615",
    );
  });

  it("names its rounding: down for balances, up for fees, nearest for valuations", () => {
    // "Your position 76.99 USDC" right after depositing 77.00: the shares are worth 76.999999.
    expect(formatAmount(76_999_999n, 6, { rounding: "nearest" })).toBe("77.00");
    expect(formatAmount(76_999_999n, 6)).toBe("76.99");
    expect(formatAmount(1_500n, 6, { rounding: "up" })).toBe("0.01");
    expect(formatAmount(-490_197n, 6, { rounding: "nearest" })).toBe("-0.49");
  });
});

describe("fractionDigitsFor: small fees shown with enough digits", () => {
  it.each([
    [1_200n, 4, "0.0012"],
    [1_500n, 4, "0.0015"],
    [26_026_064n, 2, "26.02"],
    // Visible at two digits: the flow keeps its two ("0.05 USDC" to the nearest), no third digit.
    [49_950n, 2, "0.04"],
    [0n, 2, "0.00"],
    [5n, 6, "0.000005"],
  ])("a fee of %s raw USDC shows with %s digits", (fee, digits, text) => {
    expect(fractionDigitsFor(fee, 6)).toBe(digits);
    expect(formatAmount(fee, 6, { minFraction: digits, maxFraction: digits })).toBe(text);
  });

  it("shows a 5,000-lamport fee as 0.000005 SOL, not 0", () => {
    expect(formatSol(5_000n)).toBe("0.000005");
    expect(formatSol(5_000n, { locale: "de-DE" })).toBe("0,000005");
    expect(formatSol(2_044_280n, { rounding: "up" })).toBe("0.0021");
  });
});

describe("moneyLine: gross − fee = net as shown", () => {
  /** The shown line's arithmetic, done on the shown text (en-US). */
  function addsUp(line: { gross: string; fee: string; net: string }): boolean {
    const cents = (text: string) => BigInt(text.replaceAll(",", "").replace(".", ""));
    return cents(line.gross) - cents(line.fee) === cents(line.net);
  }

  it("never says Gross 1.20 − Fee 0.00 = You receive 1.19 (issue 29)", () => {
    // 1.20 USDC at a 0.1% fee: 0.0012 charged.
    const line = moneyLine({ gross: 1_200_000n, fee: 1_200n }, 6, { locale: "en-US" });
    expect(line).toEqual({ gross: "1.2000", fee: "0.0012", net: "1.1988", fraction: 4 });
    expect(addsUp(line)).toBe(true);
  });

  it("never says 26,026.06 − 26.02 = 26,000.03 (issue 29)", () => {
    const gross = 26_026_064_123n;
    const fee = (gross * 10n + 9_999n) / 10_000n; // 0.1%, rounded up as the program does
    const line = moneyLine({ gross, fee }, 6, { locale: "en-US" });
    expect(line).toEqual({ gross: "26,026.06", fee: "26.03", net: "26,000.03", fraction: 2 });
    // 100 shares' 0.1% fee, 0.100002 USDC, reads 0.10 (never 0.11) and the line still adds up.
    expect(moneyLine({ gross: 100_001_200n, fee: 100_002n }, 6)).toEqual({
      gross: "100.00",
      fee: "0.10",
      net: "99.90",
      fraction: 2,
    });
    expect(addsUp(line)).toBe(true);
    // The shown net never overstates the real one.
    expect(26_000_030_000n).toBeLessThanOrEqual(gross - fee);
  });

  it("adds up as shown, never overstating the net, over many amounts", () => {
    for (let gross = 1n; gross < 3_000_000_000n; gross = gross * 7n + 13_337n) {
      for (const bps of [0n, 1n, 10n, 30n, 250n]) {
        const fee = (gross * bps + 9_999n) / 10_000n;
        const line = moneyLine({ gross, fee }, 6, { locale: "en-US" });
        expect(addsUp(line), `${gross} ${bps}`).toBe(true);
        const shownNet =
          BigInt(line.net.replaceAll(",", "").replace(".", "")) * 10n ** BigInt(6 - line.fraction);
        expect(shownNet).toBeLessThanOrEqual(gross - fee);
      }
    }
  });

  it("writes the line in de-DE", () => {
    expect(moneyLine({ gross: 9_998_500_000n, fee: 9_998_500n }, 6, { locale: "de-DE" })).toEqual({
      gross: "9.998,50",
      fee: "10,00",
      net: "9.988,50",
      fraction: 2,
    });
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
