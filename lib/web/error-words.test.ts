import { describe, expect, it } from "vitest";

import { describeError } from "./error-words";
import {
  ApiRequestError,
  BlockhashExpiredError,
  ChainUnreachableError,
  RecordingFailedError,
  TransactionRefusedError,
} from "./errors";
import type { VaultView } from "./vault-view";

const utc = { clock: { timeZone: "UTC" } };
const USDC = 1_000_000n;

const vault = {
  decimals: 6,
  assetSymbol: "USDC",
  hourly: { cap: 25_000n * USDC, used: 24_000n * USDC, windowStart: 1_763_816_400n, length: 3_600 },
  daily: { cap: 100_000n * USDC, used: 24_000n * USDC, windowStart: 1_763_769_600n, length: 86_400 },
} as VaultView;

describe("errors in words", () => {
  it("a refusal in the wallet", () => {
    const words = describeError(
      Object.assign(new Error("User rejected the request."), { name: "WalletSignTransactionError" }),
    );
    expect(words.kind).toBe("wallet-rejected");
    expect(words.message).toBe(
      "You rejected the request in your wallet, so nothing was sent. Try again when you're ready.",
    );
    expect(describeError(Object.assign(new Error("whatever"), { code: 4001 })).kind).toBe("wallet-rejected");
  });

  it("the cap reached at preparation: try a smaller amount or wait until HH:MM", () => {
    const error = new ApiRequestError(
      422,
      "CAPACITY_EXCEEDED",
      "The hourly net-withdrawal cap leaves 1000.00 USDC; this withdrawal is worth 26000.00 USDC. Reduce the amount or wait for capacity",
      "hourly cap 25000000000, used 24000000000, remaining 1000000000 (raw units); resets at 2026-11-22T15:00:00.000Z; hourly remaining 1000000000, daily remaining 76000000000",
    );
    const words = describeError(error, utc);
    expect(words.kind).toBe("cap-reached");
    expect(words.title).toBe("The vault's hourly withdrawal cap is reached");
    expect(words.message).toBe(
      "Cap reached — try a smaller amount or wait until 15:00. It has 1,000.00 USDC left right now.",
    );
  });

  it("the cap reached on chain (6020/6021), with the window's reset from the vault", () => {
    const nowMs = Number(vault.hourly.windowStart) * 1000 + 60_000;
    const hourly = describeError(new TransactionRefusedError("x", 6020, "custom"), { ...utc, vault, nowMs });
    expect(hourly.message).toBe(
      "Cap reached — try a smaller amount or wait until 14:00. It has 1,000.00 USDC left right now.",
    );
    const daily = describeError(new Error("custom program error: 0x1785"), { ...utc, vault, nowMs });
    expect(daily.title).toBe("The vault's daily withdrawal cap is reached");
    expect(daily.message).toContain("wait until 00:00");
  });

  it("not enough SOL for fees, from the API or from the chain", () => {
    const fromApi = describeError(new ApiRequestError(422, "INSUFFICIENT_SOL", "needs lamports"), {
      hasFaucet: true,
    });
    expect(fromApi.title).toBe("Not enough SOL for fees");
    expect(fromApi.message).toContain("Get test funds");
    const fromChain = describeError(
      new Error("Attempt to debit an account but found no record of a prior credit."),
    );
    expect(fromChain.kind).toBe("insufficient-sol");
    expect(fromChain.message).toContain("Add a little SOL");
  });

  it("an expired blockhash, the chain or the app unreachable, a late recording", () => {
    expect(describeError(new BlockhashExpiredError()).message).toContain("rebuilt and signed again");
    expect(describeError(new ChainUnreachableError("x")).title).toBe("The chain is unreachable");
    expect(describeError(new ApiRequestError(503, "CHAIN_UNAVAILABLE", "x")).kind).toBe("chain-unreachable");
    expect(describeError(new TypeError("Failed to fetch")).kind).toBe("chain-unreachable");
    expect(describeError(new RecordingFailedError("5ignature111", new Error("x"))).message).toContain(
      "confirmed",
    );
  });

  it("the API's own refusals keep its words; a 500 does not leak", () => {
    const balance = new ApiRequestError(
      422,
      "INSUFFICIENT_BALANCE",
      "The wallet holds 5.00 USDC, less than 10.00 USDC",
    );
    expect(describeError(balance)).toEqual({
      kind: "refused",
      title: "Not enough in this wallet",
      message: "The wallet holds 5.00 USDC, less than 10.00 USDC",
    });
    expect(describeError(new ApiRequestError(500, "INTERNAL_ERROR", "stack trace")).message).not.toContain(
      "stack",
    );
    expect(describeError(new ApiRequestError(401, "UNAUTHORIZED", "x")).kind).toBe("session-expired");
    expect(describeError(new ApiRequestError(429, "RATE_LIMITED", "x", null, 7)).message).toContain(
      "Wait 7 seconds",
    );
  });

  it("program refusals by code, and anything else generically", () => {
    expect(describeError(new TransactionRefusedError("x", 6014, "custom")).message).toContain("NAV");
    expect(describeError(new TransactionRefusedError("x", 6099, "custom")).message).toContain("error 6099");
    expect(describeError(new Error("weird")).kind).toBe("unknown");
  });
});
