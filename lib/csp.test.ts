import { describe, expect, it } from "vitest";

import { buildContentSecurityPolicy, frameAncestorsFor, parseFrameAncestors } from "./csp";

describe("parseFrameAncestors", () => {
  it("accepts keywords, * and origins separated by spaces or commas", () => {
    expect(parseFrameAncestors("'self' https://partner.example, https://*.embeds.example:8443")).toEqual({
      ok: true,
      sources: ["'self'", "https://partner.example", "https://*.embeds.example:8443"],
    });
    expect(parseFrameAncestors("self http://127.0.0.1:5173/")).toEqual({
      ok: true,
      sources: ["'self'", "http://127.0.0.1:5173"],
    });
    expect(parseFrameAncestors("*")).toEqual({ ok: true, sources: ["*"] });
  });

  it.each([
    ["", "must name at least one source"],
    ["'self'; script-src *", "invalid source"],
    ["https://partner.example/path", "invalid source"],
    ["javascript:alert(1)", "invalid source"],
    ["'none' 'self'", "'none' cannot be combined"],
  ])("refuses %j", (value, reason) => {
    const parsed = parseFrameAncestors(value);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.reason).toContain(reason);
  });
});

describe("buildContentSecurityPolicy", () => {
  const base = {
    nonce: "bm9uY2U=",
    development: false,
    connectTo: ["http://127.0.0.1:8899", "ws://127.0.0.1:8900", "http://127.0.0.1:8899/faucet", "not a url"],
    frameAncestors: ["'self'", "https://partner.example"],
    secure: false,
  };

  it("allows the nonce's scripts, the chain's endpoints and the configured frame ancestors", () => {
    const policy = buildContentSecurityPolicy(base);
    expect(policy).toContain("script-src 'self' 'nonce-bm9uY2U=' 'strict-dynamic'");
    expect(policy).not.toContain("unsafe-eval");
    expect(policy).toContain("connect-src 'self' http://127.0.0.1:8899 ws://127.0.0.1:8900;");
    expect(policy).toContain("frame-ancestors 'self' https://partner.example");
    expect(policy).toContain("object-src 'none'");
    expect(policy).not.toContain("upgrade-insecure-requests");
  });

  it("adds eval and the hot-reload socket in development, and upgrades on https", () => {
    const policy = buildContentSecurityPolicy({ ...base, development: true, secure: true });
    expect(policy).toContain("'unsafe-eval'");
    expect(policy).toContain(" ws:");
    expect(policy).toContain("upgrade-insecure-requests");
  });

  it("lets only the embed pages be framed by partners", () => {
    const configured = ["'self'", "https://partner.example"];
    expect(frameAncestorsFor("/embed/vault/abc", configured)).toBe(configured);
    expect(frameAncestorsFor("/vault/abc", configured)).toEqual(["'self'"]);
    expect(frameAncestorsFor("/embedded", configured)).toEqual(["'self'"]);
  });
});
