// The pages' credential source (PRODUCT.md, "The browser never holds a key"): a same-origin request
// carrying the app's httpOnly session cookie, from the address and browser the session was issued to,
// is served under the server-held write key, with a per-minute limit per client IP and a smaller one
// per session; a session past half its lifetime is renewed in the answer's Set-Cookie. The key is FIRST_PARTY_API_KEY when set (resolved like a bearer key,
// so revoking it stops the pages), else the store's "first-party pages" key, created on first use.
import type { ApiKeyRecord } from "../store/api-keys";
import { processConfig } from "../config";
import type { SessionSettings } from "../web-config";
import {
  SESSION_COOKIE,
  browserUrl,
  canUseSecureCookie,
  createSessionToken,
  readCookie,
  sessionCookieHeader,
  sessionRenewalDue,
  verifySessionToken,
  type SessionCheck,
} from "./session-token";
import { clientNetwork } from "./client-address";
import { sharedSessionSecret } from "./session-secret";
import { ApiError } from "./errors";
import type { ApiContext, ApiRequest, CredentialSource, Principal } from "./types";
import { SingleFlightCache } from "./single-flight-cache";

export const FIRST_PARTY_KEY_NAME = "first-party pages";

const REFUSALS: Record<Exclude<SessionCheck, { valid: true }>["reason"], string> = {
  malformed: "Your session with this app is not valid; reload the page",
  signature: "Your session with this app is not valid; reload the page",
  expired: "Your session with this app has expired; reload the page",
  elsewhere: "Your session was issued to another address or browser; reload the page",
};

function unauthorized(message: string): ApiError {
  return new ApiError("UNAUTHORIZED", message, undefined, { "WWW-Authenticate": 'Bearer realm="api"' });
}

/**
 * Sent by the API reference's "Try it out" (GET /api/docs): its requests are a partner's, so the page's
 * session and the page visitors' reads do not answer them, and the curl it prints is the truth: without
 * an API key it gets 401, as the request did.
 */
export const API_REFERENCE_HEADER = "X-Api-Reference";

/**
 * A request from one of the app's own pages: the browser says so (Sec-Fetch-Site), or, for browsers
 * without fetch metadata, the Origin it sends matches the host it asked. The API reference's requests
 * are not (API_REFERENCE_HEADER).
 */
export function isSameOriginRequest(request: ApiRequest): boolean {
  if (request.headers.has(API_REFERENCE_HEADER)) {
    return false;
  }
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) {
    return site === "same-origin";
  }
  const origin = request.headers.get("origin");
  const host = request.headers.get("host");
  if (origin === null || host === null) {
    return false;
  }
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

/** The context's cache of the provisioned key (ApiContext.firstPartyKey): one entry, 5 s. */
export function createFirstPartyKeyCache(): SingleFlightCache<ApiKeyRecord | null> {
  return new SingleFlightCache<ApiKeyRecord | null>(5_000, 1);
}

export interface FirstPartySourceOptions {
  /** Defaults to the process's configuration (SESSION_SECRET, FIRST_PARTY_API_KEY, FIRST_PARTY_RPM, SESSION_*). */
  settings?: SessionSettings;
  now?: () => number;
}

export function createFirstPartySessionSource(options: FirstPartySourceOptions = {}): CredentialSource {
  let settings = options.settings ?? null;
  const now = options.now ?? Date.now;

  function current(): SessionSettings {
    settings ??= processConfig().session;
    return settings;
  }

  async function provisionedKey(context: ApiContext): Promise<ApiKeyRecord | null> {
    // Per context: each has its own store (tests run several side by side).
    return context.firstPartyKey.get("key", async () => {
      const named = (await context.store.keys.list()).filter((key) => key.name === FIRST_PARTY_KEY_NAME);
      const newest = named.at(-1);
      if (newest !== undefined) {
        // A revoked newest key is an operator's decision to stop the pages: not replaced here.
        return newest.revokedAt === null ? newest : null;
      }
      const { record } = await context.store.keys.create({
        name: FIRST_PARTY_KEY_NAME,
        scope: "write",
        rpm: current().firstPartyRpm,
      });
      context.log.log("info", "provisioned the first-party pages key", { keyId: record.id });
      return record;
    });
  }

  async function serverKey(context: ApiContext): Promise<ApiKeyRecord | null> {
    const { firstPartyApiKey } = current();
    if (firstPartyApiKey === null) {
      return provisionedKey(context);
    }
    const key = await context.keys.resolve(firstPartyApiKey);
    return key === null || key.revokedAt !== null ? null : key;
  }

  return {
    name: "first-party",
    visitor: (request, context) => pageVisitorPrincipal(request, context, current()),
    async authenticate(request, context): Promise<Principal | null> {
      const token = readCookie(request.headers.get("cookie"), SESSION_COOKIE);
      // Partners' bearer keys are another source; a cookie sent along by another site's request is
      // not a first-party call (SameSite=None cookies travel cross-site).
      if (token === null || request.headers.has("authorization") || !isSameOriginRequest(request)) {
        return null;
      }
      const settings = current();
      const secret = await sharedSessionSecret(settings, context.store);
      const address = clientNetwork(request, context.config.trustedProxyCount);
      const binding = { address, userAgent: request.headers.get("user-agent") ?? "" };
      const check = verifySessionToken(secret, token, now(), binding, settings.sessionTtlSeconds);
      if (!check.valid) {
        throw unauthorized(REFUSALS[check.reason]);
      }
      const key = await serverKey(context);
      if (key === null) {
        throw unauthorized("The app's own pages are switched off (their API key is missing or revoked)");
      }
      context.keys.noteUse(key);
      const renewed = sessionRenewalDue(check, settings.sessionTtlSeconds)
        ? sessionCookieHeader(
            createSessionToken(secret, now(), binding, check.sessionId),
            canUseSecureCookie(browserUrl(request.url, request.headers)),
            settings.sessionTtlSeconds,
          )
        : null;
      return {
        // Limits are per key id: one id per client address makes the pages' limit per IP.
        keyId: `${key.id}@${address}`,
        scope: key.scope,
        vaults: key.vaults,
        wallet: key.wallet,
        rpm: settings.firstPartyRpm,
        source: "first-party",
        sessionLimit: { id: check.sessionId, rpm: settings.sessionRpm },
        ...(renewed === null ? {} : { responseHeaders: { "Set-Cookie": renewed } }),
      };
    },
  };
}

export const firstPartySessionSource: CredentialSource = createFirstPartySessionSource();

/**
 * The app's pages reading public data (the directory, a vault, its NAV, history and statistics)
 * without a session: a same-origin browser request that carries no bearer key, on an endpoint marked
 * open to the pages. It gets read scope and every vault, under a per-IP budget of its own
 * (FIRST_PARTY_RPM per minute, apart from the sessions' so polling never starves a transaction), and
 * is used only where the session (or its absence, or a stale cookie) would otherwise refuse the read:
 * a visitor the issue limit held back still sees the data. What it reads is what the keyless oracle
 * and any RPC node already show.
 */
export function pageVisitorPrincipal(
  request: ApiRequest,
  context: ApiContext,
  settings: SessionSettings,
): Principal | null {
  if (request.headers.has("authorization") || !isSameOriginRequest(request)) {
    return null;
  }
  // Counted per network (an IPv6 /64 is one), as the sessions it stands in for are.
  const network = clientNetwork(request, context.config.trustedProxyCount);
  return {
    keyId: `${PAGE_VISITOR_KEY_PREFIX}${network}`,
    scope: "read",
    vaults: null,
    wallet: null,
    rpm: settings.firstPartyRpm,
    source: "page-visitor",
  };
}

/** The page visitors' limiter key: this prefix and the client address. */
export const PAGE_VISITOR_KEY_PREFIX = "page-visitor@";
