// The process's one API: the router and the context, built once from one module graph and kept on
// globalThis. scripts/web.ts installs it before Next.js starts and answers /api itself; Next.js route
// files (for platforms that run Next.js alone) and the indexer started by instrumentation.ts use the
// same instance. Each Next.js bundle has its own copy of lib/api, so a per-bundle router or context
// would throw one bundle's ApiError into another's `instanceof` (a 500 for every bad key, once).
import { processConfig } from "../config";
import { createApiContext, type ApiContext } from "./context";
import type { ApiRequest, ApiResponse } from "./handler";
import { toWebResponse } from "./responses";
import { HTTP_METHODS, createApiHandler, type HttpMethod } from "./router";
import { ROUTE_TABLE } from "./routes";

const KEY = Symbol.for("vault-gateway.process-api");

export interface ProcessApi {
  context: ApiContext;
  handle(request: ApiRequest): Promise<ApiResponse>;
}

interface Holder {
  [KEY]?: ProcessApi;
}

/** Makes `context` the process's API (a host that builds its own context installs it before use). */
export function installProcessApi(context: ApiContext): ProcessApi {
  const api: ProcessApi = { context, handle: createApiHandler(ROUTE_TABLE, context) };
  (globalThis as Holder)[KEY] = api;
  return api;
}

/** The installed API, or one built from the process's configuration by whichever bundle asks first. */
export function processApi(): ProcessApi {
  return (globalThis as Holder)[KEY] ?? installProcessApi(createApiContext(processConfig().api));
}

export function defaultApiContext(): ApiContext {
  return processApi().context;
}

export type NextRouteHandlers = Record<HttpMethod, (request: Request) => Promise<Response>>;

/**
 * Every method Next.js routes to a route file, answered by the process's API (which matches the path
 * itself): the one route file, app/api/[...path]/route.ts, re-exports these.
 */
export const NEXT_ROUTE_HANDLERS = Object.fromEntries(
  HTTP_METHODS.map((method) => [
    method,
    async (request: Request) => toWebResponse(await processApi().handle(request)),
  ]),
) as NextRouteHandlers;
