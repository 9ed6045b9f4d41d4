// The HTTP edge's small parts, without a chain: input parsing, client addresses, routing, the error
// table, rate limits under concurrency and the OpenAPI document.
import { describe, expect, it } from "vitest";

import { clientAddress, clientNetwork, resolveClientAddress } from "./client-address";
import { openApiDocument } from "./endpoints";
import { ApiError, CODE_TO_STATUS, errorBody, toApiError } from "./errors";
import type { ApiRequest } from "./handler";
import { jsonText } from "./json-text";
import { newRequestId } from "./logger";
import { createRateLimiter } from "./rate-limit";
import { MAX_BODY_BYTES, parseInput, readJsonBody, readQuery } from "./request-input";
import { envelope } from "./responses";
import { matchPath } from "./router";
import { FIRST_PARTY_ROUTES, ROUTE_TABLE } from "./routes";
import { depositRequest } from "./schemas/deposit";
import { withdrawRequest } from "./schemas/withdraw";
import { ChainUnavailableError } from "../chain/rpc";
import { DOMAIN_ERROR_CODES, DomainError, domainContextOf } from "../vault/model/domain-errors";

const WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

function post(
  body: string,
  headers: Record<string, string> = { "Content-Type": "application/json" },
): Request {
  return new Request("http://test/api/x", { method: "POST", body, headers });
}

async function apiError(work: () => unknown): Promise<ApiError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof ApiError) {
      return error;
    }
    throw error;
  }
  throw new Error("expected an ApiError");
}

describe("request bodies", () => {
  it.each([
    ["text/plain", "{}", 415, "UNSUPPORTED_MEDIA_TYPE"],
    ["application/json", "", 400, "INVALID_JSON"],
    ["application/json", "{", 400, "INVALID_JSON"],
    ["application/json", "[1]", 400, "INVALID_REQUEST"],
    ["application/json", "null", 400, "INVALID_REQUEST"],
    ["application/json", `{"a":"${"x".repeat(MAX_BODY_BYTES)}"}`, 413, "PAYLOAD_TOO_LARGE"],
  ])("%s (%#) → %i", async (contentType, body, status, code) => {
    const error = await apiError(() => readJsonBody(post(body, { "Content-Type": contentType })));
    expect([error.status, error.code]).toEqual([status, code]);
  });

  it("accepts a charset parameter and returns the object", async () => {
    expect(
      await readJsonBody(post('{"a":1}', { "Content-Type": "application/json; charset=utf-8" })),
    ).toEqual({ a: 1 });
  });

  it("refuses a query parameter given twice", async () => {
    const error = await apiError(() =>
      readQuery(new Request(`http://t/x?wallet=${WALLET}&wallet=${WALLET}`)),
    );
    expect(error.message).toBe("wallet: must be given once");
  });
});

describe("validation names the field", () => {
  it.each([
    [{}, "wallet: is required"],
    [{ wallet: 5 }, "wallet: must be a string"],
    [{ wallet: "abc" }, "wallet: must be a base58 public key"],
    [
      { wallet: "5wmiQyQXVpAVrfsVoQAqiHnkNZTW6n6998Rq56hs5DXS" },
      "wallet: must be a wallet's public key, not a program address",
    ],
    [{ wallet: WALLET }, "amount: one of amount or uiAmount is required"],
    [{ wallet: WALLET, amount: 0 }, "amount: must be a positive integer that fits in a u64"],
    [{ wallet: WALLET, amount: -5 }, "amount: must be a positive integer that fits in a u64"],
    [{ wallet: WALLET, amount: 1.5 }, "amount: must be an integer in raw units"],
    [{ wallet: WALLET, amount: 2 ** 60 }, "amount: above 2^53 must be sent as a string of digits"],
    [
      { wallet: WALLET, amount: "18446744073709551616" },
      "amount: must be a positive integer that fits in a u64",
    ],
    [{ wallet: WALLET, amount: "1e6" }, "amount: must be a string of decimal digits"],
    [{ wallet: WALLET, amount: true }, "amount: must be an integer or a string of digits"],
    [{ wallet: WALLET, uiAmount: "5" }, "uiAmount: must be a number"],
    [{ wallet: WALLET, uiAmount: -1 }, "uiAmount: must be a positive number"],
  ])("deposit %j → %s", (body, message) => {
    const error = (() => {
      try {
        parseInput(depositRequest, body);
      } catch (thrown) {
        return thrown;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(message);
  });

  it("parses amounts to bigint, and the withdraw action", () => {
    expect(
      parseInput(depositRequest, { wallet: WALLET, amount: "18446744073709551615", uiAmount: 1 }).amount,
    ).toBe(18_446_744_073_709_551_615n);
    expect(parseInput(withdrawRequest, { wallet: WALLET, action: "claim" }).action).toBe("claim");
    expect(() => parseInput(withdrawRequest, { wallet: WALLET, action: "steal" })).toThrow(
      "action: must be initiate, claim or cancel",
    );
  });
});

describe("request ids", () => {
  it("are req_ and 24 hex digits, distinct across entropy draws", () => {
    const ids = Array.from({ length: 1_000 }, () => newRequestId());
    expect(ids.every((id) => /^req_[0-9a-f]{24}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("client addresses", () => {
  const request = (forwarded?: string, socketAddress?: string): ApiRequest => ({
    method: "GET",
    url: "http://t/",
    headers: new Headers(forwarded === undefined ? {} : { "X-Forwarded-For": forwarded }),
    body: null,
    socketAddress,
  });

  it("use the socket and ignore X-Forwarded-For without trusted proxies", () => {
    const spoofed = request("6.6.6.6", "10.0.0.1");
    expect(clientAddress(spoofed, 0)).toBe("10.0.0.1");
  });

  it("believe as many hops as there are trusted proxies", () => {
    const proxied = request("6.6.6.6, 1.2.3.4", "10.0.0.1");
    expect(clientAddress(proxied, 1)).toBe("1.2.3.4");
    expect(clientAddress(proxied, 2)).toBe("6.6.6.6");
    expect(clientAddress(request("1.2.3.4"), 0)).toBe("1.2.3.4");
  });

  it("resolve to one address that a host hands to Next.js in place of the client's header", () => {
    expect(resolveClientAddress("10.0.0.1", "6.6.6.6", 0)).toBe("10.0.0.1");
    expect(resolveClientAddress("10.0.0.1", "6.6.6.6, 1.2.3.4", 1)).toBe("1.2.3.4");
    expect(resolveClientAddress("10.0.0.1", undefined, 1)).toBe("10.0.0.1");
    // The rewritten header is then believed as the client whatever TRUSTED_PROXY_COUNT says.
    for (const trusted of [0, 1, 2]) {
      expect(clientAddress(request(resolveClientAddress("10.0.0.1", "6.6.6.6", trusted)), trusted)).toBe(
        trusted === 0 ? "10.0.0.1" : "6.6.6.6",
      );
    }
  });
});

describe("client addresses behind trusted proxies", () => {
  const request = (forwarded: string, socketAddress?: string): ApiRequest => ({
    method: "GET",
    url: "http://t/",
    headers: new Headers({ "X-Forwarded-For": forwarded }),
    body: null,
    socketAddress,
  });

  it("count an entry that is no IP address as the proxy itself (its socket)", () => {
    const junk = ["", " ", "junk", "example.com", "localhost:8080", "1.2.3.4:99999", "1.2.3", "[1.2.3.4]"];
    for (const entry of junk) {
      expect(resolveClientAddress("10.0.0.1", entry, 1), JSON.stringify(entry)).toBe("10.0.0.1");
      expect(resolveClientAddress("::ffff:10.0.0.1", `6.6.6.6, ${entry}`, 1), JSON.stringify(entry)).toBe(
        "10.0.0.1",
      );
      expect(clientAddress(request(entry, "10.0.0.1"), 1), JSON.stringify(entry)).toBe("10.0.0.1");
    }
    // Two hops: the entry before the nearest proxy's is junk, so the nearest proxy is the client.
    expect(resolveClientAddress("10.0.0.1", "junk, 10.0.0.2", 2)).toBe("10.0.0.1");
  });

  it("drop zone ids and ports, and read IPv4-mapped IPv6 as IPv4", () => {
    const zoned = Array.from({ length: 30 }, (_, index) =>
      clientNetwork(request(`2001:db8:5::1%z${index}`, "10.0.0.1"), 1),
    );
    expect(new Set(zoned)).toEqual(new Set(["2001:db8:5:0::/64"]));
    expect(resolveClientAddress("10.0.0.1", "[2001:DB8:5::1]:443", 1)).toBe("2001:db8:5::1");
    expect(resolveClientAddress("10.0.0.1", "198.51.100.7:52100", 1)).toBe("198.51.100.7");
    expect(resolveClientAddress("10.0.0.1", "::ffff:198.51.100.7", 1)).toBe("198.51.100.7");
  });

  it("keep two well-formed addresses apart", () => {
    expect(clientNetwork(request("198.51.100.7", "10.0.0.1"), 1)).toBe("198.51.100.7");
    expect(clientNetwork(request("198.51.100.8", "10.0.0.1"), 1)).toBe("198.51.100.8");
  });

  it("without a socket, count junk as the nearest hop", () => {
    expect(clientAddress(request("6.6.6.6, junk"), 1)).toBe("unknown");
    expect(clientAddress(request("junk, 1.2.3.4"), 2)).toBe("1.2.3.4");
    expect(clientAddress(request("fe80::1%eth0"), 1)).toBe("fe80::1");
  });
});

describe("the envelope", () => {
  it("writes a value serialized once where it was cached byte for byte as it writes the value", () => {
    const data = {
      sharePrice: 1.25,
      totalAssets: { amount: "10", symbol: "USDC" },
      struckAt: null,
      note: 'é"',
    };
    const plain = envelope(data, { "X-RateLimit-Remaining": "9" });
    const cached = envelope(jsonText(data), { "X-RateLimit-Remaining": "9" });
    expect(cached.body).toBe(plain.body);
    expect(cached.headers).toEqual(plain.headers);
    expect(JSON.parse(String(cached.body))).toEqual({ success: true, data });
  });
});

describe("routing", () => {
  it("matches patterns and decodes parameters", () => {
    expect(matchPath("/api/vault/:vault_id/deposit", "/api/vault/abc/deposit")).toEqual({ vault_id: "abc" });
    expect(matchPath("/api/vault/:vault_id/deposit", "/api/vault/a%2Fb/deposit")).toEqual({
      vault_id: "a/b",
    });
    expect(matchPath("/api/vault/:vault_id/deposit", "/api/vault/%E0%A4%A/deposit")).toBeNull();
    expect(matchPath("/api/vault/:vault_id/deposit", "/api/vault//deposit")).toBeNull();
    expect(matchPath("/api/oracle", "/api/oracle/")).toEqual({});
  });
});

describe("the error table", () => {
  it("gives every domain code a 4xx status", () => {
    for (const code of DOMAIN_ERROR_CODES) {
      expect(CODE_TO_STATUS[code]).toBeGreaterThanOrEqual(400);
      expect(CODE_TO_STATUS[code]).toBeLessThan(500);
    }
  });

  it("sends a domain error's typed context beside its message, which a client reads back by code", () => {
    const usdc = (amount: string) => ({
      mint: "m",
      symbol: "USDC",
      amount,
      decimals: 6,
      uiAmount: Number(amount) / 1e6,
    });
    const context = {
      window: "daily" as const,
      remaining: usdc("300000000"),
      requested: usdc("400000000"),
      cap: usdc("700000000"),
      used: usdc("400000000"),
      resetsAt: "2026-11-23T00:00:00.000Z",
    };
    const thrown = new DomainError("CAPACITY_EXCEEDED", "The daily cap leaves 300.00 USDC", {
      context,
      details: "daily cap 700000000",
    });
    const body = JSON.parse(JSON.stringify(errorBody(toApiError(thrown).error, "req_1"))) as Record<
      string,
      unknown
    >;
    expect(body).toEqual({
      success: false,
      error: "The daily cap leaves 300.00 USDC",
      details: "daily cap 700000000",
      code: "CAPACITY_EXCEEDED",
      context,
      requestId: "req_1",
    });
    expect(domainContextOf("CAPACITY_EXCEEDED", body.context)).toEqual({
      code: "CAPACITY_EXCEEDED",
      context,
    });
    expect(domainContextOf("CAPACITY_EXCEEDED", { ...context, window: "weekly" })).toBeNull();
    expect(domainContextOf("VAULT_NOT_FOUND", context)).toBeNull();
    expect(domainContextOf("NO_PENDING_WITHDRAWAL", context)).toBeNull();
    expect(domainContextOf("toString", context)).toBeNull();
    const bare = errorBody(toApiError(new DomainError("NO_PENDING_WITHDRAWAL", "none")).error, "req_2");
    expect(bare).toEqual({
      success: false,
      error: "none",
      code: "NO_PENDING_WITHDRAWAL",
      requestId: "req_2",
    });
  });

  it("turns unavailability into 503 and anything unknown into a 500 without internals", () => {
    expect(toApiError(new ChainUnavailableError("x")).error.status).toBe(503);
    const { error, internal } = toApiError(new TypeError("secret stack detail"));
    expect(internal).toBe(true);
    expect(errorBody(error, "req_1")).toEqual({
      success: false,
      error: "Internal error",
      code: "INTERNAL_ERROR",
      requestId: "req_1",
    });
  });
});

describe("rate limits in process", () => {
  it("allow exactly the limit under concurrency and say when to retry", async () => {
    const limiter = createRateLimiter({ redis: null, keyPrefix: "unit" });
    const rule = { bucket: "unit", limit: 20, windowSeconds: 5 };
    const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.consume(rule, "k")));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(20);
    const denied = decisions.find((decision) => !decision.allowed);
    expect(denied?.remaining).toBe(0);
    expect(denied?.retryAfter).toBeGreaterThanOrEqual(1);
    expect(denied?.retryAfter).toBeLessThanOrEqual(5);
    expect((await limiter.consume(rule, "other")).remaining).toBe(19);
  });
});

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1, covers every route but the pages' own, and has every referenced component", () => {
    const text = openApiDocument();
    const document = JSON.parse(text) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(document.openapi).toBe("3.1.0");
    for (const route of ROUTE_TABLE.filter((route) => !FIRST_PARTY_ROUTES.includes(route))) {
      const path = route.pattern.replace(/:([a-z_]+)/g, "{$1}");
      expect(Object.keys(document.paths)).toContain(path);
      for (const method of Object.keys(route.methods)) {
        expect(document.paths[path]?.[method.toLowerCase()]).toBeDefined();
      }
    }
    for (const [, name] of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      expect(document.components.schemas[name ?? ""]).toBeDefined();
    }
    for (const route of FIRST_PARTY_ROUTES) {
      expect(Object.keys(document.paths)).not.toContain(route.pattern);
    }
    expect(JSON.stringify(document.paths["/api/vault/{vault_id}/deposit"])).toContain('"name":"vault_id"');
    expect(JSON.stringify(document.components.schemas.DepositRequest)).toContain("uiAmount");
  });
});
