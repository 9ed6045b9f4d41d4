// The node:http host and the request log, with stub routes: graceful shutdown finishes what is in
// flight, every response carries its request id, and each request is one JSON log line.
import { describe, expect, it } from "vitest";

import { percentileFee } from "../chain/blockhash";
import type { ApiContext } from "./context";
import { createLogger } from "./logger";
import { startNodeHost } from "./node-host";
import { json } from "./responses";
import { createApiHandler, type RouteDefinition } from "./router";

function stubContext(lines: string[]): ApiContext {
  // The router only logs through the context; the stub routes use nothing else.
  return { log: createLogger("info", (line) => lines.push(line)) } as unknown as ApiContext;
}

const slowRoute: RouteDefinition = {
  pattern: "/api/slow",
  audience: "partner",
  methods: {
    GET: async () => {
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
    const inFlight = fetch(`${host.url}/api/slow`);
    await new Promise((resolve) => setTimeout(resolve, 50));
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
});

describe("the priority fee", () => {
  it("is a nearest-rank percentile of recent fees", () => {
    expect(percentileFee([], 75)).toBe(0);
    expect(percentileFee([0, 0, 0, 10], 75)).toBe(0);
    expect(percentileFee([5, 1, 9, 3], 75)).toBe(5);
    expect(percentileFee([5, 1, 9, 3], 100)).toBe(9);
  });
});
