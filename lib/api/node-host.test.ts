// The node:http host and the request log, with stub routes: graceful shutdown finishes what is in
// flight, every response carries its request id, and each request is one JSON log line; requests
// reach handlers with their headers, body and socket address, and responses leave as written.
import { describe, expect, it } from "vitest";

import { percentileFee } from "../chain/blockhash";
import type { ApiContext } from "./context";
import { createLogger } from "./logger";
import { startNodeHost } from "./node-host";
import type { ApiRequest } from "./handler";
import { readJsonBody } from "./request-input";
import { json, toWebResponse } from "./responses";
import { createApiHandler, type RouteDefinition } from "./router";

function stubContext(lines: string[], requestLogLevel: "debug" | "info" = "info"): ApiContext {
  // The router only logs through the context (at the configured request level) and starts its genesis
  // watch; the stub routes use nothing else.
  return {
    log: createLogger("info", (line) => lines.push(line)),
    config: { requestLogLevel },
    genesis: { watch: () => undefined },
  } as unknown as ApiContext;
}

/** Resolved when the slow route starts handling a request. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
let arrived = signal();

const slowRoute: RouteDefinition = {
  pattern: "/api/slow",
  audience: "partner",
  methods: {
    GET: async () => {
      arrived.resolve();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return json(200, { success: true, data: { done: true } });
    },
  },
};

describe("the node:http host", () => {
  it("finishes in-flight requests on shutdown, then stops accepting", async () => {
    const lines: string[] = [];
    const host = await startNodeHost(createApiHandler([slowRoute], stubContext(lines)), {
      host: "127.0.0.1",
      port: 0,
    });
    arrived = signal();
    const inFlight = fetch(`${host.url}/api/slow`);
    // Closed once the request is being handled (not after a guess of how long that takes).
    await arrived.promise;
    const closed = host.close(5_000);
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, data: { done: true } });
    await closed;
    await expect(fetch(`${host.url}/api/slow`)).rejects.toThrow();
  });

  it("logs one JSON line per request with its id, status and duration, and returns the id", async () => {
    const lines: string[] = [];
    const host = await startNodeHost(createApiHandler([slowRoute], stubContext(lines)), {
      host: "127.0.0.1",
      port: 0,
    });
    try {
      const response = await fetch(`${host.url}/api/missing`);
      const body = (await response.json()) as { requestId: string; code: string };
      expect(response.headers.get("x-request-id")).toBe(body.requestId);
      const entry = JSON.parse(lines.at(-1) ?? "{}") as Record<string, unknown>;
      expect(entry).toMatchObject({
        level: "info",
        msg: "request",
        requestId: body.requestId,
        method: "GET",
        path: "/api/missing",
        status: 404,
        code: "NOT_FOUND",
      });
      expect(entry.durationMs).toEqual(expect.any(Number));
    } finally {
      await host.close();
    }
  });

  it("logs requests at debug as in development: not written at info, while a 5xx's warning is", async () => {
    const lines: string[] = [];
    const host = await startNodeHost(createApiHandler([echoRoute], stubContext(lines, "debug")), {
      host: "127.0.0.1",
      port: 0,
    });
    try {
      expect((await fetch(`${host.url}/api/echo/x`)).status).toBe(200);
      expect((await fetch(`${host.url}/api/missing`)).status).toBe(404);
      expect(lines).toEqual([]);
      const failed = await fetch(`${host.url}/api/echo/x`, { method: "DELETE" });
      expect(failed.status).toBe(500);
      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(entries.map((entry) => [entry.level, entry.msg])).toEqual([
        ["error", "unhandled error"],
        ["warn", "request"],
      ]);
      expect(entries[1]).toMatchObject({ method: "DELETE", path: "/api/echo/x", status: 500 });
    } finally {
      await host.close();
    }
  });
});

const echoRoute: RouteDefinition = {
  pattern: "/api/echo/:name",
  audience: "partner",
  methods: {
    GET: async (request, _context, meta) =>
      json(200, {
        name: meta.params.name,
        query: meta.url.searchParams.get("q"),
        accept: request.headers.get("Accept"),
        cookie: request.headers.get("cookie"),
        missing: request.headers.get("x-missing"),
        hasAccept: request.headers.has("accept"),
        socket: request.socketAddress,
      }),
    POST: async (request) => json(201, { received: await readJsonBody(request) }, { "X-Extra": "yes" }),
    DELETE: async () => {
      throw new Error("boom");
    },
  },
};

async function withHost(
  routes: RouteDefinition[],
  work: (url: string, lines: string[]) => Promise<void>,
): Promise<void> {
  const lines: string[] = [];
  const host = await startNodeHost(createApiHandler(routes, stubContext(lines)), {
    host: "127.0.0.1",
    port: 0,
  });
  try {
    await work(host.url, lines);
  } finally {
    await host.close();
  }
}

describe("requests and responses on the node:http host", () => {
  it("hands a handler the path parameters, query, headers and socket address", async () => {
    await withHost([echoRoute], async (url) => {
      const response = await fetch(`${url}/api/echo/a%20b?q=1`, {
        headers: { Accept: "application/json", Cookie: "x=1" },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(response.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{24}$/);
      expect(await response.json()).toEqual({
        name: "a b",
        query: "1",
        accept: "application/json",
        cookie: "x=1",
        missing: null,
        hasAccept: true,
        socket: "127.0.0.1",
      });
    });
  });

  it("reads a JSON body and writes the handler's status, headers and length", async () => {
    await withHost([echoRoute], async (url) => {
      const response = await fetch(`${url}/api/echo/x`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ amount: "5", note: "é" }),
      });
      const text = await response.text();
      expect(response.status).toBe(201);
      expect(response.headers.get("x-extra")).toBe("yes");
      expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
      expect(JSON.parse(text)).toEqual({ received: { amount: "5", note: "é" } });
    });
  });

  it("refuses a body over the limit with 413", async () => {
    await withHost([echoRoute], async (url) => {
      const response = await fetch(`${url}/api/echo/x`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ pad: "x".repeat(20_000) }),
      });
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({ success: false, code: "PAYLOAD_TOO_LARGE" });
    });
  });

  it("answers HEAD with the GET's headers and no body, OPTIONS with 204 and Allow", async () => {
    await withHost([echoRoute], async (url) => {
      const head = await fetch(`${url}/api/echo/x`, { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(head.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(await head.text()).toBe("");
      const options = await fetch(`${url}/api/echo/x`, { method: "OPTIONS" });
      expect(options.status).toBe(204);
      expect(options.headers.get("allow")).toBe("GET, POST, DELETE, HEAD, OPTIONS");
    });
  });

  it("turns a thrown error into a 500 envelope without internals, and logs it", async () => {
    await withHost([echoRoute], async (url, lines) => {
      const response = await fetch(`${url}/api/echo/x`, { method: "DELETE" });
      const body = (await response.json()) as Record<string, unknown>;
      expect(response.status).toBe(500);
      expect(body).toMatchObject({ success: false, requestId: response.headers.get("x-request-id") });
      expect(JSON.stringify(body)).not.toContain("boom");
      expect(lines.some((line) => line.includes("boom"))).toBe(true);
    });
  });

  it("answers 405 with Allow for a method the route lacks", async () => {
    await withHost([echoRoute], async (url) => {
      const response = await fetch(`${url}/api/echo/x`, { method: "PUT" });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, POST, DELETE, HEAD, OPTIONS");
      expect(await response.json()).toMatchObject({ success: false, code: "METHOD_NOT_ALLOWED" });
    });
  });
});

describe("the same handlers behind a WHATWG Request", () => {
  it("take a Request and give back a Response with the same status, headers and body", async () => {
    const handler = createApiHandler([echoRoute], stubContext([]));
    const request: ApiRequest = new Request("http://t/api/echo/x", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: '{"a":1}',
    });
    const response = toWebResponse(await handler(request));
    expect(response.status).toBe(201);
    expect(response.headers.get("x-extra")).toBe("yes");
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    expect(await response.json()).toEqual({ received: { a: 1 } });
    const options = toWebResponse(await handler(new Request("http://t/api/echo/x", { method: "OPTIONS" })));
    expect([options.status, options.body]).toEqual([204, null]);
  });
});

describe("request targets, remembered by URL text", () => {
  it("answer each URL as parsed afresh: same text same answer, another text its own, a bad host 404", async () => {
    const handler = createApiHandler([echoRoute], stubContext([]));
    const get = async (url: string, host = "t") =>
      handler({
        method: "GET",
        url,
        headers: new Headers({ host }),
        body: null,
        socketAddress: "127.0.0.1",
      });
    const bodyOf = async (url: string) =>
      JSON.parse(String((await get(url)).body)) as Record<string, unknown>;
    for (let round = 0; round < 3; round += 1) {
      expect(await bodyOf("http://t/api/echo/a%2Fb?q=1")).toMatchObject({ name: "a/b", query: "1" });
      expect(await bodyOf("http://t/api/echo/c?q=2")).toMatchObject({ name: "c", query: "2" });
      expect(await bodyOf("http://t/api/echo/../echo/d")).toMatchObject({ name: "d", query: null });
      expect((await get("http://t/api/echo/%E0%A4%A")).status).toBe(404);
      expect((await get("http://bad host/api/echo/a")).status).toBe(404);
    }
    // Different texts never share an answer: 2,500 names, more than are remembered, each its own.
    for (let index = 0; index < 2_500; index += 1) {
      expect((await bodyOf(`http://t/api/echo/n${index}`)).name).toBe(`n${index}`);
    }
  });
});

describe("the priority fee", () => {
  it("is a nearest-rank percentile of recent fees", () => {
    expect(percentileFee([], 75)).toBe(0);
    expect(percentileFee([0, 0, 0, 10], 75)).toBe(0);
    expect(percentileFee([5, 1, 9, 3], 75)).toBe(5);
    expect(percentileFee([5, 1, 9, 3], 100)).toBe(9);
  });
});
