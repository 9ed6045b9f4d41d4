// Every page request: a fresh CSP nonce (Next.js applies it to its scripts), the security headers, and
// the first-party session cookie the pages' /api calls are served under (set when missing, stale or
// not ours). frame-ancestors: FRAME_ANCESTORS on /embed/…, the app itself elsewhere.
import { NextResponse, type NextRequest } from "next/server";

import { BASELINE_SECURITY_HEADERS, buildContentSecurityPolicy, frameAncestorsFor } from "./lib/web/csp";
import { sessionSettings, webConfig } from "./lib/web/server-config";
import {
  SESSION_COOKIE,
  SESSION_REFRESH_AFTER_SECONDS,
  canUseSecureCookie,
  createSessionToken,
  sessionCookieHeader,
  sessionSecret,
  verifySessionToken,
} from "./lib/web/session-token";

function externalUrl(request: NextRequest): URL {
  // Behind a proxy the browser's scheme and host are in the forwarded headers.
  const url = new URL(request.url);
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() ?? request.headers.get("host");
  if (proto === "https" || proto === "http") {
    url.protocol = `${proto}:`;
  }
  if (host !== null && host !== undefined && host !== "") {
    url.host = host;
  }
  return url;
}

export function proxy(request: NextRequest): NextResponse {
  const config = webConfig();
  const session = sessionSettings();
  const url = externalUrl(request);
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const policy = buildContentSecurityPolicy({
    nonce,
    development: process.env.NODE_ENV === "development",
    connectTo: [config.client.rpcUrl, config.client.wsUrl, config.client.faucetUrl ?? ""],
    frameAncestors: frameAncestorsFor(url.pathname, config.frameAncestors),
    secure: url.protocol === "https:",
  });

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  for (const [name, value] of Object.entries(BASELINE_SECURITY_HEADERS)) {
    response.headers.set(name, value);
  }

  const secret = sessionSecret(session.sessionSecret, session.firstPartyApiKey);
  const existing = request.cookies.get(SESSION_COOKIE)?.value;
  const check = existing === undefined ? null : verifySessionToken(secret, existing, Date.now());
  if (check === null || !check.valid || check.ageSeconds > SESSION_REFRESH_AFTER_SECONDS) {
    response.headers.append(
      "Set-Cookie",
      sessionCookieHeader(createSessionToken(secret, Date.now()), canUseSecureCookie(url)),
    );
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
