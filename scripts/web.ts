// npm start / npm run dev's app: scripts/web-server.ts (the API's router before Next.js, one node:http
// server) with the context and the indexer built here from the environment.
// Usage: tsx scripts/web.ts [--dev] [--port N] [--hostname H]; defaults: PORT, HOST (lib/config.ts).
import { parseArgs } from "node:util";

import { createApiContext, openStoreAtBoot } from "../lib/api/context";
import { ConfigError, checkProcessConfig, processConfig } from "../lib/config";
import { describeEmbedFraming } from "../lib/web-config";
import { startWebServer } from "./web-server";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dev: { type: "boolean", default: false },
      port: { type: "string" },
      hostname: { type: "string" },
    },
  });
  if (process.env.NODE_ENV === undefined) {
    // As `next start` and `next dev` do; React and Next.js pick their builds by it.
    Object.assign(process.env, { NODE_ENV: values.dev ? "development" : "production" });
  }
  // The process's configuration, every slice checked before anything listens (instrumentation.ts, in
  // this same process, reads the same parsed copy).
  const all = checkProcessConfig(processConfig());
  const config = all.api;
  const hostname = values.hostname ?? config.host;
  const port = values.port === undefined ? config.port : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new ConfigError(`--port must be an integer 0–65535, got ${values.port ?? ""}`);
  }
  // The log says who may frame the embed.
  const embedFraming = describeEmbedFraming(all.web);
  // The indexer starts in instrumentation.ts (as under a bare `next start`), on this same context.
  const context = createApiContext(config);
  await openStoreAtBoot(context);
  const web = await startWebServer({
    dev: values.dev,
    hostname,
    port,
    context,
    metricsToken: all.metricsToken,
  });
  console.log(`web: ${values.dev ? "dev" : "production"} server on ${web.url}`);
  console.log(embedFraming);
  let stopping = false;
  const stop = (): void => {
    if (stopping) {
      return;
    }
    stopping = true;
    web
      .close()
      .then(() => context.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
