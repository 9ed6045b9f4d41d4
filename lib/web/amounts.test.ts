import { describe, expect, it } from "vitest";

import { amountInputText, formatAmount, formatPercent, formatSol, parseAmountInput } from "./amounts";

describe("parseAmountInput", () => {
  it.each([
    ["250", 250_000_000n],
    ["1,234.5", 1_234_500_000n],
    [" 0.000001 ", 1n],
    [".5", 500_000n],
    ["7.", 7_000_000n],
  ])("reads %j as exact raw units", (text, raw) => {
    expect(parseAmountInput(text, 6)).toEqual({ ok: true, raw });
  });

  it.each([
    ["", "Enter an amount"],
    ["abc", "Enter a number, like 250 or 99.5"],
    ["1.2.3", "Enter a number, like 250 or 99.5"],
    ["-5", "Enter a number, like 250 or 99.5"],
    ["1e6", "Enter a number, like 250 or 99.5"],
    ["0.0000001", "Use at most 6 decimal places"],
    ["0", "Enter an amount above zero"],
    ["99999999999999999999", "That amount is too large"],
  ])("refuses %j with words", (text, reason) => {
    const parsed = parseAmountInput(text, 6);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.reason).toBe(reason);
  });

  it("never goes through a float: 0.1 + 0.2 stays exact", () => {
    expect(parseAmountInput("0.3", 6)).toEqual({ ok: true, raw: 300_000n });
    expect(parseAmountInput("9007199254740993", 0)).toEqual({ ok: true, raw: 9_007_199_254_740_993n });
  });
});

describe("formatAmount", () => {
  it("groups thousands and truncates (never rounds a balance up)", () => {
    expect(formatAmount(1_234_567_891n, 6)).toBe("1,234.56");
    expect(formatAmount(999_999n, 6)).toBe("0.99");
    expect(formatAmount(0n, 6)).toBe("0.00");
    expect(formatAmount(5n, 6, { maxFraction: 6 })).toBe("0.000005");
    expect(formatAmount(-1_500_000n, 6)).toBe("-1.50");
  });

  it("round-trips max-button text", () => {
    expect(amountInputText(1_500_000n, 6)).toBe("1.5");
    expect(parseAmountInput(amountInputText(123_456_789n, 6), 6)).toEqual({ ok: true, raw: 123_456_789n });
  });

  it("formats percents and SOL", () => {
    expect(formatPercent(0.0824)).toBe("8.24%");
    expect(formatPercent(null)).toBe("—");
    expect(formatSol(1_500_000_000n)).toBe("1.5");
  });
});
