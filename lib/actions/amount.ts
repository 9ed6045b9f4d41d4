// Human amounts as blink clients send them: the text a person typed into the `{amount}` field of an
// action's href, read exactly (no float) into raw units of a token with `decimals`.
import { U64_MAX } from "../vault/model/token-amount";

export type DecimalAmountResult = { ok: true; amount: bigint } | { ok: false; reason: string };

export function parseDecimalAmount(text: string, decimals: number): DecimalAmountResult {
  const trimmed = text.trim();
  if (!/^\d{1,20}(\.\d{1,30})?$/.test(trimmed)) {
    return { ok: false, reason: "must be a positive number such as 250 or 12.5" };
  }
  const [whole = "0", fraction = ""] = trimmed.split(".");
  if (fraction.replace(/0+$/, "").length > decimals) {
    return { ok: false, reason: `has more than ${decimals} decimals` };
  }
  const amount = BigInt(whole + fraction.slice(0, decimals).padEnd(decimals, "0"));
  if (amount === 0n) {
    return { ok: false, reason: "must be more than zero" };
  }
  if (amount > U64_MAX) {
    return { ok: false, reason: "is too large" };
  }
  return { ok: true, amount };
}
