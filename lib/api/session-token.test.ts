import { describe, expect, it } from "vitest";

import {
  browserUrl,
  canUseSecureCookie,
  createSessionToken,
  readCookie,
  sessionCookieHeader,
  sessionRenewalDue,
  sessionSecret,
  verifySessionToken,
} from "./session-token";

const SECRET = "a-session-secret-of-at-least-thirty-two-chars";
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const TTL = 1_800;
const HERE = { address: "203.0.113.7", userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/142" };

describe("session tokens", () => {
  it("verifies what it signed, with its session id and age", () => {
    const token = createSessionToken(SECRET, NOW, HERE);
    const check = verifySessionToken(SECRET, token, NOW + 5_000, HERE, TTL);
    expect(check).toEqual({
      valid: true,
      sessionId: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      issuedAt: NOW / 1000,
      ageSeconds: 5,
    });
    // Each issue is a new session; the address is not readable from the cookie.
    const other = verifySessionToken(SECRET, createSessionToken(SECRET, NOW, HERE), NOW, HERE, TTL);
    expect(other.valid && check.valid && other.sessionId !== check.sessionId).toBe(true);
    expect(token).not.toContain("203.0.113.7");
  });

  it("is refused from another address or another browser", () => {
    const token = createSessionToken(SECRET, NOW, HERE);
    expect(verifySessionToken(SECRET, token, NOW, { ...HERE, address: "198.51.100.9" }, TTL)).toEqual({
      valid: false,
      reason: "elsewhere",
    });
    expect(verifySessionToken(SECRET, token, NOW, { ...HERE, userAgent: "curl/8.5.0" }, TTL)).toEqual({
      valid: false,
      reason: "elsewhere",
    });
  });

  it("refuses other secrets, tampering, expiry and garbage", () => {
    const token = createSessionToken(SECRET, NOW, HERE);
    expect(verifySessionToken(`${SECRET}x`, token, NOW, HERE, TTL)).toEqual({
      valid: false,
      reason: "signature",
    });
    const [version, issued, id, bound, mac] = token.split(".");
    const later = [version, Number(issued) + 1, id, bound, mac].join(".");
    expect(verifySessionToken(SECRET, later, NOW, HERE, TTL)).toEqual({ valid: false, reason: "signature" });
    // Rebinding a token to the thief's address breaks the signature.
    const rebound = [version, issued, id, "A".repeat(22), mac].join(".");
    expect(verifySessionToken(SECRET, rebound, NOW, HERE, TTL)).toEqual({
      valid: false,
      reason: "signature",
    });
    expect(verifySessionToken(SECRET, token, NOW + TTL * 1000, HERE, TTL).valid).toBe(true);
    expect(verifySessionToken(SECRET, token, NOW + (TTL + 1) * 1000, HERE, TTL)).toEqual({
      valid: false,
      reason: "expired",
    });
    // Issued more than a minute in the future: not accepted either.
    expect(verifySessionToken(SECRET, token, NOW - 61_000, HERE, TTL)).toEqual({
      valid: false,
      reason: "expired",
    });
    for (const garbage of ["v2.abc.def.ghi.jkl", "v1.1.x.y", "", `${token}.extra`]) {
      expect(verifySessionToken(SECRET, garbage, NOW, HERE, TTL)).toEqual({
        valid: false,
        reason: "malformed",
      });
    }
  });

  it("is renewed past half its lifetime, keeping its session id", () => {
    const token = createSessionToken(SECRET, NOW, HERE);
    const young = verifySessionToken(SECRET, token, NOW + (TTL / 2 - 1) * 1000, HERE, TTL);
    const old = verifySessionToken(SECRET, token, NOW + (TTL / 2) * 1000, HERE, TTL);
    expect(sessionRenewalDue(young, TTL)).toBe(false);
    expect(sessionRenewalDue(old, TTL)).toBe(true);
    expect(sessionRenewalDue({ valid: false, reason: "expired" }, TTL)).toBe(false);
    if (!old.valid) {
      throw new Error("expected a valid token");
    }
    const renewedAt = NOW + (TTL / 2) * 1000;
    const renewed = createSessionToken(SECRET, renewedAt, HERE, old.sessionId);
    // The renewal lives a full lifetime from its own issue.
    expect(verifySessionToken(SECRET, renewed, renewedAt + TTL * 1000, HERE, TTL)).toEqual({
      valid: true,
      sessionId: old.sessionId,
      issuedAt: renewedAt / 1000,
      ageSeconds: TTL,
    });
  });

  it("reads one cookie among several", () => {
    expect(readCookie("a=1; vg_session=v2.x.y.z.w; b=2", "vg_session")).toBe("v2.x.y.z.w");
    expect(readCookie("a=1", "vg_session")).toBeNull();
    expect(readCookie(null, "vg_session")).toBeNull();
  });

  it("is usable in iframes where the browser keeps Secure cookies, Lax elsewhere", () => {
    expect(canUseSecureCookie(new URL("https://app.example/vault"))).toBe(true);
    expect(canUseSecureCookie(new URL("http://localhost:3000/"))).toBe(true);
    expect(canUseSecureCookie(new URL("http://127.0.0.1:3000/"))).toBe(true);
    expect(canUseSecureCookie(new URL("http://192.168.1.5:3000/"))).toBe(false);
    expect(sessionCookieHeader("t", true, TTL)).toBe(
      `vg_session=t; Path=/; Max-Age=${TTL}; HttpOnly; SameSite=None; Secure; Partitioned`,
    );
    expect(sessionCookieHeader("t", false, TTL)).toBe(
      `vg_session=t; Path=/; Max-Age=${TTL}; HttpOnly; SameSite=Lax`,
    );
    // Behind a TLS proxy the browser asked over https.
    const forwarded = new Headers({ "x-forwarded-proto": "https", "x-forwarded-host": "app.example" });
    expect(browserUrl("http://10.0.0.5:3000/vault/x", forwarded).href).toBe("https://app.example/vault/x");
    expect(browserUrl("http://10.0.0.5:3000/", new Headers({ host: "app.example" })).href).toBe(
      "http://app.example/",
    );
  });

  it("takes SESSION_SECRET, else derives from the first-party key, else one random secret per process", () => {
    expect(sessionSecret("configured", "vk_test_key")).toBe("configured");
    const derived = sessionSecret(null, "vk_test_key");
    expect(derived).not.toContain("vk_test_key");
    expect(sessionSecret(null, "vk_test_key")).toBe(derived);
    expect(sessionSecret(null, null)).toBe(sessionSecret(null, null));
    expect(sessionSecret(null, null)).toHaveLength(43);
  });
});
