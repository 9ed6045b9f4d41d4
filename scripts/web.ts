// npm start / npm run dev's app: Next.js (pages and /api) behind a node:http server that owns the
// client's address. Route handlers never see the socket, and Next.js keeps any X-Forwarded-For a client
// sends, so without this a client could name itself a new IP per request and walk past the keyless
// per-IP limit. Here the header is rewritten to the one address resolved from the socket and the
// TRUSTED_PROXY_COUNT hops in front (lib/api/client-address.ts).
// Usage: tsx scripts/web.ts [--dev] [--port N] [--hostname H]; defaults: PORT, HOST (lib/config.ts).
import { createServer } from "node:http";
import { parseArgs } from "node:util";

import next from "next";

import { resolveClientAddress } from "../lib/api/client-address";
import { ConfigError, parseConfig } from "../lib/config";
import { WebConfigError, describeEmbedFraming, parseWebConfig } from "../lib/web/server-config";

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
  const config = parseConfig(process.env);
  const hostname = values.hostname ?? config.host;
  const port = values.port === undefined ? config.port : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new ConfigError(`--port must be an integer 0–65535, got ${values.port ?? ""}`);
  }
  // The pages' settings are checked before anything listens; the log says who may frame the embed.
  const embedFraming = describeEmbedFraming(parseWebConfig(process.env));
  const app = next({ dev: values.dev, hostname, port, dir: process.cwd() });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = createServer((request, response) => {
    const forwarded = request.headers["x-forwarded-for"];
    request.headers["x-forwarded-for"] = resolveClientAddress(
      request.socket.remoteAddress ?? "unknown",
      Array.isArray(forwarded) ? forwarded.join(", ") : forwarded,
      config.trustedProxyCount,
    );
    handle(request, response).catch((error: unknown) => {
      console.error("web: request failed", error);
      if (!response.headersSent) {
        response.writeHead(500, { "Content-Type": "text/plain" });
      }
      response.end();
    });
  });
  server.listen(port, hostname, () => {
    console.log(`web: ${values.dev ? "dev" : "production"} server on http://${hostname}:${port}`);
    console.log(embedFraming);
  });
  const stop = (): void => {
    // Finish what is in flight, then let Next.js release its workers.
    server.close(() => {
      app.close().finally(() => process.exit(0));
    });
    server.closeIdleConnections();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof WebConfigError ? error.message : error);
  process.exit(1);
});
