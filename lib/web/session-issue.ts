// What a page request does about the first-party session: keep a valid one, renew one past half its
// lifetime (same session id, so the same per-session budget), else issue a new one, at most
// SESSION_ISSUE_LIMIT per client IP per SESSION_ISSUE_WINDOW_SECONDS (the API's limiter: in Redis when
// REDIS_URL is set). Over that rate the page still renders, without a cookie: its /api calls answer 401
// until the window passes.
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
