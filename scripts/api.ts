// npm run api: the partner API alone on the lean node:http host (no Next.js), from the same handlers,
// and GET /metrics (Prometheus text; METRICS_TOKEN guards it when set).
// Variables: see lib/config.ts (HOST, PORT, RPC_URL, DATABASE_URL, REDIS_URL, …). SIGTERM/SIGINT
// finish in-flight requests before exiting.
import { parseCommandLineOrExit } from "../lib/cli/args";
import { ConfigError, checkProcessConfig, processConfig } from "../lib/config";
import { configureWebhooks, createApiContext, openStoreAtBoot } from "../lib/api/context";
import { startNodeHost } from "../lib/api/node-host";
import { createApiHandler } from "../lib/api/router";
import { ROUTE_TABLE } from "../lib/api/routes";
import { createIndexer } from "../lib/server/indexer";
import { withMetrics } from "../lib/server/http-metrics";

async function main(): Promise<void> {
  parseCommandLineOrExit(
    "api",
    "Usage: npm run api   (no flags; settings: HOST, PORT, RPC_URL, DATABASE_URL, REDIS_URL, … in lib/config.ts)",
    process.argv.slice(2),
    {},
  );
  if (process.env.NODE_ENV === undefined) {
    // A deployed server, as `npm start` is: webhooks must be https (and public, as everywhere).
    Object.assign(process.env, { NODE_ENV: "production" });
  }
  const all = checkProcessConfig(processConfig());
  const config = all.api;
  const context = createApiContext(config);
  await openStoreAtBoot(context);
  const indexerSettings = all.indexer;
  const webhooks = configureWebhooks(context, all.webhooks);
  // Every instance may start one; the advisory lock lets exactly one of them index at a time.
  const indexer = indexerSettings.enabled
    ? createIndexer(context, { intervalMs: indexerSettings.intervalMs, wsUrl: indexerSettings.wsUrl })
    : null;
  indexer?.start();
  // Every instance may run a delivery worker; SKIP LOCKED hands each delivery to one of them.
  if (webhooks.settings.worker) {
    webhooks.worker.start();
  }
  const host = await startNodeHost(withMetrics(createApiHandler(ROUTE_TABLE, context), all.metricsToken), {
    host: config.host,
    port: config.port,
  });
  context.log.log("info", "api listening", {
    url: host.url,
    store: context.store.kind,
    redis: config.redisUrl !== null,
  });
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) {
      return;
    }
    stopping = true;
    context.log.log("info", "api stopping", { signal });
    host
      .close()
      .then(() => indexer?.stop())
      .then(() => webhooks.worker.stop())
      .then(() => context.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
