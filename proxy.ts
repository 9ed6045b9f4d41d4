// Every page request: a fresh CSP nonce (Next.js applies it to its scripts), the security headers, and
// the first-party session cookie the pages' /api calls are served under (lib/web/session-issue.ts:
// issued when missing, invalid or bound elsewhere, at a limited rate per client IP; renewed past half
// its lifetime; when the rate holds one back, the page's render is told when to try again). frame-ancestors: FRAME_ANCESTORS on /embed/…, the app itself elsewhere.
import { NextResponse, type NextRequest } from "next/server";

import { clientNetwork } from "./lib/api/client-address";
import { processApi } from "./lib/api/default-context";
import { processConfig } from "./lib/config";
import { BASELINE_SECURITY_HEADERS, buildContentSecurityPolicy, frameAncestorsFor } from "./lib/csp";
import { SESSION_NOTICE_HEADER, issueSession, sessionNoticeHeader } from "./lib/web/session-issue";
import { PAGE_PATH_HEADER } from "./lib/web/server-reads";
import { SESSION_COOKIE, browserUrl, canUseSecureCookie, sessionCookieHeader } from "./lib/api/session-token";
import { sharedSessionSecret } from "./lib/api/session-secret";

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const { web: config, session, development } = processConfig();
  const url = browserUrl(request.url, request.headers);
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const policy = buildContentSecurityPolicy({
    nonce,
    development,
    connectTo: [config.client.rpcUrl, config.client.wsUrl, config.client.faucetUrl ?? ""],
    frameAncestors: frameAncestorsFor(url.pathname, config.frameAncestors),
    secure: url.protocol === "https:",
  });

  // The process's API (installed by scripts/web.ts, else built from the environment): its limiter and
  // its client-address rule, so the session is bound to the address the API will see.
  const { context } = processApi();
  const binding = {
    address: clientNetwork(request, context.config.trustedProxyCount),
    userAgent: request.headers.get("user-agent") ?? "",
  };
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", policy);
  // Only this proxy says whether the page has a session, and which path it is; never the browser.
  requestHeaders.delete(SESSION_NOTICE_HEADER);
  requestHeaders.set(PAGE_PATH_HEADER, url.pathname);
  let cookie: string | null = null;
  try {
    const nowMs = Date.now();
    const issue = await issueSession({
      limiter: context.limiter,
      settings: session,
      secret: await sharedSessionSecret(session, context.store),
      binding,
      existing: request.cookies.get(SESSION_COOKIE)?.value ?? null,
      nowMs,
    });
    if (issue.outcome === "issued" || issue.outcome === "renewed") {
      cookie = sessionCookieHeader(issue.token, canUseSecureCookie(url), session.sessionTtlSeconds);
    } else if (issue.outcome === "limited") {
      // The page renders its data without a session and says when transactions can start.
      requestHeaders.set(
        SESSION_NOTICE_HEADER,
        sessionNoticeHeader(issue.decision, session.sessionIssueWindowSeconds, nowMs),
      );
      context.log.log("warn", "session issue rate reached; page served without a session", {
        address: binding.address,
        retryAfter: issue.decision.retryAfter,
      });
    }
  } catch (error) {
    // The page renders without a session rather than failing.
    context.log.log("error", "issuing a session failed", { error: String(error) });
  }

  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  for (const [name, value] of Object.entries(BASELINE_SECURITY_HEADERS)) {
    response.headers.set(name, value);
  }
  if (cookie !== null) {
    response.headers.append("Set-Cookie", cookie);
  }
  return response;
}

export const config = {
  matcher: [
    {
      source: "/((?!api/|_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
