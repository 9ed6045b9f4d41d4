// GET /api/health, the OpenAPI document, unknown paths and the request id every response carries.
import { describe, expect, it } from "vitest";

import { dataOf } from "../harness";
import { endpointSuite, errorBody, expectError } from "./setup";

const api = endpointSuite();

describe("operations", () => {
  it("serves health with the chain's slot and lag, the store and Redis", async () => {
    const health = await api.harness.request("GET", "/api/health");
    expect(health.status).toBe(200);
    expect(dataOf(health)).toMatchObject({
      status: "ok",
      chain: { ok: true },
      store: { ok: true },
      redis: { ok: true },
    });
  });

  it("probes the chain and the store at most once a second, however often it is asked", async () => {
    const { context } = api.harness;
    // Past the last check's second (the test above), so the burst below starts one check.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const getSlot = context.chain.getSlot.bind(context.chain);
    const query = context.store.query.bind(context.store);
    let slotProbes = 0;
    let storeProbes = 0;
    context.chain.getSlot = () => {
      slotProbes += 1;
      return getSlot();
    };
    context.store.query = ((text: string, params?: readonly unknown[]) => {
      if (text === "SELECT 1 AS ok") {
        storeProbes += 1;
      }
      return query(text, params);
    }) as typeof context.store.query;
    try {
      const startedAt = performance.now();
      const answers = await Promise.all(
        Array.from({ length: 25 }, () => api.harness.request("GET", "/api/health")),
      );
      // Once per second the burst spanned: one on any machine quick enough to answer 25 within a
      // second, a few more on a busy one, never one per request.
      const allowed = Math.floor((performance.now() - startedAt) / 1000) + 1;
      expect(answers.map((answer) => answer.status)).toEqual(Array(25).fill(200));
      expect(slotProbes).toBeGreaterThanOrEqual(1);
      expect(slotProbes).toBeLessThanOrEqual(allowed);
      expect(storeProbes).toBeGreaterThanOrEqual(1);
      expect(storeProbes).toBeLessThanOrEqual(allowed);
    } finally {
      context.chain.getSlot = getSlot;
      context.store.query = query;
    }
  });

  it("shows the checks' details only with the metrics token when METRICS_TOKEN is set", async () => {
    const { context } = api.harness;
    const config = context.config;
    context.config = { ...config, metricsToken: "health-scrape-token" };
    try {
      const bare = await api.harness.request("GET", "/api/health");
      expect(bare.status).toBe(200);
      expect(bare.body).toEqual({ success: true, data: { status: "ok" } });
      const wrong = await api.harness.request("GET", "/api/health", {
        headers: { Authorization: "Bearer not-the-token" },
      });
      expect(wrong.body).toEqual({ success: true, data: { status: "ok" } });
      const detailed = await api.harness.request("GET", "/api/health", {
        headers: { Authorization: "Bearer health-scrape-token" },
      });
      expect(dataOf(detailed)).toMatchObject({ status: "ok", chain: { ok: true }, store: { ok: true } });
    } finally {
      context.config = config;
    }
  });

  it("serves the OpenAPI document and a request id on every response", async () => {
    const document = await api.harness.request("GET", "/api/openapi.json");
    expect((document.body as { openapi: string }).openapi).toBe("3.1.0");
    expect(document.headers.get("x-request-id")).toMatch(/^req_/);
    const missing = await api.harness.request("GET", "/api/nope");
    expectError(missing, errorBody(404, "NOT_FOUND", "No such endpoint"));
    expect(missing.headers.get("x-request-id")).toBe((missing.body as { requestId: string }).requestId);
  });

  it("serves the API reference page and its renderer from this server, never a CDN", async () => {
    const page = await api.harness.request("GET", "/api/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? "");
    expect(sources).toEqual([
      "/icon.svg",
      "/api/docs/swagger-ui.css",
      "/api/openapi.json",
      "/api/docs/swagger-ui-bundle.js",
      "/api/docs/start.js",
    ]);
    for (const [path, type] of [
      ["/api/docs/swagger-ui-bundle.js", "text/javascript"],
      ["/api/docs/swagger-ui.css", "text/css"],
      ["/api/docs/start.js", "text/javascript"],
    ] as const) {
      const asset = await api.harness.request("GET", path);
      expect(asset.status, path).toBe(200);
      expect(asset.headers.get("content-type"), path).toBe(`${type}; charset=utf-8`);
      expect(asset.text.length, path).toBeGreaterThan(100);
    }
    const start = await api.harness.request("GET", "/api/docs/start.js");
    expect(start.text).toContain('url: "/api/openapi.json"');
  });
});
