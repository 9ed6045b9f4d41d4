// The process-wide context for hosts that import handlers directly (Next.js route files): built on
// first use from the environment and kept on globalThis, so a dev server's module reloads share one
// set of connections.
import { parseConfig } from "../config";
import { createApiContext, type ApiContext } from "./context";
import { toWebResponse } from "./responses";
import { HTTP_METHODS, matchPath, runRoute, type HttpMethod, type RouteDefinition } from "./router";

const KEY = Symbol.for("vault-gateway.api-context");

interface Holder {
  [KEY]?: ApiContext;
}

export function defaultApiContext(): ApiContext {
  const holder = globalThis as Holder;
  holder[KEY] ??= createApiContext(parseConfig(process.env));
  return holder[KEY];
}

export type BoundRoute = Record<HttpMethod, (request: Request) => Promise<Response>>;

/** One function per HTTP method, each running the route under the default context. */
export function bindRoute(route: RouteDefinition): BoundRoute {
  const handle = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const params = matchPath(route.pattern, url.pathname) ?? {};
    return toWebResponse(await runRoute(route, params, request, defaultApiContext(), url));
  };
  return Object.fromEntries(HTTP_METHODS.map((method) => [method, handle])) as BoundRoute;
}
