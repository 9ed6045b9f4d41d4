// One security suite over every partner route: no key, malformed, unknown, revoked, read key on a
// write route, other vault, other wallet, rate limited; every answer in the envelope with
// X-RateLimit-* headers. Each case comes from its own client address (one trusted proxy hop).
import { randomBytes } from "node:crypto";

import bs58 from "bs58";
import { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { EndpointDefinition } from "../../lib/api/endpoint";
import { ENDPOINTS } from "../../lib/api/endpoints";
import { startApiHarness, type ApiHarness, type HttpResult, type KeyOptions } from "./harness";

let harness: ApiHarness;
let ipCounter = 0;

beforeAll(async () => {
  harness = await startApiHarness({ env: { TRUSTED_PROXY_COUNT: "1" } });
});

afterAll(async () => {
  await harness?.close();
});

/** Every partner endpoint, from the definitions the router and the document are built from. */
const PARTNER_ROUTES = ENDPOINTS.filter((endpoint) => endpoint.audience === "partner").map((endpoint) => ({
  ...endpoint,
  name: `${endpoint.method} ${endpoint.path}`,
}));

describe("the partner endpoints", () => {
  it("are all here, each with a sample request this suite sends", () => {
    expect(PARTNER_ROUTES.length).toBeGreaterThanOrEqual(15);
    for (const route of PARTNER_ROUTES) {
      expect(route.sample, route.name).not.toBeNull();
      expect(route.scope, route.name).not.toBeNull();
    }
  });
});

function nextClient(): Record<string, string> {
  ipCounter += 1;
  // The socket is the one trusted proxy; the entry it appended is the client.
  return { "X-Forwarded-For": `10.9.${Math.floor(ipCounter / 250)}.${ipCounter % 250}` };
}

async function call(
  route: EndpointDefinition,
  options: { authorization?: string; vault?: string; wallet?: string } = {},
): Promise<HttpResult> {
  if (route.sample === null) {
    throw new Error(`${route.operationId} has no sample request`);
  }
  const { path, body } = route.sample({
    vault: options.vault ?? harness.vaultId,
    wallet: options.wallet ?? Keypair.generate().publicKey.toBase58(),
  });
  const headers = nextClient();
  if (options.authorization !== undefined) {
    headers.Authorization = options.authorization;
  }
  return harness.request(route.method, path, { body, headers });
}

let partnerWallet: string | null = null;

/**
 * A key for the suite: each is a partner's (its asset account open), so it reads what any key reads
 * and its partner's earnings too (a key without a partner is refused those:
 * tests/api/endpoints/partner-fee.test.ts).
 */
async function key(options: KeyOptions = {}): Promise<string> {
  partnerWallet ??= (await harness.fundedWallet(0n)).publicKey.toBase58();
  return (await harness.createKey({ partner: { wallet: partnerWallet, feeBps: 25 }, ...options })).secret;
}

function expectRefusal(result: HttpResult, status: number, code: string, message: string | RegExp): void {
  expect(result.status, result.text).toBe(status);
  const body = result.body as { success: boolean; error: string; code: string; requestId: string };
  expect(body.success).toBe(false);
  expect(body.code).toBe(code);
  if (typeof message === "string") {
    expect(body.error).toBe(message);
  } else {
    expect(body.error).toMatch(message);
  }
  expect(body.requestId).toBe(result.headers.get("x-request-id"));
  for (const header of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
    expect(result.headers.get(header), header).toMatch(/^\d+$/);
  }
  expect(result.text).not.toMatch(/at .*\.ts:\d+|node_modules|Error:/);
}

describe.each(PARTNER_ROUTES)("$name", (route) => {
  it("refuses a request without a key with 401 and WWW-Authenticate", async () => {
    const result = await call(route);
    expectRefusal(result, 401, "UNAUTHORIZED", "Missing API key: send Authorization: Bearer <API_KEY>");
    expect(result.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it.each([
    ["Token abc", "Malformed Authorization header: use Authorization: Bearer <API_KEY>"],
    ["Bearer", "Malformed Authorization header: use Authorization: Bearer <API_KEY>"],
    ["Bearer vk_live_short", "Malformed API key"],
    ["Bearer vk_live_0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl", "Malformed API key"],
    [`Bearer ${"x".repeat(5000)}`, "Malformed API key"],
  ])("refuses a malformed credential (%#) with 401", async (authorization, message) => {
    expectRefusal(await call(route, { authorization }), 401, "UNAUTHORIZED", message);
  });

  it("refuses an unknown key with 401", async () => {
    const unknown = `vk_live_${bs58.encode(randomBytes(32))}`;
    expectRefusal(
      await call(route, { authorization: `Bearer ${unknown}` }),
      401,
      "UNAUTHORIZED",
      "Unknown API key",
    );
  });

  it("refuses a revoked key with 401", async () => {
    const { secret, id } = await harness.createKey({ scope: "write" });
    expect(await harness.context.store.keys.revoke(id)).toBe(true);
    expectRefusal(
      await call(route, { authorization: `Bearer ${secret}` }),
      401,
      "UNAUTHORIZED",
      "This API key has been revoked",
    );
  });

  it(route.scope === "write" ? "refuses a read key with 403" : "accepts a read key", async () => {
    const result = await call(route, { authorization: `Bearer ${await key({ scope: "read" })}` });
    if (route.scope === "write") {
      expectRefusal(
        result,
        403,
        "FORBIDDEN",
        "This API key has read scope; this endpoint needs a write-scope key",
      );
    } else {
      expect(result.status).not.toBe(401);
      expect(result.status).not.toBe(403);
    }
  });

  it.runIf(route.names === "nothing" || route.names === "wallet")(
    "serves a vault-restricted key (a read naming no vault)",
    async () => {
      const restricted = await key({ scope: route.scope ?? "read", vaults: [harness.flexVaultId] });
      expect([401, 403]).not.toContain((await call(route, { authorization: `Bearer ${restricted}` })).status);
    },
  );

  it.runIf(route.names === "nothing")(
    "serves a wallet-restricted key (a read naming no wallet)",
    async () => {
      const restricted = await key({
        scope: route.scope ?? "read",
        wallet: Keypair.generate().publicKey.toBase58(),
      });
      expect([401, 403]).not.toContain((await call(route, { authorization: `Bearer ${restricted}` })).status);
    },
  );

  it.runIf(route.names === "vault")(
    "serves a wallet-restricted key on its vault (no wallet named)",
    async () => {
      const restricted = await key({ scope: "read", wallet: Keypair.generate().publicKey.toBase58() });
      expect([401, 403]).not.toContain((await call(route, { authorization: `Bearer ${restricted}` })).status);
    },
  );

  it.runIf(route.names === "vault-and-wallet" || route.names === "vault")(
    "refuses a key restricted to other vaults with 403, and lets its own vault through",
    async () => {
      const restricted = await key({ scope: "write", vaults: [harness.flexVaultId] });
      expectRefusal(
        await call(route, { authorization: `Bearer ${restricted}` }),
        403,
        "FORBIDDEN",
        `This API key is restricted to other vaults; it may not act on vault ${harness.vaultId}`,
      );
      const own = await call(route, { authorization: `Bearer ${restricted}`, vault: harness.flexVaultId });
      expect([401, 403]).not.toContain(own.status);
    },
  );

  it.runIf(route.names === "vault-and-wallet" || route.names === "wallet")(
    "refuses a key restricted to another wallet with 403, and lets its own wallet through",
    async () => {
      const wallet = Keypair.generate().publicKey.toBase58();
      const other = Keypair.generate().publicKey.toBase58();
      const restricted = await key({ scope: "write", wallet });
      expectRefusal(
        await call(route, { authorization: `Bearer ${restricted}`, wallet: other }),
        403,
        "FORBIDDEN",
        `This API key is restricted to another wallet; it may not act for ${other}`,
      );
      const own = await call(route, { authorization: `Bearer ${restricted}`, wallet });
      expect([401, 403]).not.toContain(own.status);
    },
  );

  it("limits a key to its RPM, keyed by key id, with the headers on success and 429", async () => {
    const limited = await key({ scope: "write", rpm: 3 });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => call(route, { authorization: `Bearer ${limited}` })),
    );
    const refused = results.filter((result) => result.status === 429);
    expect(refused).toHaveLength(2);
    const passed = results.find((result) => result.status !== 429);
    expect(passed?.headers.get("x-ratelimit-limit")).toBe("3");
    const first = refused[0];
    if (first === undefined) {
      return;
    }
    expectRefusal(first, 429, "RATE_LIMITED", /^Rate limit exceeded: 3 requests per minute for this key/);
    expect(first.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(first.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(first.headers.get("retry-after"))).toBeLessThanOrEqual(60);
  });
});

describe("failed authentication", () => {
  it("is limited per client address: 30 a minute, then 429", async () => {
    const route = PARTNER_ROUTES[0];
    if (route?.sample === null || route?.sample === undefined) {
      throw new Error("No partner endpoint with a sample request");
    }
    const headers = { "X-Forwarded-For": "198.18.0.77", Authorization: "Bearer nope" };
    const { path, body } = route.sample({
      vault: harness.vaultId,
      wallet: Keypair.generate().publicKey.toBase58(),
    });
    const results = await Promise.all(
      Array.from({ length: 34 }, () => harness.request(route.method, path, { body, headers })),
    );
    expect(results.filter((result) => result.status === 401)).toHaveLength(30);
    const limited = results.find((result) => result.status === 429);
    expect(limited?.headers.get("retry-after")).toMatch(/^\d+$/);

    // The budget is checked before the key is looked up: an exhausted address costs no lookup, even
    // with a key that exists.
    const { secret } = await harness.createKey();
    const keys = harness.context.keys;
    const resolve = keys.resolve.bind(keys);
    let lookups = 0;
    keys.resolve = (text) => {
      lookups += 1;
      return resolve(text);
    };
    try {
      const refused = await harness.request(route.method, path, {
        body,
        headers: { "X-Forwarded-For": "198.18.0.77", Authorization: `Bearer ${secret}` },
      });
      expect(refused.status).toBe(429);
      expect(lookups).toBe(0);
    } finally {
      keys.resolve = resolve;
    }
  });

  it("never reveals whether a key exists beyond 'unknown', and does not store secrets", async () => {
    const { secret } = await harness.createKey();
    const rows = await harness.context.store.query<{ key_hash: string; key_prefix: string }>(
      "SELECT key_hash, key_prefix FROM api_keys",
    );
    expect(rows.some((row) => row.key_hash.includes(secret) || secret === row.key_hash)).toBe(false);
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.key_hash))).toBe(true);
  });
});
