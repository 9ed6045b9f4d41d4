// What a page request does about the first-party session: keep a valid one, renew one past half its
// lifetime (same session id, so the same per-session budget), else issue a new one, at most
// SESSION_ISSUE_LIMIT per client IP per SESSION_ISSUE_WINDOW_SECONDS (the API's limiter: in Redis when
// REDIS_URL is set). Over that rate the page still renders, without a cookie: it reads public data
// without a session (first-party-session.ts pageVisitorPrincipal), and the proxy tells the page, in the
// SESSION_NOTICE_HEADER request header, when a session can be issued again, so it says why deposits and
// withdrawals wait and until when.
import type { RateLimitDecision, RateLimiter } from "../api/rate-limit";
import type { SessionSettings } from "../web-config";
import {
  createSessionToken,
  sessionRenewalDue,
  verifySessionToken,
  type SessionBinding,
} from "../api/session-token";

export const SESSION_ISSUE_BUCKET = "session-issue";

export type SessionIssue =
  | { outcome: "current" }
  | { outcome: "renewed"; token: string }
  | { outcome: "issued"; token: string; decision: RateLimitDecision }
  | { outcome: "limited"; decision: RateLimitDecision };

export interface SessionIssueInput {
  limiter: RateLimiter;
  settings: SessionSettings;
  secret: string;
  binding: SessionBinding;
  /** The cookie the request carried, if any. */
  existing: string | null;
  nowMs: number;
}

export async function issueSession(input: SessionIssueInput): Promise<SessionIssue> {
  const { settings, secret, binding, nowMs } = input;
  if (input.existing !== null) {
    const check = verifySessionToken(secret, input.existing, nowMs, binding, settings.sessionTtlSeconds);
    if (check.valid) {
      return sessionRenewalDue(check, settings.sessionTtlSeconds)
        ? { outcome: "renewed", token: createSessionToken(secret, nowMs, binding, check.sessionId) }
        : { outcome: "current" };
    }
  }
  const decision = await input.limiter.consume(
    {
      bucket: SESSION_ISSUE_BUCKET,
      limit: settings.sessionIssueLimit,
      windowSeconds: settings.sessionIssueWindowSeconds,
    },
    binding.address,
  );
  return decision.allowed
    ? { outcome: "issued", token: createSessionToken(secret, nowMs, binding), decision }
    : { outcome: "limited", decision };
}

/**
 * The request header the proxy sets for the page's render when no session could be issued: when one
 * can be (epoch ms), the limit and its window, "retryAt;limit;windowSeconds". A browser's own value of
 * it is always removed first.
 */
export const SESSION_NOTICE_HEADER = "x-vg-session-limited";

export interface SessionNotice {
  /** When a reload can get a session (the limiter's Retry-After from the refusal), epoch ms. */
  retryAtMs: number;
  /** New sessions per client address per window. */
  limit: number;
  windowSeconds: number;
}

/** The header's value for a refusal of `limit` sessions per `windowSeconds`. */
export function sessionNoticeHeader(
  decision: RateLimitDecision,
  windowSeconds: number,
  nowMs: number,
): string {
  return `${nowMs + decision.retryAfter * 1000};${decision.limit};${windowSeconds}`;
}

/** The header's notice; null when absent or not three positive integers. */
export function parseSessionNotice(value: string | null): SessionNotice | null {
  if (value === null) {
    return null;
  }
  const parts = value.split(";");
  if (parts.length !== 3 || !parts.every((part) => /^[0-9]{1,16}$/.test(part))) {
    return null;
  }
  const [retryAtMs, limit, windowSeconds] = parts.map(Number);
  if (retryAtMs === undefined || limit === undefined || windowSeconds === undefined || limit < 1) {
    return null;
  }
  return { retryAtMs, limit, windowSeconds };
}
