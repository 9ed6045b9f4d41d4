// The pages' credential source over real HTTP: the session cookie on a same-origin request is served
// under the server-held write key with a per-IP limit; a cookie from another site, a forged or expired
// token, and a revoked server key are not.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApiHarness, type ApiHarness } from "../../tests/api/harness";
import { createSessionToken } from "../web/session-token";
import { bearerKeySource } from "./credentials";
import {
  FIRST_PARTY_KEY_NAME,
  createFirstPartySessionSource,
  isSameOriginRequest,
} from "./first-party-session";

const SECRET = "first-party-session-test-secret-0123456789";

let api: ApiHarness;
let wallet: string;

function cookie(token = createSessionToken(SECRET, Date.now())): string {
  return `vg_session=${token}`;
}

const sameOrigin = { "Sec-Fetch-Site": "same-origin" };

beforeAll(async () => {
  api = await startApiHarness();
  api.context.credentialSources = [
    bearerKeySource,
    createFirstPartySessionSource({
      settings: { sessionSecret: SECRET, firstPartyApiKey: null, firstPartyRpm: 5 },
    }),
  ];
  wallet = (await api.fundedWallet()).publicKey.toBase58();
});

afterAll(async () => {
  await api.close();
});

function status(headers: Record<string, string>) {
  return api.request("GET", `/api/vault/${api.vaultId}/withdraw?wallet=${wallet}`, { headers });
}

describe("the first-party session", () => {
  it("serves a same-origin page request with the cookie, under the provisioned write key", async () => {
    const result = await status({ ...sameOrigin, Cookie: cookie() });
    expect(result.status).toBe(200);
    expect(result.headers.get("x-ratelimit-limit")).toBe("5");
    const keys = await api.context.store.keys.list();
    expect(keys.filter((key) => key.name === FIRST_PARTY_KEY_NAME)).toMatchObject([
      { scope: "write", revokedAt: null },
    ]);
  });

  it("builds transactions for the pages (write scope), the Origin header standing in for fetch metadata", async () => {
    const result = await api.request("POST", `/api/vault/${api.vaultId}/deposit`, {
      headers: { Cookie: cookie(), Origin: new URL(api.url).origin },
      body: { wallet, amount: "1000000" },
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ success: true, data: { details: { vaultName: "USDC Prime" } } });
  });

  it("ignores the cookie on another site's request, and without any credential answers 401", async () => {
    const attempts: Record<string, string>[] = [
      { "Sec-Fetch-Site": "cross-site", Cookie: cookie() },
      { Origin: "https://evil.example", Cookie: cookie() },
      { Cookie: cookie() },
      { ...sameOrigin },
    ];
    for (const headers of attempts) {
      const result = await status(headers);
      expect(result.status).toBe(401);
      expect(result.body).toMatchObject({ success: false, code: "UNAUTHORIZED" });
    }
  });

  it("refuses a forged or expired token in words", async () => {
    const forged = createSessionToken("another-secret-another-secret-another", Date.now());
    const expired = createSessionToken(SECRET, Date.now() - 13 * 3600 * 1000);
    for (const token of [forged, expired, "v1.garbage"]) {
      const result = await status({ ...sameOrigin, Cookie: cookie(token) });
      expect(result.status).toBe(401);
      expect(result.body).toMatchObject({ error: "Your session with this app has expired; reload the page" });
    }
  });

  it("limits the pages per client IP", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 6; index += 1) {
      statuses.push((await status({ ...sameOrigin, Cookie: cookie() })).status);
    }
    expect(statuses).toContain(429);
  });

  it("stops serving the pages when their key is revoked, and does not replace it", async () => {
    const [key] = (await api.context.store.keys.list()).filter(
      (entry) => entry.name === FIRST_PARTY_KEY_NAME,
    );
    expect(key).toBeDefined();
    await api.context.store.keys.revoke(key?.id ?? "");
    // A fresh source: nothing cached from the tests above.
    api.context.credentialSources = [
      bearerKeySource,
      createFirstPartySessionSource({
        settings: { sessionSecret: SECRET, firstPartyApiKey: null, firstPartyRpm: 100 },
      }),
    ];
    const result = await status({ ...sameOrigin, Cookie: cookie() });
    expect(result.status).toBe(401);
    expect(result.body).toMatchObject({ error: expect.stringContaining("switched off") });
    expect(
      (await api.context.store.keys.list()).filter((entry) => entry.name === FIRST_PARTY_KEY_NAME),
    ).toHaveLength(1);
  });

  it("serves under FIRST_PARTY_API_KEY when it is set", async () => {
    const { secret, id } = await api.createKey({ scope: "write" });
    api.context.credentialSources = [
      bearerKeySource,
      createFirstPartySessionSource({
        settings: { sessionSecret: SECRET, firstPartyApiKey: secret, firstPartyRpm: 100 },
      }),
    ];
    expect((await status({ ...sameOrigin, Cookie: cookie() })).status).toBe(200);
    await api.context.store.keys.revoke(id);
    api.context.keys.forget(secret);
    expect((await status({ ...sameOrigin, Cookie: cookie() })).status).toBe(401);
  });
});

describe("isSameOriginRequest", () => {
  it("believes fetch metadata first, then Origin against Host", () => {
    const request = (headers: Record<string, string>) => new Request("http://app.example/api/x", { headers });
    expect(isSameOriginRequest(request({ "sec-fetch-site": "same-origin" }))).toBe(true);
    expect(
      isSameOriginRequest(request({ "sec-fetch-site": "same-site", origin: "http://app.example" })),
    ).toBe(false);
    expect(isSameOriginRequest(request({ origin: "http://app.example", host: "app.example" }))).toBe(true);
    expect(isSameOriginRequest(request({ origin: "http://evil.example", host: "app.example" }))).toBe(false);
    expect(isSameOriginRequest(request({}))).toBe(false);
  });
});
