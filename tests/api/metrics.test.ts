// GET /metrics on the lean API host, scraped and parsed as Prometheus would: requests counted under
// their route pattern (never the raw path) with latency histograms, RPC calls by method, the
// blockhash cache's age, the indexer's lag and each vault's last strike, and METRICS_TOKEN's guard.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startNodeHost, type NodeHost } from "../../lib/api/node-host";
import { createApiHandler } from "../../lib/api/router";
import { ROUTE_TABLE } from "../../lib/api/routes";
import { createIndexer } from "../../lib/server/indexer";
import { routeLabel, withMetrics } from "../../lib/server/http-metrics";
import { answerMetrics, processMetrics } from "../../lib/observability/metrics";
import { waitFor } from "../../localnet/testing";
import { family, sampleValue, samples, scrapeMetrics } from "../metrics-scrape";
import { startApiHarness, type ApiHarness } from "./harness";

let harness: ApiHarness;
let host: NodeHost;

beforeAll(async () => {
  harness = await startApiHarness();
  host = await startNodeHost(withMetrics(createApiHandler(ROUTE_TABLE, harness.context), null), {
    host: "127.0.0.1",
    port: 0,
  });
});

afterAll(async () => {
  await host.close(1_000);
  await harness.close();
});

describe("GET /metrics", () => {
  it("counts requests by route pattern and status, with latency, and RPC calls by method", async () => {
    const { secret } = await harness.createKey({ scope: "read" });
    // The vault reads serve the indexer's rows.
    // A young chain is still at slot 0 (a loaded machine starts the test within its first slot): the
    // indexed-slot gauge below would then truthfully say 0.
    await waitFor(
      async () => ((await harness.connection.getSlot("confirmed")) > 0 ? true : undefined),
      30_000,
    );
    // On this run's own schema: the "public" schema's lock may be held by another process's indexer.
    const indexer = createIndexer(harness.context, { intervalMs: 60_000, schema: harness.schema });
    expect(await indexer.runOnce()).not.toBeNull();
    await indexer.stop();
    await harness.context.chain.recentBlockhash();
    const before = await scrapeMetrics(`${host.url}/metrics`);
    const vaultRoute = { route: "/api/vault/:vault_id", method: "GET", status: "200" };
    const countBefore = sampleValue(before, "http_requests_total", vaultRoute) ?? 0;
    for (const vault of [harness.vaultId, harness.flexVaultId]) {
      const response = await fetch(`${host.url}/api/vault/${vault}`, {
        headers: { Authorization: `Bearer ${secret}` },
      });
      expect(response.status).toBe(200);
    }
    expect((await fetch(`${host.url}/api/vault/${harness.vaultId}/nope`)).status).toBe(404);
    // The indexed slot is set as the run ends; its lag is read with one more RPC call in the background.
    const scrape = await scrapeMetrics(`${host.url}/metrics`);
    expect(scrape.status).toBe(200);
    expect(scrape.contentType).toContain("text/plain");
    expect(sampleValue(scrape, "http_requests_total", vaultRoute)).toBe(countBefore + 2);
    expect(
      sampleValue(scrape, "http_requests_total", { route: "/api/(unmatched)", status: "404" }),
    ).toBeGreaterThan(0);
    // No raw path becomes a label value.
    const routes = samples(scrape, "http_requests_total").map((sample) => sample.labels?.route ?? "");
    expect(routes.some((route) => route.includes(harness.vaultId))).toBe(false);
    // parse-prometheus-text-format folds a labelled histogram's buckets into one (prom2json's shape
    // keeps count and sum only for unlabelled histograms), so the per-route count is read from the
    // registry itself.
    expect(family(scrape, "http_request_duration_seconds")?.type).toBe("HISTOGRAM");
    const histogram = (await processMetrics().httpDuration.get()).values.find(
      (value) =>
        value.metricName === "http_request_duration_seconds_count" &&
        value.labels.route === "/api/vault/:vault_id",
    );
    expect(histogram?.value).toBeGreaterThanOrEqual(2);

    expect(
      sampleValue(scrape, "solana_rpc_calls_total", { method: "getProgramAccounts", outcome: "ok" }),
    ).toBeGreaterThan(0);
    expect(family(scrape, "solana_rpc_call_duration_seconds")?.type).toBe("HISTOGRAM");
    const age = sampleValue(scrape, "blockhash_cache_age_seconds");
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(60);
    expect(sampleValue(scrape, "indexer_lag_slots")).toBeGreaterThanOrEqual(0);
    expect(sampleValue(scrape, "indexer_indexed_slot")).toBeGreaterThan(0);
    // The demo vaults have had no strike yet at genesis: their gauge says 0, and it is there per vault.
    expect(
      sampleValue(scrape, "vault_nav_updated_timestamp_seconds", { vault: harness.vaultId }),
    ).toBeGreaterThanOrEqual(0);
    expect(sampleValue(scrape, "process_resident_memory_bytes")).toBeGreaterThan(0);
  });

  it("counts RPC failures as errors", async () => {
    await expect(harness.context.rpc.call("noSuchMethod", [])).rejects.toThrow();
    const scrape = await scrapeMetrics(`${host.url}/metrics`);
    expect(
      sampleValue(scrape, "solana_rpc_calls_total", { method: "noSuchMethod", outcome: "rpc_error" }),
    ).toBe(1);
  });

  it("answers only the METRICS_TOKEN bearer when the token is set", async () => {
    const refused = await answerMetrics(null, "s3cret-token");
    expect(refused.status).toBe(401);
    expect(refused.headers["WWW-Authenticate"]).toContain("Bearer");
    expect((await answerMetrics("Bearer wrong-token!", "s3cret-token")).status).toBe(401);
    expect((await answerMetrics("Bearer s3cret-token", "s3cret-token")).status).toBe(200);
    expect((await answerMetrics(null, null)).status).toBe(200);
  });
});

describe("the router's labels", () => {
  it.each([
    ["/api/vault/abc/deposit", "POST", "/api/vault/:vault_id/deposit", "401"],
    ["/api/vaults/", "GET", "/api/vaults", "401"],
    ["/api/zzz", "GET", "/api/(unmatched)", "404"],
    ["/wp-admin.php", "GET", "(unmatched)", "404"],
  ])("%s (%s) is counted as %s", async (path, method, route, status) => {
    const labels = { route, method, status };
    const before =
      sampleValue(await scrapeMetrics(`${host.url}/metrics`), "http_requests_total", labels) ?? 0;
    const response = await fetch(`${host.url}${path}`, { method });
    expect(String(response.status)).toBe(status);
    const after = await scrapeMetrics(`${host.url}/metrics`);
    expect(sampleValue(after, "http_requests_total", labels)).toBe(before + 1);
  });
});

describe("routeLabel (the pages' paths on npm start's server)", () => {
  it.each([
    ["/vault/5wmi", "/vault/:id"],
    ["/embed/vault/5wmi", "/embed/vault/:id"],
    ["/_next/static/chunks/a.js", "/_next/static"],
    ["/wp-admin.php", "(unmatched)"],
    ["/metrics", "/metrics"],
  ])("%s is %s", (path, label) => {
    expect(routeLabel(path)).toBe(label);
  });
});
