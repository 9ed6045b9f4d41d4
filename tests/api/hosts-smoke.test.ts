// What a partner meets first, on whichever host API_HOST names (tests/api/hosts.ts runs this on the
// lean host, `npm start`'s and `npm run dev`'s): a bad key is 401 with WWW-Authenticate, methods Node's
// fetch will not send (TRACE, CONNECT) are 405 with Allow, an unknown /api path is the JSON 404, every
// answer carries the web server's baseline headers, and the web servers still serve the pages.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ENDPOINTS } from "../../lib/api/endpoints";
import { createIndexer } from "../../lib/server/indexer";
import { actionErrorSchema } from "../../lib/api/schemas/actions";
import { errorEnvelopeSchema } from "../../lib/api/schemas/common";
import { bareErrorSchema } from "../../lib/api/schemas/public";
import { API_HOST, rawRequest, startApiHarness, type ApiHarness, type RawAnswer } from "./harness";

let harness: ApiHarness;

beforeAll(async () => {
  harness = await startApiHarness();
}, 180_000);

afterAll(async () => {
  await harness?.close();
});

/** One request over node:http, which sends any method (fetch refuses TRACE and CONNECT). */
function raw(method: string, path: string): Promise<RawAnswer> {
  return rawRequest(harness.url, method, path);
}

const BASELINE = { "x-content-type-options": "nosniff", "referrer-policy": "same-origin" };

describe(`the API on the ${API_HOST} host`, () => {
  it("answers a bad key with 401, WWW-Authenticate: Bearer, the rate-limit headers and no-store", async () => {
    for (const authorization of ["Bearer vk_live_not-a-key", "Basic YWxhZGRpbjpvcGVuc2VzYW1l"]) {
      const result = await harness.request("GET", `/api/vault/${harness.vaultId}/nav`, {
        headers: { Authorization: authorization },
      });
      expect(result.status).toBe(401);
      expect(result.body).toMatchObject({ success: false, code: "UNAUTHORIZED" });
      expect(result.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(result.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
      expect(result.headers.get("cache-control")).toBe("no-store");
      expect(result.headers.get("x-content-type-options")).toBe("nosniff");
      expect(result.headers.get("referrer-policy")).toBe("same-origin");
    }
  });

  it.each(["TRACE", "CONNECT", "PROPFIND"])("answers %s with 405 and Allow", async (method) => {
    const result = await raw(method, `/api/vault/${harness.vaultId}/nav`);
    expect(result.status).toBe(405);
    expect(result.headers.allow).toBe("GET, HEAD, OPTIONS");
    expect(result.headers).toMatchObject(BASELINE);
    expect(JSON.parse(result.body)).toMatchObject({ success: false, code: "METHOD_NOT_ALLOWED" });
  });

  // /actions.json is the API's route outside /api: every host answers its refused methods as the lean
  // router does, the Actions specification's { message } with the Actions CORS headers.
  it.each(["PUT", "PATCH", "DELETE", "POST", "TRACE", "PROPFIND"])(
    "answers %s on /actions.json with the JSON 405 and a true Allow",
    async (method) => {
      const result = await raw(method, "/actions.json");
      expect(result.status, result.body).toBe(405);
      expect(result.headers.allow).toBe("GET, HEAD, OPTIONS");
      expect(result.headers["content-type"]).toMatch(/^application\/json/);
      expect(result.headers).toMatchObject({
        ...BASELINE,
        "cache-control": "no-store",
        "access-control-allow-origin": "*",
      });
      expect(actionErrorSchema.parse(JSON.parse(result.body))).toEqual({
        message: `Method ${method} is not allowed here`,
      });
    },
  );

  it.each(["/api/nope", "/api/vault", "/api/vault/x/y/z", "/api"])(
    "answers %s with the JSON 404",
    async (path) => {
      const result = await raw("GET", path);
      expect(result.status).toBe(404);
      expect(result.headers["content-type"]).toMatch(/^application\/json/);
      expect(result.headers).toMatchObject({ ...BASELINE, "cache-control": "no-store" });
      expect(JSON.parse(result.body)).toMatchObject({ success: false, code: "NOT_FOUND" });
    },
  );

  it("answers a keyless read, cacheable, with the baseline headers", async () => {
    const result = await harness.request("GET", "/api/oracle");
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ sharePrice: expect.any(Number) });
    expect(result.headers.get("cache-control")).toBe("public, s-maxage=60");
    expect(result.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("ignores X-Forwarded-For without trusted proxies: 25 addresses named from one socket, 20 × 200", async () => {
    // TRUSTED_PROXY_COUNT is 0 here; each socket is a loopback address of its own, so this test's alone.
    const oracleFrom = async (socket: string, forwarded: string) =>
      (
        await rawRequest(harness.url, "GET", "/api/oracle", {
          headers: { "X-Forwarded-For": forwarded },
          localAddress: socket,
        })
      ).status;
    const named = Array.from({ length: 25 }, (_, index) => `198.51.100.${index + 1}`);
    const results = await Promise.all(named.map((address) => oracleFrom("127.0.0.41", address)));
    expect(results.filter((status) => status === 200)).toHaveLength(20);
    expect(results.filter((status) => status === 429)).toHaveLength(5);
    // The socket is the client: another one naming the same address is served.
    expect(await oracleFrom("127.0.0.42", "198.51.100.1")).toBe(200);
  });

  it.skipIf(API_HOST === "lean").each(["TRACE", "PUT", "DELETE", "PROPFIND"])(
    "answers %s on a page path with 405 and Allow",
    async (method) => {
      for (const path of ["/", `/vault/${harness.vaultId}`, "/no-such-page"]) {
        const result = await raw(method, path);
        expect(result.status, `${method} ${path}`).toBe(405);
        expect(result.headers.allow).toBe("GET, HEAD, OPTIONS, POST");
        expect(result.headers).toMatchObject(BASELINE);
      }
    },
  );

  it.skipIf(API_HOST === "lean")("still serves the pages through Next.js", async () => {
    const result = await raw("GET", "/");
    expect(result.status).toBe(200);
    expect(result.headers["content-type"]).toMatch(/^text\/html/);
  });
});

describe(`the document's promises, on the ${API_HOST} host`, () => {
  it("every endpoint's answer to its sample has a documented status and the documented body", async () => {
    // The vault reads answer from the indexer's rows: one pass fills them.
    const indexer = createIndexer(harness.context, { intervalMs: 60_000, schema: harness.schema });
    await indexer.runOnce();
    await indexer.stop();
    const key = (await harness.createKey({ scope: "write" })).secret;
    const wallet = (await harness.fundedWallet()).publicKey.toBase58();
    const checked: string[] = [];
    for (const endpoint of ENDPOINTS) {
      const sample = endpoint.sample?.({ vault: harness.vaultId, wallet }) ?? { path: endpoint.path };
      const result = await harness.request(endpoint.method, sample.path, {
        body: sample.body,
        ...(endpoint.audience === "partner" ? { key } : {}),
      });
      const name = `${endpoint.method} ${sample.path} → ${result.status} ${result.text.slice(0, 200)}`;
      expect(endpoint.statuses, name).toContain(result.status);
      const schema =
        result.status < 300
          ? endpoint.response
          : (endpoint.errorBodies[result.status] ??
            (endpoint.audience === "partner" ? errorEnvelopeSchema : bareErrorSchema));
      // A page or file (the API reference) is text of its own media type, not JSON.
      const textual = result.status < 300 && endpoint.contentType !== undefined;
      if (textual) {
        expect(result.headers.get("content-type"), name).toBe(`${endpoint.contentType}; charset=utf-8`);
      }
      const parsed = schema.safeParse(textual ? result.text : result.body);
      expect(parsed.success ? [] : parsed.error.issues, name).toEqual([]);
      if (endpoint.audience === "partner") {
        expect(result.headers.get("x-ratelimit-limit"), name).toMatch(/^\d+$/);
        expect(result.headers.get("cache-control"), name).toBe("no-store");
      }
      checked.push(`${endpoint.operationId} ${result.status}`);
    }
    // The samples reach the handlers: most answer 200 (deposit and history refuse the sample's state).
    expect(
      checked.filter((entry) => entry.endsWith(" 200")).length,
      checked.join(", "),
    ).toBeGreaterThanOrEqual(15);
  });
});
