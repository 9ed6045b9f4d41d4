// The route table, derived from the endpoint definitions (endpoints.ts): one route per path with its
// methods' handlers. Both hosts serve it: node:http (npm run api, and /api under npm start and npm run
// dev) and the Next.js route files through the process's API (default-context.ts).
import type { EndpointDefinition } from "./endpoint";
import { ENDPOINTS } from "./endpoints";
import { EVENT_STREAM_ROUTE } from "./events/event-stream";
import type { HttpMethod, RouteDefinition } from "./router";

export function routeTable(endpoints: readonly EndpointDefinition[]): RouteDefinition[] {
  const byPath = new Map<string, RouteDefinition>();
  for (const endpoint of endpoints) {
    const route = byPath.get(endpoint.path) ?? {
      pattern: endpoint.path,
      // Keyless routes answer with bare bodies and allow any origin; ops routes write their own.
      audience:
        endpoint.audience === "partner" || endpoint.audience === "actions" ? endpoint.audience : "public",
      methods: {},
    };
    if (route.methods[endpoint.method as HttpMethod] !== undefined) {
      throw new Error(`Two endpoints define ${endpoint.method} ${endpoint.path}`);
    }
    route.methods[endpoint.method as HttpMethod] = endpoint.handler;
    byPath.set(endpoint.path, route);
  }
  return [...byPath.values()];
}

/**
 * Routes for the app's own pages alone (the page session's event stream): not endpoints, so neither
 * in the OpenAPI document nor in the partner security suite.
 */
export const FIRST_PARTY_ROUTES: readonly RouteDefinition[] = [EVENT_STREAM_ROUTE];

export const ROUTE_TABLE: readonly RouteDefinition[] = [...routeTable(ENDPOINTS), ...FIRST_PARTY_ROUTES];
