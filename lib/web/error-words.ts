// Whatever went wrong, in words a person understands, with what to do next. Used by every form's
// onError; nothing here hides an error (unknown ones still say something true and generic). Words
// come from an error's type, its code and its typed context, never from its message: the API sends
// CAPACITY_EXCEEDED's figures as context, program errors are named by the IDL (at the boundary that
// builds TransactionRefusedError), and an unreachable chain is ChainUnavailableError.
import { ChainUnavailableError } from "../chain/rpc";
import { capWindow } from "../vault/model/cap-window";
import type { TokenAmount } from "../vault/model/token-amount";
import type { VaultView } from "../vault/model/vault-view";
import { TransactionCheckError } from "../vault/operations/transaction-check-error";
import { formatAmount, formatPercent, moneyLine } from "./amounts";
import {
  ApiRequestError,
  AppUnreachableError,
  BlockhashExpiredError,
  RecordingFailedError,
  TransactionCancelledError,
  TransactionRefusedError,
  TransactionStoppedError,
  UnexpectedActionError,
  WalletUnavailableError,
  isWalletRejection,
} from "./errors";
import { DECIMALS_OFFSET } from "../vault/model/share-math";
import { formatClock, formatWhen, relativeFromNow, type ClockOptions } from "./time";
import type { WithdrawBlock, WithdrawVerdict } from "./vault-view";

export type ErrorKind =
  | "wallet-rejected"
  | "insufficient-sol"
  | "cap-reached"
  | "blockhash-expired"
  | "chain-unreachable"
  | "app-unreachable"
  | "session-expired"
  | "rate-limited"
  | "refused"
  | "recorded-late"
  | "stopped"
  | "cancelled"
  | "unknown";

export interface ErrorWords {
  kind: ErrorKind;
  title: string;
  message: string;
}

export interface ErrorContext {
  /** The vault the action was on, for cap reset times of on-chain refusals. */
  vault?: VaultView | null;
  /** A faucet exists (localnet): say where test SOL comes from. */
  hasFaucet?: boolean;
  nowMs?: number;
  clock?: ClockOptions;
  /**
   * The error ended a transaction (a form's, not a read's): whether the wallet had signed and it was
   * handed to the network, so the words can say whether it may still land.
   */
  transaction?: { sent: boolean };
}

function nameOf(error: unknown): string {
  return error instanceof Error ? error.name : "";
}

function solAdvice(context: ErrorContext): string {
  return context.hasFaucet === true
    ? "Use “Get test funds” to add SOL, then try again."
    : "Add a little SOL to this wallet, then try again.";
}

function capWords(
  window: "hourly" | "daily" | null,
  remainingText: string | null,
  resetsAt: number | null,
  context: ErrorContext,
): ErrorWords {
  const left = remainingText === null ? "" : ` It has ${remainingText} left right now.`;
  const wait = resetsAt === null ? "wait for capacity" : `wait until ${resetText(resetsAt, context)}`;
  return {
    kind: "cap-reached",
    title:
      window === null
        ? "The vault's withdrawal cap is reached"
        : `The vault's ${window} withdrawal cap is reached`,
    message: `Cap reached — try a smaller amount or ${wait}.${left}`,
  };
}

/**
 * A cap's reset in the reader's locale: with its date and zone when not within today (a daily reset is
 * often 24 h away), when the page says what now is.
 */
function resetText(resetsAtMs: number, context: Pick<ErrorContext, "clock" | "nowMs">): string {
  const clock = context.clock ?? {};
  return context.nowMs === undefined
    ? formatClock(resetsAtMs, clock)
    : formatWhen(resetsAtMs, context.nowMs, { ...clock, zone: true });
}

function amountWords(amount: TokenAmount, locale?: string): string {
  return `${formatAmount(BigInt(amount.amount), amount.decimals, { locale })} ${amount.symbol}`;
}

/** CAPACITY_EXCEEDED at preparation: the window, what is left and the reset, from the API's context. */
function capFromApi(error: ApiRequestError, context: ErrorContext): ErrorWords {
  const capacity = error.domain?.code === "CAPACITY_EXCEEDED" ? error.domain.context : null;
  if (capacity === null) {
    return capWords(null, null, null, context);
  }
  const resetsAt = Date.parse(capacity.resetsAt);
  return capWords(
    capacity.window,
    amountWords(capacity.remaining, context.clock?.locale),
    Number.isFinite(resetsAt) ? resetsAt : null,
    context,
  );
}

/** The program's cap errors, by their IDL names. */
const CAP_ERROR_WINDOWS: Readonly<Record<string, "hourly" | "daily">> = {
  HourlyWithdrawalCapExceeded: "hourly",
  DailyWithdrawalCapExceeded: "daily",
};

function capFromChain(window: "hourly" | "daily", context: ErrorContext): ErrorWords {
  const vault = context.vault ?? null;
  if (vault === null) {
    return capWords(window, null, null, context);
  }
  const capacity = capWindow(
    window === "daily" ? vault.daily : vault.hourly,
    (context.nowMs ?? Date.now()) / 1000,
  );
  const remaining =
    capacity.remaining === null
      ? null
      : `${formatAmount(capacity.remaining, vault.asset.decimals, { locale: context.clock?.locale })} ${vault.asset.symbol}`;
  return capWords(window, remaining, capacity.resetsAt * 1000, context);
}

/** Words for the program's errors a person can meet, by their IDL names. */
const PROGRAM_ERROR_WORDS: Readonly<Record<string, string>> = {
  InvalidAmount: "The amount is too small to give any shares or assets at today's price.",
  VaultPaused: "The vault is paused; deposits and new withdrawal requests are stopped for now.",
  WithdrawalAlreadyPending: "This wallet already has a withdrawal pending in this vault; claim it first.",
  NoPendingWithdrawal: "This wallet has no pending withdrawal in this vault.",
  NavFloorNotPassed: "Not claimable yet: the vault has not struck a new NAV since your request.",
  QueueNotFunded: "Not claimable yet: the withdrawal queue has not been funded up to your request.",
  InsufficientLiquidity:
    "The vault's reserve does not hold enough idle assets yet; try again after the next staging.",
  BelowMinimumWithdrawal: "The amount is below the vault's minimum withdrawal.",
  SlippageExceeded: "The share price moved while you were signing; try again for a fresh quote.",
  FeeAboveMaximum:
    "The vault raised its withdrawal fee above the one you were shown; nothing was taken. Review the new fee and try again.",
  PauseCooldown:
    "The vault's manager paused it recently; a new pause must wait as long as the last one lasted.",
  QueueHolesFull:
    "Too many cancelled requests are waiting in the queue to be passed; this one can be cancelled after the next staging.",
  SmallRequestCannotLeaveQueue:
    "A request below the vault's minimum can be cancelled once the queue is funded up to it, or when it is last in the queue.",
  NotAssociatedTokenAccount:
    "Only the owner can claim into an account other than its main token account for the asset; nothing was moved.",
  PartnerFeeAboveMaximum:
    "The partner fee is above the most the protocol allows now; nothing was taken. Reload the page and try again.",
};

function chainRefusal(error: TransactionRefusedError, context: ErrorContext): ErrorWords {
  const code = error.programErrorCode;
  const name = error.programErrorName;
  const capWindow = name === null ? undefined : CAP_ERROR_WINDOWS[name];
  if (capWindow !== undefined) {
    return capFromChain(capWindow, context);
  }
  const words = name === null ? undefined : PROGRAM_ERROR_WORDS[name];
  return {
    kind: "refused",
    title: "The vault refused the transaction",
    message:
      words ??
      (code === null
        ? "The transaction failed on chain; nothing was changed. Try again."
        : `The vault program refused it (error ${code}); nothing was changed.`),
  };
}

const API_CODE_TITLES: Readonly<Record<string, string>> = {
  INSUFFICIENT_BALANCE: "Not enough in this wallet",
  BELOW_MINIMUM: "Below the vault's minimum",
  AMOUNT_TOO_SMALL: "Amount too small",
  VAULT_PAUSED: "The vault is paused",
  WITHDRAWAL_PENDING: "A withdrawal is already pending",
  NO_PENDING_WITHDRAWAL: "No pending withdrawal",
  WITHDRAWAL_NOT_CLAIMABLE: "Not claimable yet",
  INVALID_REQUEST: "Check the amount",
  INVALID_AMOUNT: "Check the amount",
  VAULT_NOT_FOUND: "No such vault",
  PARTNER_FEE_ABOVE_MAXIMUM: "This partner's fee is not allowed",
  PARTNER_ACCOUNT_MISSING: "This partner cannot receive its fee yet",
};

function apiWords(error: ApiRequestError, context: ErrorContext): ErrorWords {
  switch (error.code) {
    case "CAPACITY_EXCEEDED":
      return capFromApi(error, context);
    case "INSUFFICIENT_SOL":
      return {
        kind: "insufficient-sol",
        title: "Not enough SOL for fees",
        message: `This wallet does not hold enough SOL to pay the network fee. ${solAdvice(context)}`,
      };
    case "CHAIN_UNAVAILABLE":
      return chainUnreachable(context);
    case "STORE_UNAVAILABLE":
      return {
        kind: "app-unreachable",
        title: "The app's database is unavailable",
        message: "The app cannot reach its database right now. Try again in a moment.",
      };
    case "UNAUTHORIZED":
      return {
        kind: "session-expired",
        title: "Your session expired",
        message: "Your session with this app has expired. Reload the page and try again.",
      };
    case "RATE_LIMITED":
      return {
        kind: "rate-limited",
        title: "Too many requests",
        message: `Too many requests from this network. Wait ${error.retryAfterSeconds ?? "a few"} seconds and try again.`,
      };
    default:
      return {
        kind: "refused",
        title: API_CODE_TITLES[error.code] ?? "The request was refused",
        message:
          error.status >= 500 ? "Something went wrong on our side. Try again in a moment." : error.message,
      };
  }
}

/**
 * The chain not answering. For a read, the page's one notice says it (components/ui/chain-stall-notice.tsx);
 * for a transaction, what became of it: nothing sent, or sent and perhaps landing.
 */
function chainUnreachable(context: ErrorContext): ErrorWords {
  if (context.transaction !== undefined) {
    return context.transaction.sent
      ? {
          kind: "chain-unreachable",
          title: "The network stopped answering",
          message:
            "Your signed transaction was handed to the network, which then stopped answering: it may still be confirmed. Your balances and activity will show it once the network answers again; check them before trying again.",
        }
      : {
          kind: "chain-unreachable",
          title: "Not sent: the network isn't answering",
          message:
            "The Solana network did not answer, so nothing was signed or sent. Try again once the page shows it is back.",
        };
  }
  return {
    kind: "chain-unreachable",
    title: "The chain is unreachable",
    message:
      "The Solana network can't be reached right now. Check your connection and try again in a moment.",
  };
}

export function describeError(error: unknown, context: ErrorContext = {}): ErrorWords {
  if (error instanceof TransactionStoppedError) {
    return {
      kind: "stopped",
      title: "Stopped waiting",
      message: error.signed
        ? "You stopped waiting for the network. The transaction was signed and may still be confirmed: your balances and activity will show it if it is. Check them before trying again."
        : "You stopped before anything was signed, so nothing was sent. Try again when the network answers.",
    };
  }
  // The person's own choice, not a failure: said plainly (the forms show it as a neutral notice).
  if (error instanceof TransactionCancelledError) {
    return {
      kind: "cancelled",
      title: "Cancelled — nothing was signed",
      message: "You cancelled before your wallet was asked, so nothing was sent.",
    };
  }
  if (isWalletRejection(error)) {
    return {
      kind: "wallet-rejected",
      title: "Cancelled — nothing was signed",
      message: "You cancelled in your wallet, so nothing was sent. Try again when you're ready.",
    };
  }
  if (error instanceof ApiRequestError) {
    return apiWords(error, context);
  }
  if (error instanceof RecordingFailedError) {
    return {
      kind: "recorded-late",
      title: "Done on chain; activity is behind",
      message: `The transaction is confirmed (${error.signature.slice(0, 8)}…), but adding it to your activity failed. It is safe; your balances already reflect it.`,
    };
  }
  if (error instanceof BlockhashExpiredError) {
    return {
      kind: "blockhash-expired",
      title: "The transaction expired",
      message:
        "The transaction expired before it reached the chain, even after it was rebuilt and signed again. Nothing was sent; try again.",
    };
  }
  if (error instanceof ChainUnavailableError) {
    return chainUnreachable(context);
  }
  if (error instanceof AppUnreachableError) {
    return {
      kind: "app-unreachable",
      title: "The app's server is unreachable",
      message: "This app's server did not answer. Check your connection and try again.",
    };
  }
  if (error instanceof TransactionCheckError) {
    return (
      priceProtectionWords(error, context) ?? {
        kind: "refused",
        title: "Stopped before your wallet: the transaction was not what you asked for",
        message:
          "The transaction prepared for you did something other than this request, so it was not shown to your " +
          `wallet and nothing was signed (${error.message}). Try again; if it happens again, do not use this site.`,
      }
    );
  }
  if (error instanceof UnexpectedActionError) {
    return {
      kind: "refused",
      title: "Your withdrawal changed",
      message: "The vault's state changed while preparing this; review your withdrawal and try again.",
    };
  }
  if (error instanceof WalletUnavailableError) {
    return { kind: "refused", title: "Connect a wallet", message: error.message };
  }
  if (error instanceof TransactionRefusedError) {
    if (error.kind === "insufficient-sol") {
      return {
        kind: "insufficient-sol",
        title: "Not enough SOL for fees",
        message: `This wallet does not hold enough SOL to pay the network fee. ${solAdvice(context)}`,
      };
    }
    return chainRefusal(error, context);
  }
  if (error instanceof Error && nameOf(error).startsWith("Wallet")) {
    // The wallet's own report, shown as it is: the person may recognise it; nothing is read from it.
    const cause = error.cause instanceof Error ? ` ${error.cause.message}` : "";
    const text = `${error.message}${cause}`;
    return {
      kind: "refused",
      title: "Your wallet could not do that",
      message: `Your wallet reported a problem${text === "" ? "" : `: ${text}`}. Try again, or reconnect the wallet.`,
    };
  }
  return {
    kind: "unknown",
    title: "Something went wrong",
    message: "Something unexpected went wrong; nothing is shown as done unless it is confirmed. Try again.",
  };
}

/** Whether a reload can get a page session now, and the words for a page served without one. */
export interface SessionNoticeWords {
  title: string;
  message: string;
  /** A reload can get a session now (the limiter's window has moved on). */
  canRetry: boolean;
}

function windowText(seconds: number): string {
  if (seconds % 3_600 === 0) {
    return seconds === 3_600 ? "hour" : `${seconds / 3_600} hours`;
  }
  if (seconds % 60 === 0) {
    return seconds === 60 ? "minute" : `${seconds / 60} minutes`;
  }
  return `${seconds} seconds`;
}

/**
 * The page was served without a session (lib/web/session-issue.ts): the data shows, deposits and
 * withdrawals wait until the limiter's Retry-After has passed and the page is reloaded.
 */
export function sessionNoticeWords(
  notice: { retryAtMs: number; limit: number; windowSeconds: number },
  nowMs: number,
  clock: ClockOptions = {},
): SessionNoticeWords {
  const why =
    `This app starts at most ${notice.limit.toLocaleString(clock.locale ?? "en-US")} new session${notice.limit === 1 ? "" : "s"} per ` +
    `${windowText(notice.windowSeconds)} from one network address, and your network has reached that.`;
  if (nowMs >= notice.retryAtMs) {
    return {
      title: "Reload to deposit or withdraw",
      message: `${why} A session can be started now: reload the page. The vault data shown is live.`,
      canRetry: true,
    };
  }
  return {
    title: "Deposits and withdrawals wait for a session",
    message:
      `${why} Reload after ${formatClock(notice.retryAtMs, clock)} (${relativeFromNow(notice.retryAtMs, nowMs)}) ` +
      "to deposit or withdraw. The vault data shown is live.",
    canRetry: false,
  };
}

/**
 * A deposit refused because its price protection (min_shares_out, the fewest shares it accepts) was not
 * what the preview promised: lowered below the preview less the person's tolerance, or the preview
 * itself understated, or missing. Null for the check's other refusals.
 */
function priceProtectionWords(error: TransactionCheckError, context: ErrorContext): ErrorWords | null {
  const { estimated, found, maxSlippageBps } = error.context;
  const shares = (raw: string | number | null | undefined): string =>
    typeof raw !== "string"
      ? "an unknown number of shares"
      : context.vault === undefined || context.vault === null
        ? `${raw} raw share units`
        : shareWords(BigInt(raw), context.vault);
  const tolerance =
    typeof maxSlippageBps === "number" ? formatPercent(maxSlippageBps / 10_000) : "your tolerance";
  const after =
    "so it was not shown to your wallet and nothing was signed. Try again; if it happens again, do not use this site.";
  switch (error.code) {
    case "MIN_SHARES_OUT_TOO_LOW":
      return {
        kind: "refused",
        title: "Stopped before your wallet: the deposit's price protection was lowered",
        message:
          `The deposit prepared for you would accept as few as ${shares(found)}, though it showed about ` +
          `${shares(estimated)} and you accept at most ${tolerance} less. A price move before it lands could ` +
          `then cost you more than you agreed to, ${after}`,
      };
    case "ESTIMATE_BELOW_SIMULATION":
      return {
        kind: "refused",
        title: "Stopped before your wallet: the deposit's preview was not true",
        message:
          `The deposit prepared for you showed about ${shares(estimated)} but would mint ${shares(found)}, ` +
          `more than ${tolerance} apart: its price protection was set from a wrong preview, ${after}`,
      };
    case "MISSING_SHARE_ESTIMATE":
      return {
        kind: "refused",
        title: "Stopped before your wallet: the deposit showed no shares to expect",
        message: `The deposit prepared for you did not say how many shares you would receive, so its price protection could not be checked, ${after}`,
      };
    case "PARTNER_FEE_TOO_HIGH":
    case "PARTNER_FEE_NOT_SHOWN":
      return {
        kind: "refused",
        title: "Stopped before your wallet: the deposit's partner fee was not the one shown",
        message: `The deposit prepared for you paid a partner fee other than the one this page showed (${error.message}), ${after}`,
      };
    default:
      return null;
  }
}

/** A withdrawal the form will not send, said once: why, and the button that fills what fits. */
export interface WithdrawRefusalWords {
  reason: string;
  /**
   * The offer's button text, with what the request it fills pays after the fee ("Request what fits
   * now: you receive about 24,975.00 USDC"); null: nothing fits.
   */
  offer: string | null;
}

function assetWords(raw: bigint, vault: Pick<VaultView, "asset">, locale?: string): string {
  return `${formatAmount(raw, vault.asset.decimals, { locale })} ${vault.asset.symbol}`;
}

/** Shares with the asset's decimals, as everywhere on the pages (one precision for the unit). */
function shareWords(raw: bigint, vault: Pick<VaultView, "shares">, locale?: string): string {
  const fraction = Math.max(0, vault.shares.decimals - DECIMALS_OFFSET);
  return `${formatAmount(raw, vault.shares.decimals, { locale, minFraction: fraction, maxFraction: fraction })} ${vault.shares.symbol}`;
}

export function withdrawRefusalWords(
  verdict: WithdrawVerdict & { block: WithdrawBlock },
  vault: Pick<VaultView, "asset" | "shares">,
  clock: ClockOptions = {},
  /** The page's now: a reset not within today is said with its date and zone. */
  nowMs?: number,
): WithdrawRefusalWords {
  const { block, fit } = verdict;
  const { locale } = clock;
  const resets = (resetsAtSeconds: number) => resetText(resetsAtSeconds * 1000, { clock, nowMs });
  let reason: string;
  switch (block.kind) {
    case "balance":
      reason = `That is more than the ${shareWords(block.held, vault, locale)} this wallet holds.`;
      break;
    case "minimum":
      reason = `The vault's minimum withdrawal is ${shareWords(block.minimum, vault, locale)}.`;
      break;
    case "cap":
      reason =
        block.remaining === 0n
          ? `The ${block.window} withdrawal cap is used up: nothing more can be requested until ${resets(block.resetsAt)}.`
          : `The ${block.window} withdrawal cap has ${assetWords(block.remaining, vault, locale)} left until ${resets(block.resetsAt)}; this request is worth more.`;
      break;
  }
  if (fit === null) {
    return { reason, offer: null };
  }
  // The net as the request's own preview will write it (moneyLine), so the offer and the preview agree.
  const line = moneyLine({ gross: fit.assets, fee: fit.assets - fit.net }, vault.asset.decimals, { locale });
  const netWords = `${line.net} ${vault.asset.symbol}`;
  if (fit.restAfter === null) {
    return {
      reason,
      offer: `Request all ${shareWords(fit.shares, vault, locale)}: you receive about ${netWords}`,
    };
  }
  // One request is open at a time: the rest waits for this one's claim or cancel, not only the cap.
  return {
    reason:
      `${reason} A wallet has one request open at a time, so the rest can be requested once this one ` +
      "is claimed or cancelled.",
    offer: `Request what fits now: you receive about ${netWords}`,
  };
}

/** How long a transaction's step may wait before the page says the network isn't answering. */
export const SLOW_STEP_MS = 10_000;

/**
 * A step that has waited past SLOW_STEP_MS: what to say, and whether Cancel may be offered (never
 * while the wallet is asking: the wallet's own Reject is the way out there).
 */
export function slowStepWords(
  stage: "preparing" | "reviewing" | "signing" | "sending" | "confirming" | "recording",
  waitedMs: number,
): { message: string; cancellable: boolean } | null {
  // Reviewing and signing wait for the person, not the network.
  if (waitedMs < SLOW_STEP_MS || stage === "reviewing" || stage === "signing" || stage === "recording") {
    return null;
  }
  return stage === "preparing"
    ? {
        message:
          "The network isn't answering; still trying to prepare the transaction. Nothing is signed yet.",
        cancellable: true,
      }
    : {
        message:
          "The network isn't answering; still trying. The transaction is signed: stopping here stops waiting, it cannot call the transaction back.",
        cancellable: true,
      };
}

/** A wallet without SOL for the network fee, said before anything is signed. */
export function feeSolWords(context: Pick<ErrorContext, "hasFaucet">): string {
  return `This wallet holds no SOL to pay the network fee. ${solAdvice(context)}`;
}
