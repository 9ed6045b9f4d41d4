// The pages' credential source over real HTTP: the session cookie on a same-origin request, from the
// address and browser it was issued to, is served under the server-held write key with a per-IP limit
// and a smaller per-session one, and renewed past half its lifetime; a cookie from another site, a
// forged, expired or replayed-elsewhere token, and a revoked server key are not. Sessions are issued at
// a limited rate per client IP (on the lean host through the issuer; on the web servers by the pages).
import { clientNetworkOf } from "../ip-network";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { API_HOST, rawRequest, startApiHarness, type ApiHarness } from "../../tests/api/harness";
import { createIndexer } from "../server/indexer";
import { issueSession } from "../web/session-issue";
import { parseSessionSettings, type SessionSettings } from "../web-config";
import { createSessionToken, verifySessionToken, type SessionBinding } from "./session-token";
import { bearerKeySource } from "./credentials";
import {
  FIRST_PARTY_KEY_NAME,
  createFirstPartySessionSource,
  API_REFERENCE_HEADER,
  isSameOriginRequest,
} from "./first-party-session";

const SECRET = "first-party-session-test-secret-0123456789";
const USER_AGENT = "Mozilla/5.0 (first-party-session test)";
/** The pages' issue limit on the web servers (they read it from the environment). */
const PAGE_ISSUE_LIMIT = 3;
/** FIRST_PARTY_RPM here: what page visitors without a session may read per minute per IP. */
const VISITOR_RPM = 6;
const BASE: SessionSettings = { ...parseSessionSettings({}), sessionSecret: SECRET };

let api: ApiHarness;
let wallet: string;
let nextAddress = 10;

/** A client address of its own (behind one trusted proxy, the X-Forwarded-For entry), so limits stay apart. */
function newBrowser(): SessionBinding {
  nextAddress += 1;
  return { address: `198.51.100.${nextAddress}`, userAgent: USER_AGENT };
}

function headersFor(browser: SessionBinding, token: string | null): Record<string, string> {
  return {
    "Sec-Fetch-Site": "same-origin",
    "User-Agent": browser.userAgent,
    "X-Forwarded-For": browser.address,
    ...(token === null ? {} : { Cookie: `vg_session=${token}` }),
  };
}

function useSettings(overrides: Partial<SessionSettings>): void {
  api.context.credentialSources = [
    bearerKeySource,
    createFirstPartySessionSource({ settings: { ...BASE, ...overrides } }),
  ];
}

beforeAll(async () => {
  api = await startApiHarness({
    env: {
      TRUSTED_PROXY_COUNT: "1",
      SESSION_SECRET: SECRET,
      SESSION_ISSUE_LIMIT: String(PAGE_ISSUE_LIMIT),
    },
  });
  useSettings({ firstPartyRpm: 5 });
  wallet = (await api.fundedWallet()).publicKey.toBase58();
});

afterAll(async () => {
  await api.close();
});

function status(headers: Record<string, string>) {
  return api.request("GET", `/api/vault/${api.vaultId}/withdraw?wallet=${wallet}`, { headers });
}

/** A same-origin status read with a fresh session for `browser` (or the given token). */
function statusAs(browser: SessionBinding, token = createSessionToken(SECRET, Date.now(), browser)) {
  return status(headersFor(browser, token));
}

describe("the first-party session", () => {
  it("serves a same-origin page request with the cookie, under the provisioned write key", async () => {
    const result = await statusAs(newBrowser());
    expect(result.status).toBe(200);
    expect(result.headers.get("x-ratelimit-limit")).toBe("5");
    // A young session is not renewed.
    expect(result.headers.get("set-cookie")).toBeNull();
    const keys = await api.context.store.keys.list();
    expect(keys.filter((key) => key.name === FIRST_PARTY_KEY_NAME)).toMatchObject([
      { scope: "write", revokedAt: null },
    ]);
  });

  it("builds transactions for the pages (write scope), the Origin header standing in for fetch metadata", async () => {
    const browser = newBrowser();
    const result = await api.request("POST", `/api/vault/${api.vaultId}/deposit`, {
      headers: {
        Cookie: `vg_session=${createSessionToken(SECRET, Date.now(), browser)}`,
        Origin: new URL(api.url).origin,
        "User-Agent": browser.userAgent,
        "X-Forwarded-For": browser.address,
      },
      body: { wallet, amount: "1000000" },
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ success: true, data: { details: { vaultName: "USDC Prime" } } });
  });

  it("ignores the cookie on another site's request, and without any credential answers 401", async () => {
    const browser = newBrowser();
    const cookie = `vg_session=${createSessionToken(SECRET, Date.now(), browser)}`;
    const own = { "User-Agent": browser.userAgent, "X-Forwarded-For": browser.address };
    const attempts: Record<string, string>[] = [
      { ...own, "Sec-Fetch-Site": "cross-site", Cookie: cookie },
      { ...own, Origin: "https://evil.example", Cookie: cookie },
      { ...own, Cookie: cookie },
      { ...own, "Sec-Fetch-Site": "same-origin" },
    ];
    for (const headers of attempts) {
      const result = await status(headers);
      expect(result.status).toBe(401);
      expect(result.body).toMatchObject({ success: false, code: "UNAUTHORIZED" });
    }
  });

  it("refuses a forged, expired or malformed token in words", async () => {
    const browser = newBrowser();
    const cases: [string, string][] = [
      [
        createSessionToken("another-secret-another-secret-another", Date.now(), browser),
        "Your session with this app is not valid; reload the page",
      ],
      [
        createSessionToken(SECRET, Date.now() - (BASE.sessionTtlSeconds + 1) * 1000, browser),
        "Your session with this app has expired; reload the page",
      ],
      ["v1.garbage", "Your session with this app is not valid; reload the page"],
    ];
    for (const [token, error] of cases) {
      const result = await statusAs(browser, token);
      expect(result.status).toBe(401);
      expect(result.body).toMatchObject({ success: false, code: "UNAUTHORIZED", error });
      expect(result.headers.get("www-authenticate")).toBe('Bearer realm="api"');
    }
  });

  it("refuses a token replayed from another address or another browser", async () => {
    const browser = newBrowser();
    const token = createSessionToken(SECRET, Date.now(), browser);
    expect((await statusAs(browser, token)).status).toBe(200);
    for (const thief of [
      { ...browser, address: newBrowser().address },
      { ...browser, userAgent: "curl/8.5.0" },
    ]) {
      const result = await statusAs(thief, token);
      expect(result.status).toBe(401);
      expect(result.body).toMatchObject({
        success: false,
        code: "UNAUTHORIZED",
        error: "Your session was issued to another address or browser; reload the page",
      });
    }
  });

  it("limits the pages per client IP", async () => {
    const browser = newBrowser();
    const statuses: number[] = [];
    for (let index = 0; index < 6; index += 1) {
      statuses.push((await statusAs(browser)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it("counts an IPv6 /64 as one client: its addresses share the per-IP allowance", async () => {
    // Sessions are bound to the client's network (the pages issue them so): a /64 for IPv6.
    const browserAt = (address: string): SessionBinding => ({ address, userAgent: USER_AGENT });
    const headersAt = (address: string): Record<string, string> => ({
      ...headersFor(
        browserAt(address),
        createSessionToken(SECRET, Date.now(), browserAt(clientNetworkOf(address))),
      ),
    });
    const statuses: number[] = [];
    for (let index = 0; index < 6; index += 1) {
      statuses.push((await status(headersAt(`2001:db8:99:1:${index + 1}::${index + 7}`))).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await status(headersAt("2001:db8:99:2::1"))).status).toBe(200);
  });

  it("limits each session within the per-IP allowance: 429 with Retry-After, while another session has room", async () => {
    useSettings({ firstPartyRpm: 100, sessionRpm: 3 });
    try {
      const browser = newBrowser();
      const token = createSessionToken(SECRET, Date.now(), browser);
      const answers = [];
      for (let index = 0; index < 4; index += 1) {
        answers.push(await statusAs(browser, token));
      }
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
      expect(answers[2]?.headers.get("x-ratelimit-limit")).toBe("3");
      expect(answers[2]?.headers.get("x-ratelimit-remaining")).toBe("0");
      const refused = answers[3];
      expect(refused?.body).toMatchObject({
        success: false,
        code: "RATE_LIMITED",
        error: expect.stringContaining("3 requests per minute for this session"),
      });
      expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused?.headers.get("x-ratelimit-limit")).toBe("3");
      // Another session from the same address: its own budget.
      expect((await statusAs(browser)).status).toBe(200);
    } finally {
      useSettings({ firstPartyRpm: 5 });
    }
  });

  it("renews a session past half its lifetime in the answer, keeping its id and binding", async () => {
    const browser = newBrowser();
    const issuedMs = Date.now() - (BASE.sessionTtlSeconds / 2 + 5) * 1000;
    const token = createSessionToken(SECRET, issuedMs, browser);
    const before = verifySessionToken(SECRET, token, Date.now(), browser, BASE.sessionTtlSeconds);
    const result = await statusAs(browser, token);
    expect(result.status).toBe(200);
    const cookie = result.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(
      new RegExp(`^vg_session=[^;]+; Path=/; Max-Age=${BASE.sessionTtlSeconds}; HttpOnly`),
    );
    const renewed = /^vg_session=([^;]+)/.exec(cookie)?.[1] ?? "";
    const after = verifySessionToken(SECRET, renewed, Date.now(), browser, BASE.sessionTtlSeconds);
    expect(after).toMatchObject({ valid: true, ageSeconds: expect.any(Number) });
    expect(before.valid && after.valid && after.sessionId === before.sessionId).toBe(true);
    expect(after.valid && after.ageSeconds < 60).toBe(true);
    expect((await statusAs(browser, renewed)).headers.get("set-cookie")).toBeNull();
  });

  it("stops serving the pages when their key is revoked, and does not replace it", async () => {
    const [key] = (await api.context.store.keys.list()).filter(
      (entry) => entry.name === FIRST_PARTY_KEY_NAME,
    );
    expect(key).toBeDefined();
    await api.context.store.keys.revoke(key?.id ?? "");
    // Nothing cached from the tests above: a fresh source, and the context's cache of the pages' key emptied.
    useSettings({ firstPartyRpm: 100 });
    api.context.firstPartyKey.clear();
    const result = await statusAs(newBrowser());
    expect(result.status).toBe(401);
    expect(result.body).toMatchObject({ error: expect.stringContaining("switched off") });
    expect(
      (await api.context.store.keys.list()).filter((entry) => entry.name === FIRST_PARTY_KEY_NAME),
    ).toHaveLength(1);
  });

  it("serves under FIRST_PARTY_API_KEY when it is set", async () => {
    const { secret, id } = await api.createKey({ scope: "write" });
    useSettings({ firstPartyApiKey: secret, firstPartyRpm: 100 });
    const browser = newBrowser();
    expect((await statusAs(browser)).status).toBe(200);
    await api.context.store.keys.revoke(id);
    api.context.keys.forget(secret);
    expect((await statusAs(browser)).status).toBe(401);
  });
});

describe("public data without a session", () => {
  beforeAll(async () => {
    // The vault reads answer from the indexer's rows: one pass fills them.
    const indexer = createIndexer(api.context, { intervalMs: 60_000, schema: api.schema });
    await indexer.runOnce();
    await indexer.stop();
  });
  beforeEach(() => {
    useSettings({ firstPartyRpm: VISITOR_RPM });
  });

  const publicPaths = () => [
    "/api/vaults",
    `/api/vault/${api.vaultId}`,
    `/api/vault/${api.vaultId}/stats`,
    `/api/vault/${api.vaultId}/nav`,
    `/api/vault/${api.vaultId}/nav-history`,
  ];

  it("serves the directory, a vault, its NAV, history and stats to a same-origin page without a session", async () => {
    const browser = newBrowser();
    const statuses: number[] = [];
    for (const path of publicPaths()) {
      const result = await api.request("GET", path, { headers: headersFor(browser, null) });
      statuses.push(result.status);
      expect(result.body, path).toMatchObject({ success: true });
      expect(result.headers.get("x-ratelimit-limit"), path).toBe(String(VISITOR_RPM));
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    // The first answer lists the harness's vault.
    const directory = await api.request("GET", "/api/vaults", { headers: headersFor(newBrowser(), null) });
    expect(JSON.stringify(directory.body)).toContain(api.vaultId);
  });

  it("still serves them when the cookie is stale or forged, while the wallet's data and transactions need a session", async () => {
    const browser = newBrowser();
    const expired = createSessionToken(SECRET, Date.now() - (BASE.sessionTtlSeconds + 1) * 1000, browser);
    for (const token of [expired, "v1.garbage"]) {
      const read = await api.request("GET", `/api/vault/${api.vaultId}/stats`, {
        headers: headersFor(browser, token),
      });
      expect(read.status).toBe(200);
    }
    // A wallet's withdrawal status, a deposit build, history: refused without a session, in words.
    const status = await api.request("GET", `/api/vault/${api.vaultId}/withdraw?wallet=${wallet}`, {
      headers: headersFor(browser, null),
    });
    expect(status.status).toBe(401);
    const deposit = await api.request("POST", `/api/vault/${api.vaultId}/deposit`, {
      headers: headersFor(browser, null),
      body: { wallet, amount: "1000000" },
    });
    expect(deposit.status).toBe(401);
    expect(deposit.body).toMatchObject({ success: false, code: "UNAUTHORIZED" });
  });

  it("is for the app's own pages only: another site, no fetch metadata, or a bad bearer key is refused", async () => {
    const browser = newBrowser();
    const own = { "User-Agent": browser.userAgent, "X-Forwarded-For": browser.address };
    const attempts: Record<string, string>[] = [
      { ...own, "Sec-Fetch-Site": "cross-site" },
      { ...own, Origin: "https://evil.example" },
      own,
      { ...own, "Sec-Fetch-Site": "same-origin", Authorization: "Bearer vk_live_notakey" },
    ];
    for (const headers of attempts) {
      const result = await api.request("GET", "/api/vaults", { headers });
      expect(result.status).toBe(401);
      expect(result.body).toMatchObject({ success: false, code: "UNAUTHORIZED" });
    }
  });

  it("limits page visitors per client IP (FIRST_PARTY_RPM) with Retry-After; another address has its own budget", async () => {
    const browser = newBrowser();
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let index = 0; index < VISITOR_RPM + 1; index += 1) {
      const result = await api.request("GET", `/api/vault/${api.vaultId}/nav`, {
        headers: headersFor(browser, null),
      });
      statuses.push(result.status);
      retryAfter = result.headers.get("retry-after");
    }
    expect(statuses).toEqual([...Array<number>(VISITOR_RPM).fill(200), 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    const other = await api.request("GET", `/api/vault/${api.vaultId}/nav`, {
      headers: headersFor(newBrowser(), null),
    });
    expect(other.status).toBe(200);
  });
});

describe("issuing sessions", () => {
  it("issues at most the limit per client IP per window; renewals and other addresses are not held back", async () => {
    const settings: SessionSettings = { ...BASE, sessionIssueLimit: 3, sessionIssueWindowSeconds: 600 };
    const browser = newBrowser();
    const issue = (existing: string | null, who = browser, nowMs = Date.now()) =>
      issueSession({ limiter: api.context.limiter, settings, secret: SECRET, binding: who, existing, nowMs });
    const outcomes = [];
    for (let index = 0; index < 4; index += 1) {
      outcomes.push(await issue(null));
    }
    expect(outcomes.map((outcome) => outcome.outcome)).toEqual(["issued", "issued", "issued", "limited"]);
    const limited = outcomes[3];
    expect(limited?.outcome === "limited" && limited.decision.retryAfter).toBeGreaterThan(0);
    // A cookie bound elsewhere is a new session, so it is held back too.
    const elsewhere = createSessionToken(SECRET, Date.now(), newBrowser());
    expect((await issue(elsewhere)).outcome).toBe("limited");
    // A valid session is kept, or renewed (same id) past half its lifetime, whatever the issue count.
    const first = outcomes[0];
    const token = first?.outcome === "issued" ? first.token : "";
    expect(await issue(token)).toEqual({ outcome: "current" });
    const later = Date.now() + (settings.sessionTtlSeconds / 2) * 1000;
    const renewal = await issue(token, browser, later);
    expect(renewal.outcome).toBe("renewed");
    const renewed = renewal.outcome === "renewed" ? renewal.token : "";
    const ids = [token, renewed].map((value) => {
      const check = verifySessionToken(SECRET, value, later, browser, settings.sessionTtlSeconds);
      return check.valid ? check.sessionId : null;
    });
    expect(ids[0]).not.toBeNull();
    expect(ids[1]).toBe(ids[0]);
    // Another address has its own count.
    expect((await issue(null, newBrowser())).outcome).toBe("issued");
  });

  it.skipIf(API_HOST === "lean")(
    "the pages set a session at most SESSION_ISSUE_LIMIT times per client IP, and still render past it",
    async () => {
      const browser = newBrowser();
      const page = () =>
        fetch(`${api.url}/`, {
          redirect: "manual",
          headers: { "User-Agent": browser.userAgent, "X-Forwarded-For": browser.address },
        });
      const tokens: string[] = [];
      for (let index = 0; index < PAGE_ISSUE_LIMIT; index += 1) {
        const response = await page();
        expect(response.status).toBe(200);
        await response.arrayBuffer();
        const cookie = response.headers.getSetCookie().find((value) => value.startsWith("vg_session="));
        expect(cookie).toBeDefined();
        tokens.push(/^vg_session=([^;]+)/.exec(cookie ?? "")?.[1] ?? "");
      }
      const over = await page();
      expect(over.status).toBe(200);
      expect(await over.text()).toContain("<html");
      expect(over.headers.getSetCookie().filter((value) => value.startsWith("vg_session="))).toEqual([]);
      // What the pages issued is served by the API from the same browser, and refused from elsewhere.
      // (Under a key of its own: the tests above revoked the pages' provisioned one.)
      useSettings({ firstPartyApiKey: (await api.createKey({ scope: "write" })).secret, firstPartyRpm: 100 });
      const served = await statusAs(browser, tokens[0]);
      expect(served.status).toBe(200);
      expect(served.body).toMatchObject({ success: true });
      expect((await statusAs({ ...browser, address: newBrowser().address }, tokens[0])).status).toBe(401);
    },
  );

  it.skipIf(API_HOST === "lean")(
    "the pages count X-Forwarded-For entries that are no address as the proxy: one issue limit for all",
    async () => {
      // The proxy is a loopback address of its own, so its count is this test's alone.
      const pageVia = async (forwarded: string) => {
        const answer = await rawRequest(api.url, "GET", "/", {
          headers: { "User-Agent": USER_AGENT, "X-Forwarded-For": forwarded },
          localAddress: "127.0.0.51",
        });
        expect(answer.status).toBe(200);
        return [answer.headers["set-cookie"] ?? []].flat().some((value) => value.startsWith("vg_session="));
      };
      const issued: boolean[] = [];
      for (const forwarded of ["junk-1", "host.example.com", "", "198.51.100.7:99999", "junk-2", "junk-3"]) {
        issued.push(await pageVia(forwarded));
      }
      expect(issued.filter(Boolean)).toHaveLength(PAGE_ISSUE_LIMIT);
      // A well-formed client address behind the same proxy is a client of its own.
      expect(await pageVia(newBrowser().address)).toBe(true);
    },
  );
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

  it("counts the API reference's Try it out as a partner's request, not the pages'", () => {
    const request = new Request("http://app.example/api/vaults", {
      headers: { "sec-fetch-site": "same-origin", [API_REFERENCE_HEADER]: "try-it-out" },
    });
    expect(isSameOriginRequest(request)).toBe(false);
  });
});
