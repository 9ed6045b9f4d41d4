// The keyless GET /api/oracle and /api/circulating-supply: bare bodies, caching, errors and the per-IP
// rate limit, counted behind one trusted proxy (TRUSTED_PROXY_COUNT=1: the socket is the proxy, the last
// X-Forwarded-For entry the client).
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { USDC, rawRequest } from "../harness";
import { endpointSuite } from "./setup";

const api = endpointSuite();

describe("keyless GET /api/oracle and /api/circulating-supply", () => {
  const from = (ip: string) => ({ headers: { "X-Forwarded-For": ip } });

  it("answer bare bodies, edge-cacheable, open to any origin", async () => {
    const oracle = await api.harness.request("GET", "/api/oracle", from("198.51.100.1"));
    expect(oracle.status).toBe(200);
    expect(Object.keys(oracle.body as object)).toEqual(["sharePrice"]);
    expect((oracle.body as { sharePrice: number }).sharePrice).toBeGreaterThanOrEqual(1);
    expect(oracle.headers.get("access-control-allow-origin")).toBe("*");
    expect(oracle.headers.get("cache-control")).toBe("public, s-maxage=60");
    const supply = await api.harness.request(
      "GET",
      `/api/circulating-supply?vault=${api.harness.flexVaultId}`,
      from("198.51.100.1"),
    );
    expect(supply.body).toEqual({ circulatingSupply: expect.any(Number) });
    const preflight = await api.harness.request("OPTIONS", "/api/oracle", from("198.51.100.1"));
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("cache the value in process for about ten seconds", async () => {
    const before = (await api.harness.request("GET", "/api/circulating-supply", from("198.51.100.2"))).body;
    await api.deposit(await api.harness.fundedWallet(50n * USDC), 40n * USDC);
    const after = (await api.harness.request("GET", "/api/circulating-supply", from("198.51.100.2"))).body;
    expect(after).toEqual(before);
  });

  it("answer a bare 404 for an unknown vault and 400 for a bad one, not cacheable", async () => {
    const unknown = await api.harness.request(
      "GET",
      `/api/oracle?vault=${Keypair.generate().publicKey.toBase58()}`,
      from("198.51.100.3"),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: "VAULT_NOT_FOUND" });
    expect((unknown.body as object & { success?: unknown }).success).toBeUndefined();
    expect(unknown.headers.get("cache-control")).toBe("no-store");
    const bad = await api.harness.request("GET", "/api/oracle?vault=xyz", from("198.51.100.3"));
    expect([bad.status, (bad.body as { error: string }).error]).toEqual([
      400,
      "vault: must be a base58 public key",
    ]);
  });

  it("allow 20 requests per 5 s per client IP, then 429 with all four headers", async () => {
    const results = await Promise.all(
      Array.from({ length: 25 }, () => api.harness.request("GET", "/api/oracle", from("203.0.113.9"))),
    );
    expect(results.filter((result) => result.status === 200)).toHaveLength(20);
    const limited = results.find((result) => result.status === 429);
    expect(limited?.headers.get("x-ratelimit-limit")).toBe("20");
    expect(limited?.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(limited?.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000 - 1);
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await api.harness.request("GET", "/api/oracle", from("203.0.113.10"))).status).toBe(200);
  });

  it("count an IPv6 /64 as one client: 20 among its addresses, then 429; the next /64 is another", async () => {
    const addresses = Array.from(
      { length: 25 },
      (_, index) => `2001:db8:77:1:${index.toString(16)}::${index + 1}`,
    );
    const results = await Promise.all(
      addresses.map((address) => api.harness.request("GET", "/api/oracle", from(address))),
    );
    expect(results.filter((result) => result.status === 200)).toHaveLength(20);
    expect(results.filter((result) => result.status === 429)).toHaveLength(5);
    // The same /64 written otherwise, and IPv4-mapped: the same count (an IPv4 client is its address).
    expect((await api.harness.request("GET", "/api/oracle", from("2001:DB8:77:1:ffff::"))).status).toBe(429);
    expect((await api.harness.request("GET", "/api/oracle", from("2001:db8:77:2::1"))).status).toBe(200);
  });

  // Each proxy is a loopback address of its own (127.0.0.x), so its bucket is this test's alone.
  const oracleVia = async (proxy: string, forwarded?: string): Promise<number> => {
    const headers = forwarded === undefined ? undefined : { "X-Forwarded-For": forwarded };
    return (await rawRequest(api.harness.url, "GET", "/api/oracle", { headers, localAddress: proxy })).status;
  };
  const statuses = async (proxy: string, entries: string[]): Promise<Record<number, number>> => {
    const counts: Record<number, number> = {};
    for (const status of await Promise.all(entries.map((entry) => oracleVia(proxy, entry)))) {
      counts[status] = (counts[status] ?? 0) + 1;
    }
    return counts;
  };

  it("count 60 X-Forwarded-For entries that are no address as the proxy: 20 × 200, then 429", async () => {
    // Ten of each: a word, a hostname, a port out of range, an IPv4 with a zone, an IPv4 in brackets,
    // a malformed IPv6 (and once an empty entry).
    const junk = Array.from({ length: 10 }, (_, index) => [
      `junk-${index}`,
      `host${index}.example.com`,
      `198.51.100.${index}:99999`,
      `198.51.100.${index}%eth0`,
      `[198.51.100.${index}]`,
      index === 0 ? "" : `2001:db8::${index}::1`,
    ]).flat();
    expect(new Set(junk).size).toBe(60);
    expect(await statuses("127.0.0.31", junk)).toEqual({ 200: 20, 429: 40 });
    // They were the proxy's own requests: without a header it is limited too, another proxy is not,
    // and a well-formed client address behind the same proxy is a client of its own.
    expect(await oracleVia("127.0.0.31")).toBe(429);
    expect(await oracleVia("127.0.0.32", "junk-0")).toBe(200);
    expect(await oracleVia("127.0.0.31", "198.51.100.50")).toBe(200);
  });

  it("count 30 zone-id variants of one address as that address, and a port-suffixed one as it", async () => {
    const zoned = Array.from({ length: 30 }, (_, index) => `2001:db8:88::1%z${index}`);
    expect(await statuses("127.0.0.33", zoned)).toEqual({ 200: 20, 429: 10 });
    // The address's /64 is limited; the proxy is not (the variants were not counted as it).
    expect(await oracleVia("127.0.0.33", "2001:db8:88::2")).toBe(429);
    expect(await oracleVia("127.0.0.33")).toBe(200);
    const ported = Array.from({ length: 25 }, (_, index) => `198.51.100.61:${40_000 + index}`);
    expect(await statuses("127.0.0.33", ported)).toEqual({ 200: 20, 429: 5 });
    expect(await oracleVia("127.0.0.33", "::ffff:198.51.100.61")).toBe(429);
    expect(await oracleVia("127.0.0.33", "198.51.100.62")).toBe(200);
  });
});
