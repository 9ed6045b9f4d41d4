// npm run bench:web — the vault page's first-load JavaScript (gzip) and its Largest Contentful Paint
// in headless Chromium on localhost, against a production build (`next build`, skipped with
// BENCH_SKIP_BUILD=1) served by `npm start`'s server beside a local chain. Targets: ≤ 250 KB, LCP ≤ 1.0 s.
//
// First-load JS is what Next.js counts: the scripts the page's HTML references (not the `nomodule`
// polyfills modern browsers skip), each gzipped as the production server sends it. The JavaScript loaded after hydration (chain reader, wallet adapters) is
// reported separately. LCP is the median of fresh browser contexts (empty cache, warm server).
import { createWriteStream } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

import { parseCommandLineOrExit } from "../lib/cli/args";
import { launchChromium } from "../e2e/support/browser";
import { REPO_ROOT, appEnv, buildApp, freePort, startApp, startLocalnet, stop } from "../e2e/support/world";

const FIRST_LOAD_TARGET_KB = 250;
const LCP_TARGET_MS = 1_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

async function gzipSize(url: string): Promise<number> {
  const response = await fetch(url);
  return gzipSync(Buffer.from(await response.arrayBuffer())).length;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

interface LcpSample {
  lcpMs: number;
  element: string;
  lateJsBytes: number;
}

async function main(): Promise<void> {
  parseCommandLineOrExit(
    "bench:web",
    "Usage: npm run bench:web   (no flags; settings: BENCH_RUNS, BENCH_SKIP_BUILD=1)",
    process.argv.slice(2),
    {},
  );
  const log = createWriteStream(join(REPO_ROOT, ".next-bench-web.log"));
  const localnet = await startLocalnet({
    slotMs: 400,
    navIntervalSeconds: 60,
    stageIntervalSeconds: 20,
    stageMaxShares: 25_000_000_000_000n,
    log,
  });
  const prime = localnet.vaults[0];
  if (prime === undefined) {
    throw new Error("The localnet has no demo vault");
  }
  const port = await freePort();
  const env = appEnv("start", {
    RPC_URL: localnet.rpcUrl,
    LOCALNET_ADDRESSES_FILE: localnet.addressesFile,
    DATABASE_URL: "",
    REDIS_URL: "",
    PGLITE_DIR: ":memory:",
    LOG_LEVEL: "warn",
  });
  let app;
  try {
    if (process.env.BENCH_SKIP_BUILD !== "1") {
      console.log("bench:web: next build …");
      buildApp(env);
    }
    app = await startApp("start", port, env, log);
  } catch (error) {
    await stop(localnet.child);
    throw error;
  }
  const origin = `http://127.0.0.1:${port}`;
  const pageUrl = `${origin}/vault/${prime.id}`;
  try {
    // Warm the server (first render compiles nothing in production, but opens the chain connections).
    await (await fetch(pageUrl)).text();
    const html = await (await fetch(pageUrl)).text();
    // Legacy-browser polyfills (`nomodule`) are never fetched by a modern browser: not counted.
    const scripts = [...html.matchAll(/<script([^>]*)>/g)]
      .map((match) => match[1] ?? "")
      .filter((attributes) => !/\bnomodule\b/i.test(attributes))
      .map((attributes) => /\ssrc="([^"]+)"/.exec(attributes)?.[1] ?? "")
      .filter((source) => source.endsWith(".js") || source.includes(".js?"));
    const sizes = await Promise.all(scripts.map((source) => gzipSize(new URL(source, origin).href)));
    const firstLoad = sizes.reduce((sum, size) => sum + size, 0);

    const browser = await launchChromium();
    const samples: LcpSample[] = [];
    try {
      for (let run = 0; run < RUNS + 1; run += 1) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const page = await context.newPage();
        const initial = new Set(scripts.map((source) => new URL(source, origin).pathname));
        let lateJsBytes = 0;
        page.on("response", (response) => {
          const url = new URL(response.url());
          if (url.origin === origin && url.pathname.endsWith(".js") && !initial.has(url.pathname)) {
            void response
              .body()
              .then((body) => {
                lateJsBytes += gzipSync(body).length;
              })
              .catch(() => undefined);
          }
        });
        await page.goto(pageUrl, { waitUntil: "load" });
        await page.getByTestId("vault-name").waitFor();
        await page.waitForTimeout(1_500);
        const lcp = await page.evaluate(
          () =>
            new Promise<{ time: number; element: string }>((resolveEntry) => {
              new PerformanceObserver((list) => {
                const entries = list.getEntries() as (PerformanceEntry & { element?: Element | null })[];
                const last = entries.at(-1);
                const element = last?.element;
                resolveEntry({
                  time: last?.startTime ?? Number.NaN,
                  element:
                    element === null || element === undefined
                      ? "?"
                      : `<${element.tagName.toLowerCase()}> "${(element.textContent ?? "").trim().slice(0, 40)}"`,
                });
              }).observe({ type: "largest-contentful-paint", buffered: true });
            }),
        );
        await context.close();
        // The first run warms Chromium itself; it is not counted.
        if (run > 0) {
          samples.push({ lcpMs: lcp.time, element: lcp.element, lateJsBytes });
        }
      }
    } finally {
      await browser.close();
    }

    const lcpMedian = median(samples.map((sample) => sample.lcpMs));
    const late = median(samples.map((sample) => sample.lateJsBytes));
    const lines = [
      `bench:web — ${pageUrl.replace(prime.id, "{USDC Prime}")} (npm start, production build)`,
      `  first-load JS (gzip): ${kb(firstLoad)} in ${scripts.length} scripts  (target ≤ ${FIRST_LOAD_TARGET_KB} KB) ${firstLoad <= FIRST_LOAD_TARGET_KB * 1024 ? "OK" : "OVER"}`,
      `  loaded after first paint (chain reader, wallet adapters; gzip): ${kb(late)}`,
      `  LCP, median of ${samples.length} fresh contexts: ${lcpMedian.toFixed(0)} ms  (target ≤ ${LCP_TARGET_MS} ms) ${lcpMedian <= LCP_TARGET_MS ? "OK" : "OVER"}`,
      `  LCP runs: ${samples.map((sample) => sample.lcpMs.toFixed(0)).join(", ")} ms; element ${samples.at(-1)?.element ?? "?"}`,
    ];
    console.log(lines.join("\n"));
    process.exitCode = firstLoad <= FIRST_LOAD_TARGET_KB * 1024 && lcpMedian <= LCP_TARGET_MS ? 0 : 1;
  } finally {
    await stop(app);
    await stop(localnet.child);
    log.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
