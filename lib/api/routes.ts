// The route table, derived from the endpoint definitions (endpoints.ts): one route per path with its
// methods' handlers. Both hosts serve it: node:http (npm run api, and /api under npm start and npm run
// dev) and the Next.js route files through the process's API (default-context.ts).
import type { EndpointDefinition } from "./endpoint";
import { ENDPOINTS } from "./endpoints";
import type { HttpMethod, RouteDefinition } from "./router";

export function routeTable(endpoints: readonly EndpointDefinition[]): RouteDefinition[] {
  const byPath = new Map<string, RouteDefinition>();
  for (const endpoint of endpoints) {
    const route = byPath.get(endpoint.path) ?? {
      pattern: endpoint.path,
      // Keyless routes answer with bare bodies and allow any origin; ops routes write their own.
      audience: endpoint.audience === "partner" ? "partner" : "public",
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

export const ROUTE_TABLE: readonly RouteDefinition[] = routeTable(ENDPOINTS);
