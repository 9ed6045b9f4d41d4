// The first-party session: an httpOnly cookie the app sets on its pages, an HMAC-signed token that the
// API's first-party credential source verifies. It carries no identity, only "this browser loaded one
// of our pages recently, from this address": it names a random session id (the per-session budget's
// key) and a keyed hash of the client address and User-Agent it was issued to, so a token copied to
// another machine is refused. It is short-lived and renewed (same id) while the page is in use; it is
// usable inside a partner's iframe (SameSite=None; Secure; Partitioned).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const SESSION_COOKIE = "vg_session";

const VERSION = "v2";
const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;
const BINDING_LENGTH = 22;

/** Who a token was issued to: the client address as the server resolves it, and the User-Agent. */
export interface SessionBinding {
  address: string;
  userAgent: string;
}

function sign(secret: string, payload: string): string {
  return createHmac("sha256", secret).update(payload).digest("base64url");
}

/** A keyed hash, so the cookie does not reveal the address it is bound to. */
function bindingHash(secret: string, binding: SessionBinding): string {
  return sign(secret, `binding\n${binding.address}\n${binding.userAgent}`).slice(0, BINDING_LENGTH);
}

export function newSessionId(): string {
  return randomBytes(16).toString("base64url");
}

/** A token for `sessionId` (a new one when omitted: a renewal keeps its id, and so its budget). */
export function createSessionToken(
  secret: string,
  nowMs: number,
  binding: SessionBinding,
  sessionId: string = newSessionId(),
): string {
  const payload = `${VERSION}.${Math.floor(nowMs / 1000)}.${sessionId}.${bindingHash(secret, binding)}`;
  return `${payload}.${sign(secret, payload)}`;
}

export type SessionCheck =
  | { valid: true; sessionId: string; issuedAt: number; ageSeconds: number }
  | { valid: false; reason: "malformed" | "signature" | "expired" | "elsewhere" };

export function verifySessionToken(
  secret: string,
  token: string,
  nowMs: number,
  binding: SessionBinding,
  ttlSeconds: number,
): SessionCheck {
  const parts = token.split(".");
  const [version, issued, sessionId, bound, mac] = parts;
  if (
    parts.length !== 5 ||
    version !== VERSION ||
    issued === undefined ||
    !/^\d{1,12}$/.test(issued) ||
    sessionId === undefined ||
    !SESSION_ID_PATTERN.test(sessionId) ||
    bound === undefined ||
    mac === undefined
  ) {
    return { valid: false, reason: "malformed" };
  }
  const payload = parts.slice(0, 4).join(".");
  const expected = Buffer.from(sign(secret, payload));
  const actual = Buffer.from(mac);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
    return { valid: false, reason: "signature" };
  }
  const issuedAt = Number(issued);
  const ageSeconds = Math.floor(nowMs / 1000) - issuedAt;
  // A token from the future (clock skew between instances) gets a minute of grace.
  if (ageSeconds > ttlSeconds || ageSeconds < -60) {
    return { valid: false, reason: "expired" };
  }
  const expectedBinding = Buffer.from(bindingHash(secret, binding));
  const actualBinding = Buffer.from(bound);
  if (expectedBinding.length !== actualBinding.length || !timingSafeEqual(expectedBinding, actualBinding)) {
    return { valid: false, reason: "elsewhere" };
  }
  return { valid: true, sessionId, issuedAt, ageSeconds };
}

/** A valid token past half its lifetime is re-issued (same id), so a page in use keeps a valid one. */
export function sessionRenewalDue(check: SessionCheck, ttlSeconds: number): boolean {
  return check.valid && check.ageSeconds * 2 >= ttlSeconds;
}

/** The value of one cookie in a Cookie header, or null. */
export function readCookie(header: string | null, name: string): string | null {
  if (header === null) {
    return null;
  }
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index !== -1 && part.slice(0, index).trim() === name) {
      return part.slice(index + 1).trim();
    }
  }
  return null;
}

/**
 * The URL as the browser asked it: behind a proxy its scheme and host are in the forwarded headers.
 * (Used for the cookie's attributes and the CSP only, never for a security decision.)
 */
export function browserUrl(requestUrl: string, headers: { get(name: string): string | null }): URL {
  const url = new URL(requestUrl);
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim() ?? headers.get("host");
  if (proto === "https" || proto === "http") {
    url.protocol = `${proto}:`;
  }
  if (host !== null && host !== undefined && host !== "") {
    // A host without a port means the scheme's default, not the port the server listens on.
    url.port = "";
    url.host = host;
  }
  return url;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Whether the browser will keep a Secure cookie from this page: https, or a loopback host (which
 * browsers treat as a secure context). Only then can the cookie be SameSite=None for iframes.
 */
export function canUseSecureCookie(url: URL): boolean {
  return url.protocol === "https:" || LOOPBACK.has(url.hostname) || url.hostname.endsWith(".localhost");
}

export function sessionCookieHeader(token: string, secure: boolean, ttlSeconds: number): string {
  const attributes = [`${SESSION_COOKIE}=${token}`, "Path=/", `Max-Age=${ttlSeconds}`, "HttpOnly"];
  // Inside a partner's iframe the cookie is third-party: SameSite=None needs Secure, and Partitioned
  // (CHIPS) keeps it working where third-party cookies are blocked. Plain http stays Lax (no iframes).
  attributes.push(...(secure ? ["SameSite=None", "Secure", "Partitioned"] : ["SameSite=Lax"]));
  return attributes.join("; ");
}

const SECRET_KEY = Symbol.for("vault-gateway.session-secret");

interface SecretHolder {
  [SECRET_KEY]?: string;
}

/**
 * The HMAC key: SESSION_SECRET, else derived from the first-party API key, else random for this
 * process. The app asks session-secret.ts instead, which keeps that random key in the store so every
 * instance over one database shares it; this process-only key is for callers without a store.
 */
export function sessionSecret(configured: string | null, firstPartyApiKey: string | null): string {
  if (configured !== null) {
    return configured;
  }
  if (firstPartyApiKey !== null) {
    return createHmac("sha256", firstPartyApiKey).update("first-party session").digest("base64url");
  }
  const holder = globalThis as SecretHolder;
  holder[SECRET_KEY] ??= randomBytes(32).toString("base64url");
  return holder[SECRET_KEY];
}
