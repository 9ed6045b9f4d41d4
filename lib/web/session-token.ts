// The first-party session: an httpOnly cookie the app sets on its pages, an HMAC-signed token that the
// API's first-party credential source verifies. It carries no identity, only "this browser loaded one
// of our pages recently"; it is usable inside a partner's iframe (SameSite=None; Secure; Partitioned).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const SESSION_COOKIE = "vg_session";
/** How long a token is accepted. */
export const SESSION_TTL_SECONDS = 12 * 3600;
/** Pages re-issue a token older than this, so an open tab keeps a valid one. */
export const SESSION_REFRESH_AFTER_SECONDS = 6 * 3600;

const VERSION = "v1";

function sign(secret: string, payload: string): string {
  return createHmac("sha256", secret).update(payload).digest("base64url");
}

export function createSessionToken(secret: string, nowMs: number): string {
  const payload = `${VERSION}.${Math.floor(nowMs / 1000)}.${randomBytes(16).toString("base64url")}`;
  return `${payload}.${sign(secret, payload)}`;
}

export type SessionCheck =
  | { valid: true; issuedAt: number; ageSeconds: number }
  | { valid: false; reason: "malformed" | "signature" | "expired" };

export function verifySessionToken(secret: string, token: string, nowMs: number): SessionCheck {
  const parts = token.split(".");
  if (parts.length !== 4 || parts[0] !== VERSION || !/^\d{1,12}$/.test(parts[1] ?? "")) {
    return { valid: false, reason: "malformed" };
  }
  const payload = parts.slice(0, 3).join(".");
  const expected = Buffer.from(sign(secret, payload));
  const actual = Buffer.from(parts[3] ?? "");
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
    return { valid: false, reason: "signature" };
  }
  const issuedAt = Number(parts[1]);
  const ageSeconds = Math.floor(nowMs / 1000) - issuedAt;
  // A token from the future (clock skew between instances) gets a minute of grace.
  if (ageSeconds > SESSION_TTL_SECONDS || ageSeconds < -60) {
    return { valid: false, reason: "expired" };
  }
  return { valid: true, issuedAt, ageSeconds };
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

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Whether the browser will keep a Secure cookie from this page: https, or a loopback host (which
 * browsers treat as a secure context). Only then can the cookie be SameSite=None for iframes.
 */
export function canUseSecureCookie(url: URL): boolean {
  return url.protocol === "https:" || LOOPBACK.has(url.hostname) || url.hostname.endsWith(".localhost");
}

export function sessionCookieHeader(token: string, secure: boolean): string {
  const attributes = [`${SESSION_COOKIE}=${token}`, "Path=/", `Max-Age=${SESSION_TTL_SECONDS}`, "HttpOnly"];
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
 * process (sessions then end with the process, and instances behind a load balancer need
 * SESSION_SECRET). Kept on globalThis so the proxy and the route handlers share it.
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
