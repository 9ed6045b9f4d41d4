// The hooks that put HTTP traffic into the process's metrics: a route label from the path (the API's
// route pattern or the page's, never the raw path, so label values stay bounded) and a wrapper for the
// lean API host's handler that serves GET /metrics and counts every other request.
import type { ApiRequest, ApiResponse } from "../api/handler";
import { matchRoute } from "../api/router";
import { ROUTE_TABLE } from "../api/routes";
import { answerMetrics, observeHttpRequest } from "../observability/metrics";

export const METRICS_PATH = "/metrics";

const PAGE_PATTERNS = ["/", "/vault/:id", "/embed/vault/:id", "/portfolio", "/activity"].map((pattern) => ({
  pattern,
  methods: {},
  audience: "public" as const,
}));

/** The route pattern a path belongs to: an API route's, a page's, or a bounded catch-all. */
export function routeLabel(pathname: string): string {
  if (pathname === METRICS_PATH) {
    return METRICS_PATH;
  }
  if (pathname === "/api" || pathname.startsWith("/api/")) {
    return matchRoute(ROUTE_TABLE, pathname)?.route.pattern ?? "/api/(unmatched)";
  }
  if (pathname.startsWith("/_next/static/")) {
    return "/_next/static";
  }
  if (pathname.startsWith("/_next/")) {
    return "/_next";
  }
  return matchRoute(PAGE_PATTERNS, pathname)?.route.pattern ?? "(unmatched)";
}

export function pathnameOf(url: string): string {
  const start = url.indexOf("://");
  const pathStart = start === -1 ? 0 : url.indexOf("/", start + 3);
  if (pathStart === -1) {
    return "/";
  }
  const end = url.search(/[?#]/);
  return url.slice(pathStart, end === -1 ? undefined : end);
}

/**
 * Wraps an API handler: GET /metrics answered here (behind `metricsToken` when not null), every request
 * counted with its latency.
 */
export function withMetrics(
  handler: (request: ApiRequest) => Promise<ApiResponse>,
  metricsToken: string | null,
): (request: ApiRequest) => Promise<ApiResponse> {
  return async (request) => {
    const started = performance.now();
    const pathname = pathnameOf(request.url);
    const method = request.method.toUpperCase();
    let response: ApiResponse;
    if (pathname === METRICS_PATH && (method === "GET" || method === "HEAD")) {
      const answer = await answerMetrics(request.headers.get("authorization"), metricsToken);
      response = {
        status: answer.status,
        headers: answer.headers,
        body: method === "HEAD" ? null : answer.body,
      };
    } else {
      response = await handler(request);
    }
    observeHttpRequest(routeLabel(pathname), method, response.status, (performance.now() - started) / 1000);
    return response;
  };
}
