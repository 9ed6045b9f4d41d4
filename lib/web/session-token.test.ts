import { describe, expect, it } from "vitest";

import {
  SESSION_TTL_SECONDS,
  canUseSecureCookie,
  createSessionToken,
  readCookie,
  sessionCookieHeader,
  sessionSecret,
  verifySessionToken,
} from "./session-token";

const SECRET = "a-session-secret-of-at-least-thirty-two-chars";
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

describe("session tokens", () => {
  it("verifies what it signed, with the token's age", () => {
    const token = createSessionToken(SECRET, NOW);
    expect(verifySessionToken(SECRET, token, NOW + 5_000)).toEqual({
      valid: true,
      issuedAt: NOW / 1000,
      ageSeconds: 5,
    });
  });

  it("refuses other secrets, tampering, expiry and garbage", () => {
    const token = createSessionToken(SECRET, NOW);
    expect(verifySessionToken(`${SECRET}x`, token, NOW)).toEqual({ valid: false, reason: "signature" });
    const [version, issued, nonce, mac] = token.split(".");
    expect(verifySessionToken(SECRET, [version, Number(issued) + 1, nonce, mac].join("."), NOW).valid).toBe(
      false,
    );
    expect(verifySessionToken(SECRET, token, NOW + (SESSION_TTL_SECONDS + 1) * 1000)).toEqual({
      valid: false,
      reason: "expired",
    });
    expect(verifySessionToken(SECRET, "v1.abc.def.ghi", NOW)).toEqual({ valid: false, reason: "malformed" });
    expect(verifySessionToken(SECRET, "", NOW)).toEqual({ valid: false, reason: "malformed" });
  });

  it("reads one cookie among several", () => {
    expect(readCookie("a=1; vg_session=v1.x.y.z; b=2", "vg_session")).toBe("v1.x.y.z");
    expect(readCookie("a=1", "vg_session")).toBeNull();
    expect(readCookie(null, "vg_session")).toBeNull();
  });

  it("is usable in iframes where the browser keeps Secure cookies, Lax elsewhere", () => {
    expect(canUseSecureCookie(new URL("https://app.example/vault"))).toBe(true);
    expect(canUseSecureCookie(new URL("http://localhost:3000/"))).toBe(true);
    expect(canUseSecureCookie(new URL("http://127.0.0.1:3000/"))).toBe(true);
    expect(canUseSecureCookie(new URL("http://192.168.1.5:3000/"))).toBe(false);
    expect(sessionCookieHeader("t", true)).toBe(
      `vg_session=t; Path=/; Max-Age=${SESSION_TTL_SECONDS}; HttpOnly; SameSite=None; Secure; Partitioned`,
    );
    expect(sessionCookieHeader("t", false)).toBe(
      `vg_session=t; Path=/; Max-Age=${SESSION_TTL_SECONDS}; HttpOnly; SameSite=Lax`,
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
