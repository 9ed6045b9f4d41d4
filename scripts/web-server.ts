// The server behind `npm start` and `npm run dev`: one node:http server whose /api is the process's
// API (the lean router, lib/api/default-context.ts) answered before Next.js, and Next.js for the
// pages. The API reads the client's address from the socket; Next.js gets X-Forwarded-For rewritten
// to the one address resolved from the socket and the TRUSTED_PROXY_COUNT hops in front, because
// Next.js keeps any header a client sends (lib/api/client-address.ts).
import { createServer, type IncomingMessage, type Server } from "node:http";

import next from "next";

import { resolveClientAddress } from "../lib/api/client-address";
import type { ApiContext } from "../lib/api/context";
import { installProcessApi } from "../lib/api/default-context";
import { matchRoute } from "../lib/api/router";
import { ROUTE_TABLE } from "../lib/api/routes";
import { BASELINE_SECURITY_HEADERS } from "../lib/csp";
import { answerOutsideRequests, closeDraining, createNodeListener, listenOn } from "../lib/api/node-host";
import { METRICS_PATH, routeLabel } from "../lib/server/http-metrics";
import { answerMetrics, observeHttpRequest } from "../lib/observability/metrics";

export interface WebServerOptions {
  dev: boolean;
  hostname: string;
  /** 0: a free port. */
  port: number;
  /** The API's context; installed as the process's before Next.js starts (its indexer uses it too). */
  context: ApiContext;
  /** METRICS_TOKEN: GET /metrics answers only its bearer; null: open. */
  metricsToken: string | null;
  dir?: string;
  /**
   * /api through Next.js's catch-all route file (app/api/[...path]/route.ts, the process's API behind
   * it), as a platform that runs Next.js alone serves it; by default this server answers /api itself.
   */
  apiThroughNext?: boolean;
}

export interface WebServer {
  server: Server;
  url: string;
  /** Finishes what is in flight (at most `graceMs` for the API), then releases Next.js. */
  close(graceMs?: number): Promise<void>;
}

/**
 * The methods the pages are served with (OPTIONS: /actions.json's CORS preflight; POST: whatever
 * Next.js answers it with). Any other method on a page path (TRACE, PUT, PROPFIND, …) is 405 here:
 * Next.js answers some of them with a 500; on a route of the API's (/actions.json), the API's 405.
 */
export const PAGE_METHODS: readonly string[] = ["GET", "HEAD", "OPTIONS", "POST"];

function isApiPath(incoming: IncomingMessage): boolean {
  const url = incoming.url ?? "/";
  return url === "/api" || url.startsWith("/api/") || url.startsWith("/api?");
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const api = installProcessApi(options.context);
  const apiListener = createNodeListener(api.handle);
  const app = next({
    dev: options.dev,
    hostname: options.hostname,
    port: options.port,
    dir: options.dir ?? process.cwd(),
  });
  await app.prepare();
  const handle = app.getRequestHandler();
  const trustedProxyCount = options.context.config.trustedProxyCount;
  const server = createServer((request, response) => {
    // The API's router counts its requests itself, under the route it matched.
    const apiPath = isApiPath(request);
    if (apiPath && options.apiThroughNext !== true) {
      apiListener(request, response);
      return;
    }
    const pathname = (request.url ?? "/").split(/[?#]/, 1)[0] ?? "/";
    // A route of the API's outside /api (/actions.json) refuses a method as the API does, with its JSON
    // 405 and the route's own Allow; Next.js's route file answers the methods the pages are served with.
    if (
      !apiPath &&
      !PAGE_METHODS.includes(request.method ?? "") &&
      matchRoute(ROUTE_TABLE, pathname) !== null
    ) {
      apiListener(request, response);
      return;
    }
    const started = performance.now();
    response.once("finish", () => {
      const seconds = (performance.now() - started) / 1000;
      observeHttpRequest(routeLabel(pathname), request.method ?? "GET", response.statusCode, seconds);
    });
    if (pathname === METRICS_PATH) {
      void answerMetrics(request.headers.authorization ?? null, options.metricsToken).then((answer) => {
        response.writeHead(answer.status, answer.headers).end(answer.body);
      });
      return;
    }
    if (!apiPath && !PAGE_METHODS.includes(request.method ?? "")) {
      response
        .writeHead(405, {
          ...BASELINE_SECURITY_HEADERS,
          Allow: PAGE_METHODS.join(", "),
          "Content-Type": "text/plain; charset=utf-8",
        })
        .end("Method Not Allowed\n");
      return;
    }
    const forwarded = request.headers["x-forwarded-for"];
    request.headers["x-forwarded-for"] = resolveClientAddress(
      request.socket.remoteAddress ?? "unknown",
      Array.isArray(forwarded) ? forwarded.join(", ") : forwarded,
      trustedProxyCount,
    );
    handle(request, response).catch((error: unknown) => {
      console.error("web: request failed", error);
      if (!response.headersSent) {
        response.writeHead(500, { "Content-Type": "text/plain" });
      }
      response.end();
    });
  });
  // CONNECT and unparsable requests, anywhere: the API's answers (405 with Allow, 404, 400).
  answerOutsideRequests(server, api.handle);
  const url = await listenOn(server, options.port, options.hostname);
  return {
    server,
    url,
    async close(graceMs = 10_000) {
      await closeDraining(server, apiListener, graceMs);
      await app.close();
    },
  };
}
