// The hooks that put HTTP traffic beside the API's into the process's metrics (the API's router counts
// its own requests under their route patterns): a page's route label from its path (never the raw
// path, so label values stay bounded) and GET /metrics on the lean API host.
import type { ApiRequest, ApiResponse } from "../api/handler";
import { matchRoute } from "../api/router";
import { answerMetrics, observeHttpRequest } from "../observability/metrics";

export const METRICS_PATH = "/metrics";

const PAGE_PATTERNS = ["/", "/vault/:id", "/embed/vault/:id", "/portfolio", "/activity"].map((pattern) => ({
  pattern,
  methods: {},
  audience: "public" as const,
}));

/** The pattern a page's path belongs to, or a bounded catch-all (API paths are labelled by the router). */
export function routeLabel(pathname: string): string {
  if (pathname === METRICS_PATH) {
    return METRICS_PATH;
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
 * Wraps an API handler: GET /metrics answered here (behind `metricsToken` when not null) and counted
 * with its latency; every other request goes to the handler, whose router counts it.
 */
export function withMetrics(
  handler: (request: ApiRequest) => Promise<ApiResponse>,
  metricsToken: string | null,
): (request: ApiRequest) => Promise<ApiResponse> {
  return async (request) => {
    const method = request.method.toUpperCase();
    if (pathnameOf(request.url) !== METRICS_PATH || (method !== "GET" && method !== "HEAD")) {
      return handler(request);
    }
    const started = performance.now();
    const answer = await answerMetrics(request.headers.get("authorization"), metricsToken);
    observeHttpRequest(METRICS_PATH, method, answer.status, (performance.now() - started) / 1000);
    return { status: answer.status, headers: answer.headers, body: method === "HEAD" ? null : answer.body };
  };
}
