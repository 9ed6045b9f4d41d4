import { describe, expect, it } from "vitest";

import { ChainUnavailableError } from "../chain/rpc";
import { vaultErrorCode } from "../vault/program/program-errors";
import { TransactionCheckError } from "../vault/operations/transaction-check-error";
import {
  SLOW_STEP_MS,
  describeError,
  sessionNoticeWords,
  slowStepWords,
  withdrawRefusalWords,
} from "./error-words";
import {
  ApiRequestError,
  BlockhashExpiredError,
  RecordingFailedError,
  TransactionCancelledError,
  TransactionRefusedError,
  TransactionStoppedError,
} from "./errors";
import type { VaultView } from "../vault/model/vault-view";

const utc = { clock: { timeZone: "UTC" } };
const USDC = 1_000_000n;

const vault = {
  asset: { mint: "mint", symbol: "USDC", decimals: 6 },
  hourly: { cap: 25_000n * USDC, used: 24_000n * USDC, windowStart: 1_763_816_400n, length: 3_600 },
  daily: { cap: 100_000n * USDC, used: 24_000n * USDC, windowStart: 1_763_769_600n, length: 86_400 },
} as VaultView;

describe("errors in words", () => {
  it("a transaction the check refused before the wallet saw it", () => {
    const refused = new TransactionCheckError(
      "UNEXPECTED_PROGRAM",
      "Instruction 1 calls TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA, which a deposit does not need",
      { instruction: 1, program: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA" },
    );
    const words = describeError(refused);
    expect(words.kind).toBe("refused");
    expect(words.title).toBe("Stopped before your wallet: the transaction was not what you asked for");
    expect(words.message).toContain("nothing was signed (Instruction 1 calls Tokenkeg");
  });

  it("a deposit whose price protection was removed, lowered or set from an untrue preview", () => {
    const shares = { mint: "shares", symbol: "vUSDC", decimals: 9 };
    const withShares = { vault: { ...vault, shares } };
    const removed = new TransactionCheckError("MIN_SHARES_OUT_TOO_LOW", "…", {
      argument: "min_shares_out",
      estimated: "250000000000",
      expected: "248750000000",
      found: "0",
      maxSlippageBps: 50,
    });
    expect(describeError(removed, withShares)).toEqual({
      kind: "refused",
      title: "Stopped before your wallet: the deposit's price protection was lowered",
      message:
        "The deposit prepared for you would accept as few as 0.000000 vUSDC, though it showed about 250.000000 vUSDC " +
        "and you accept at most 0.50% less. A price move before it lands could then cost you more than you " +
        "agreed to, so it was not shown to your wallet and nothing was signed. Try again; if it happens " +
        "again, do not use this site.",
    });
    const untrue = new TransactionCheckError("ESTIMATE_BELOW_SIMULATION", "…", {
      estimated: "0",
      found: "250000000000",
      maxSlippageBps: 50,
    });
    expect(describeError(untrue, withShares).message).toContain(
      "showed about 0.000000 vUSDC but would mint 250.000000 vUSDC, more than 0.50% apart: its price protection",
    );
    const missing = new TransactionCheckError("MISSING_SHARE_ESTIMATE", "…", { argument: "min_shares_out" });
    expect(describeError(missing).title).toBe(
      "Stopped before your wallet: the deposit showed no shares to expect",
    );
  });

  it("a deposit whose partner fee was not the one the page showed", () => {
    const raised = new TransactionCheckError(
      "PARTNER_FEE_TOO_HIGH",
      "The deposit pays a partner fee of 26 bps; at most 25 is accepted",
      { instruction: 1, expected: 25, found: "26" },
    );
    expect(describeError(raised)).toEqual({
      kind: "refused",
      title: "Stopped before your wallet: the deposit's partner fee was not the one shown",
      message:
        "The deposit prepared for you paid a partner fee other than the one this page showed (The deposit pays a " +
        "partner fee of 26 bps; at most 25 is accepted), so it was not shown to your wallet and nothing was " +
        "signed. Try again; if it happens again, do not use this site.",
    });
    const above = new ApiRequestError(
      422,
      "PARTNER_FEE_ABOVE_MAXIMUM",
      "The partner fee of 101 bps is above …",
    );
    expect(describeError(above).title).toBe("This partner's fee is not allowed");
  });

  it("a refusal in the wallet", () => {
    const words = describeError(
      Object.assign(new Error("User rejected the request."), { name: "WalletSignTransactionError" }),
    );
    expect(words.kind).toBe("wallet-rejected");
    expect(words.title).toBe("Cancelled — nothing was signed");
    expect(words.message).toBe(
      "You cancelled in your wallet, so nothing was sent. Try again when you're ready.",
    );
    expect(describeError(Object.assign(new Error("whatever"), { code: 4001 })).kind).toBe("wallet-rejected");
  });

  it("the cap reached at preparation: try a smaller amount or wait until HH:MM, from the API's context", () => {
    const usdc = { mint: "mint", symbol: "USDC", decimals: 6 };
    const amount = (raw: bigint) => ({ ...usdc, amount: raw.toString(), uiAmount: Number(raw) / 1e6 });
    const context = {
      window: "hourly" as const,
      remaining: amount(1_000n * USDC),
      requested: amount(26_000n * USDC),
      cap: amount(25_000n * USDC),
      used: amount(24_000n * USDC),
      resetsAt: "2026-11-22T15:00:00.000Z",
    };
    // The message is a partner's; the words come from the context alone.
    const error = new ApiRequestError(422, "CAPACITY_EXCEEDED", "any message", null, null, {
      code: "CAPACITY_EXCEEDED",
      context,
    });
    const words = describeError(error, utc);
    expect(words.kind).toBe("cap-reached");
    expect(words.title).toBe("The vault's hourly withdrawal cap is reached");
    expect(words.message).toBe(
      "Cap reached — try a smaller amount or wait until 15:00. It has 1,000.00 USDC left right now.",
    );
    const daily = new ApiRequestError(422, "CAPACITY_EXCEEDED", "any message", null, null, {
      code: "CAPACITY_EXCEEDED",
      context: { ...context, window: "daily", resetsAt: "2026-11-23T00:00:00.000Z" },
    });
    expect(describeError(daily, utc).title).toBe("The vault's daily withdrawal cap is reached");
    expect(describeError(daily, utc).message).toContain("wait until 00:00");
    const bare = describeError(
      new ApiRequestError(422, "CAPACITY_EXCEEDED", "The hourly cap leaves 5.00 USDC"),
    );
    expect(bare).toEqual({
      kind: "cap-reached",
      title: "The vault's withdrawal cap is reached",
      message: "Cap reached — try a smaller amount or wait for capacity.",
    });
  });

  it("the cap reached on chain (6020/6021, named by the IDL), with the window's reset from the vault", () => {
    const nowMs = Number(vault.hourly.windowStart) * 1000 + 60_000;
    const refused = (name: string) =>
      new TransactionRefusedError("x", vaultErrorCode(name), "custom", null, name);
    const hourly = describeError(refused("HourlyWithdrawalCapExceeded"), { ...utc, vault, nowMs });
    expect(hourly.message).toBe(
      "Cap reached — try a smaller amount or wait until 14:00 UTC. It has 1,000.00 USDC left right now.",
    );
    const daily = describeError(refused("DailyWithdrawalCapExceeded"), { ...utc, vault, nowMs });
    expect(daily.title).toBe("The vault's daily withdrawal cap is reached");
    // A reset on another day carries its date and zone, never a bare "01:00" 24 h away (issue 29).
    expect(daily.message).toContain("wait until 23 Nov, 00:00 UTC");
    const german = describeError(refused("DailyWithdrawalCapExceeded"), {
      vault,
      nowMs,
      clock: { timeZone: "UTC", locale: "de-DE" },
    });
    expect(german.message).toContain("wait until 23. Nov., 00:00 UTC");
    expect(german.message).toContain("76.000,00 USDC");
  });

  it("not enough SOL for fees, from the API or from the chain", () => {
    const fromApi = describeError(new ApiRequestError(422, "INSUFFICIENT_SOL", "needs lamports"), {
      hasFaucet: true,
    });
    expect(fromApi.title).toBe("Not enough SOL for fees");
    expect(fromApi.message).toContain("Get test funds");
    const fromChain = describeError(
      new TransactionRefusedError(
        "Attempt to debit an account but found no record of a prior credit.",
        null,
        "insufficient-sol",
      ),
    );
    expect(fromChain.kind).toBe("insufficient-sol");
    expect(fromChain.message).toContain("Add a little SOL");
  });

  it("an expired blockhash, the chain or the app unreachable, a late recording", () => {
    expect(describeError(new BlockhashExpiredError()).message).toContain("rebuilt and signed again");
    expect(describeError(new ChainUnavailableError("x")).title).toBe("The chain is unreachable");
    expect(describeError(new ApiRequestError(503, "CHAIN_UNAVAILABLE", "x")).kind).toBe("chain-unreachable");
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

  it("program refusals by their IDL name, and anything else generically", () => {
    const navFloor = vaultErrorCode("NavFloorNotPassed");
    expect(
      describeError(new TransactionRefusedError("x", navFloor, "custom", null, "NavFloorNotPassed")).message,
    ).toContain("NAV");
    expect(describeError(new TransactionRefusedError("x", 6099, "custom")).message).toContain("error 6099");
    // Words come from the name, never from the message.
    expect(describeError(new TransactionRefusedError("NAV floor", 6099, "custom")).message).not.toContain(
      "NAV",
    );
    expect(describeError(new Error("weird")).kind).toBe("unknown");
  });
});

describe("a page served without a session", () => {
  const notice = { retryAtMs: Date.UTC(2026, 10, 26, 16, 52), limit: 300, windowSeconds: 600 };

  it("says why, until when (zone of the reader) and how long, and that the data is live", () => {
    const words = sessionNoticeWords(notice, notice.retryAtMs - 4 * 60_000, { timeZone: "UTC" });
    expect(words).toEqual({
      title: "Deposits and withdrawals wait for a session",
      message:
        "This app starts at most 300 new sessions per 10 minutes from one network address, and your " +
        "network has reached that. Reload after 16:52 (in 4 min) to deposit or withdraw. The vault data " +
        "shown is live.",
      canRetry: false,
    });
  });

  it("counts one session as one", () => {
    const words = sessionNoticeWords({ ...notice, limit: 1 }, notice.retryAtMs - 60_000, { timeZone: "UTC" });
    expect(words.message).toMatch(
      /^This app starts at most 1 new session per 10 minutes from one network address/,
    );
  });

  it("offers the reload once the limiter's Retry-After has passed", () => {
    const words = sessionNoticeWords({ ...notice, windowSeconds: 3_600 }, notice.retryAtMs, {
      timeZone: "UTC",
    });
    expect(words.canRetry).toBe(true);
    expect(words.title).toBe("Reload to deposit or withdraw");
    expect(words.message).toBe(
      "This app starts at most 300 new sessions per hour from one network address, and your network " +
        "has reached that. A session can be started now: reload the page. The vault data shown is live.",
    );
  });
});

describe("a withdrawal the form will not send", () => {
  const names = { asset: vault.asset, shares: { mint: "shares", symbol: "vUSDC", decimals: 9 } };
  const HOUR_END = Date.UTC(2026, 10, 26, 16) / 1000;

  it("over the cap with some left: what is left and until when, and an offer that says what it pays — never 'Cap reached'", () => {
    const words = withdrawRefusalWords(
      {
        block: { kind: "cap", window: "hourly", remaining: 25_000n * USDC, resetsAt: HOUR_END },
        // 25,000 USDC worth at a 0.10% fee: the request pays 24,975.
        fit: {
          shares: 24_999_999_999_999n,
          assets: 25_000n * USDC,
          net: 24_975n * USDC,
          restAfter: HOUR_END,
        },
      },
      names,
      { timeZone: "UTC" },
    );
    expect(words).toEqual({
      reason:
        "The hourly withdrawal cap has 25,000.00 USDC left until 16:00; this request is worth more. A wallet " +
        "has one request open at a time, so the rest can be requested once this one is claimed or cancelled.",
      offer: "Request what fits now: you receive about 24,975.00 USDC",
    });
    expect(words.reason).not.toContain("Cap reached");
    // Nothing promises what one open request cannot do.
    expect(words.offer).not.toContain("the rest after");
  });

  it("a used-up cap says so and offers nothing; more than the balance offers all of it, net of the fee", () => {
    expect(
      withdrawRefusalWords(
        { block: { kind: "cap", window: "daily", remaining: 0n, resetsAt: HOUR_END }, fit: null },
        names,
        { timeZone: "UTC" },
      ),
    ).toEqual({
      reason: "The daily withdrawal cap is used up: nothing more can be requested until 16:00.",
      offer: null,
    });
    expect(
      withdrawRefusalWords(
        {
          block: { kind: "balance", held: 10n * 1_000_000_000n },
          fit: { shares: 10n * 1_000_000_000n, assets: 11n * USDC, net: 10_989_000n, restAfter: null },
        },
        names,
      ),
    ).toEqual({
      reason: "That is more than the 10.000000 vUSDC this wallet holds.",
      offer: "Request all 10.000000 vUSDC: you receive about 10.989 USDC",
    });
  });
});

describe("a transaction the network is slow about", () => {
  it("says so once a step has waited 10 s, offering Cancel except while the wallet asks", () => {
    expect(SLOW_STEP_MS).toBe(10_000);
    expect(slowStepWords("confirming", SLOW_STEP_MS - 1)).toBeNull();
    expect(slowStepWords("preparing", SLOW_STEP_MS)).toEqual({
      message: "The network isn't answering; still trying to prepare the transaction. Nothing is signed yet.",
      cancellable: true,
    });
    for (const stage of ["sending", "confirming"] as const) {
      expect(slowStepWords(stage, 60_000)?.message).toMatch(/^The network isn't answering; still trying\./);
    }
    expect(slowStepWords("signing", 60_000)).toBeNull();
    expect(slowStepWords("reviewing", 60_000)).toBeNull();
    expect(slowStepWords("recording", 60_000)).toBeNull();
  });

  it("a cancel at the confirm step is the person's choice: nothing signed, no network words", () => {
    const words = describeError(new TransactionCancelledError());
    expect(words).toEqual({
      kind: "cancelled",
      title: "Cancelled — nothing was signed",
      message: "You cancelled before your wallet was asked, so nothing was sent.",
    });
  });

  it("a transaction the chain did not answer says whether it was sent", () => {
    const unsent = describeError(new ApiRequestError(503, "CHAIN_UNAVAILABLE", "x"), {
      transaction: { sent: false },
    });
    expect(unsent.title).toBe("Not sent: the network isn't answering");
    expect(unsent.message).toContain("nothing was signed or sent");
    const sent = describeError(new ChainUnavailableError("x"), { transaction: { sent: true } });
    expect(sent.title).toBe("The network stopped answering");
    expect(sent.message).toContain("it may still be confirmed");
    // A read's words are the page's notice's.
    expect(describeError(new ChainUnavailableError("x")).title).toBe("The chain is unreachable");
  });

  it("stopping says whether anything can still land", () => {
    const before = describeError(new TransactionStoppedError(false));
    expect(before.kind).toBe("stopped");
    expect(before.message).toContain("nothing was sent");
    const after = describeError(new TransactionStoppedError(true));
    expect(after.kind).toBe("stopped");
    expect(after.message).toContain("may still be confirmed");
  });
});
