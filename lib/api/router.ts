// Routing by path pattern and method, shared by both hosts: Next.js route files (one route each) and
// the node:http host (the whole table). Every response gets X-Request-Id, one JSON log line and its
// place in the process's HTTP metrics under the route's pattern (the match already made, so no host
// matches the path again); unknown paths are 404 and other methods 405 with Allow, in the route's
// body style.
import { boundedMemo } from "../chain/bounded-memo";
import { BASELINE_SECURITY_HEADERS } from "../csp";
import { observeHttpRequest } from "../observability/metrics";
import type { ApiContext } from "./context";
import { ApiError, toApiError } from "./errors";
import {
  isStreamBody,
  type ApiHandler,
  type ApiRequest,
  type ApiResponse,
  type RequestMeta,
} from "./handler";
import { newRequestId } from "./logger";
import { ACTIONS_CORS_HEADERS } from "@solana/actions";

import { actionError, actionPreflight } from "./actions/with-action";
import { bareError, envelopeError } from "./responses";
import { PUBLIC_HEADERS } from "./with-public";

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface RouteDefinition {
  /** e.g. "/api/vault/:vault_id/deposit" */
  pattern: string;
  /**
   * Keyless routes answer with bare bodies and allow any origin; partner routes use the envelope;
   * Solana Actions routes answer the Actions specification's bodies and headers.
   */
  audience: "partner" | "public" | "actions";
  methods: Partial<Record<HttpMethod, ApiHandler>>;
}

export interface RouteMatch {
  route: RouteDefinition;
  params: Record<string, string>;
}

/** A path's segments, ignoring trailing slashes ("/api/oracle/" is "/api/oracle"). */
function segmentsOf(pathname: string): string[] {
  const trimmed = pathname.length > 1 && pathname.endsWith("/") ? pathname.replace(/\/+$/, "") : pathname;
  return trimmed.split("/");
}

/** A pattern split once: each segment a literal to equal, or (null) a parameter named in `names`. */
interface CompiledPattern {
  literals: readonly (string | null)[];
  names: readonly string[];
}

function compile(pattern: string): CompiledPattern {
  const parts = pattern.split("/");
  return {
    literals: parts.map((part) => (part.startsWith(":") ? null : part)),
    names: parts.filter((part) => part.startsWith(":")).map((part) => part.slice(1)),
  };
}

/**
 * Literal segments must be equal (all compared before anything is decoded or allocated); parameter
 * segments capture, decoded and non-empty.
 */
function matchCompiled(pattern: CompiledPattern, actual: readonly string[]): Record<string, string> | null {
  const { literals } = pattern;
  if (actual.length !== literals.length) {
    return null;
  }
  for (let index = 0; index < literals.length; index += 1) {
    const literal = literals[index];
    if (literal !== null && literal !== actual[index]) {
      return null;
    }
  }
  const params: Record<string, string> = {};
  let name = 0;
  for (let index = 0; index < literals.length; index += 1) {
    if (literals[index] !== null) {
      continue;
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(actual[index] ?? "");
    } catch {
      return null;
    }
    if (decoded === "") {
      return null;
    }
    params[pattern.names[name] ?? ""] = decoded;
    name += 1;
  }
  return params;
}

export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  return matchCompiled(compile(pattern), segmentsOf(pathname));
}

/** A table's routes compiled and grouped by segment count, each group in the table's order. */
type CompiledTable = ReadonlyMap<number, readonly { route: RouteDefinition; pattern: CompiledPattern }[]>;

const compiledTables = new WeakMap<readonly RouteDefinition[], CompiledTable>();

function compiledTable(routes: readonly RouteDefinition[]): CompiledTable {
  let table = compiledTables.get(routes);
  if (table === undefined) {
    const groups = new Map<number, { route: RouteDefinition; pattern: CompiledPattern }[]>();
    for (const route of routes) {
      const pattern = compile(route.pattern);
      const group = groups.get(pattern.literals.length) ?? [];
      group.push({ route, pattern });
      groups.set(pattern.literals.length, group);
    }
    table = groups;
    compiledTables.set(routes, table);
  }
  return table;
}

/** The first route of the table (in its order) whose pattern the path matches. */
export function matchRoute(routes: readonly RouteDefinition[], pathname: string): RouteMatch | null {
  const actual = segmentsOf(pathname);
  for (const { route, pattern } of compiledTable(routes).get(actual.length) ?? []) {
    const params = matchCompiled(pattern, actual);
    if (params !== null) {
      return { route, params };
    }
  }
  return null;
}

function allowed(route: RouteDefinition): string {
  const methods = Object.keys(route.methods);
  if (methods.includes("GET")) {
    methods.push("HEAD");
  }
  return [...new Set([...methods, "OPTIONS"])].join(", ");
}

function errorResponse(route: RouteDefinition | null, error: ApiError, requestId: string): ApiResponse {
  if (route?.audience === "actions") {
    return actionError(error, { ...ACTIONS_CORS_HEADERS, "Cache-Control": "no-store" });
  }
  return route?.audience === "public"
    ? bareError(error, requestId, { ...PUBLIC_HEADERS, "Cache-Control": "no-store" })
    : envelopeError(error, requestId);
}

async function dispatch(
  route: RouteDefinition,
  method: string,
  request: ApiRequest,
  context: ApiContext,
  meta: RequestMeta,
): Promise<ApiResponse> {
  if (method === "OPTIONS" && route.audience === "actions") {
    return actionPreflight(context, allowed(route));
  }
  if (method === "OPTIONS") {
    const headers: Record<string, string> = { Allow: allowed(route) };
    if (route.audience === "public") {
      Object.assign(headers, PUBLIC_HEADERS, {
        "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
        "Access-Control-Max-Age": "86400",
      });
    }
    return { status: 204, headers, body: null };
  }
  const handler = route.methods[(method === "HEAD" ? "GET" : method) as HttpMethod];
  if (handler === undefined) {
    meta.errorCode = "METHOD_NOT_ALLOWED";
    const response = errorResponse(
      route,
      new ApiError("METHOD_NOT_ALLOWED", `Method ${method} is not allowed here`),
      meta.requestId,
    );
    response.headers.Allow = allowed(route);
    return response;
  }
  const response = await handler(request, context, meta);
  if (method !== "HEAD") {
    return response;
  }
  if (isStreamBody(response.body)) {
    response.body.discard();
  }
  return { ...response, body: null };
}

/** The metrics label of a request no route answered: bounded, never the raw path. */
function unmatchedLabel(pathname: string): string {
  return pathname === "/api" || pathname.startsWith("/api/") ? "/api/(unmatched)" : "(unmatched)";
}

/** Runs one route for a request: the whole edge around a handler. */
export async function runRoute(
  route: RouteDefinition | null,
  params: Record<string, string>,
  request: ApiRequest,
  context: ApiContext,
  url: URL = new URL(request.url),
): Promise<ApiResponse> {
  const startedAt = performance.now();
  const meta: RequestMeta = { requestId: newRequestId(), params, url };
  const method = request.method.toUpperCase();
  let response: ApiResponse;
  try {
    if (route === null) {
      meta.errorCode = "NOT_FOUND";
      response = errorResponse(null, new ApiError("NOT_FOUND", "No such endpoint"), meta.requestId);
    } else {
      response = await dispatch(route, method, request, context, meta);
    }
  } catch (thrown) {
    const { error } = toApiError(thrown);
    context.log.log("error", "unhandled error", {
      requestId: meta.requestId,
      error: thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown),
    });
    meta.errorCode = error.code;
    response = errorResponse(route, error, meta.requestId);
  }
  // The web server's baseline (nosniff, referrer policy), on every API response of every host.
  Object.assign(response.headers, BASELINE_SECURITY_HEADERS, { "X-Request-Id": meta.requestId });
  // Only what a route marks cacheable (the keyless reads, the document) may be kept by anyone.
  response.headers["Cache-Control"] ??= "no-store";
  const durationMs = performance.now() - startedAt;
  observeHttpRequest(
    route?.pattern ?? unmatchedLabel(url.pathname),
    method,
    response.status,
    durationMs / 1000,
  );
  const level = response.status >= 500 ? "warn" : context.config.requestLogLevel;
  if (!context.log.enabled(level)) {
    return response;
  }
  context.log.log(level, "request", {
    requestId: meta.requestId,
    method,
    path: url.pathname,
    status: response.status,
    durationMs: Math.round(durationMs * 10) / 10,
    ...(meta.keyId === undefined ? {} : { keyId: meta.keyId }),
    ...(meta.errorCode === undefined ? {} : { code: meta.errorCode }),
  });
  return response;
}

/** A request target parsed and matched: the URL, and the route it names with its parameters. */
interface Target {
  url: URL;
  match: RouteMatch | null;
}

/** Request targets remembered, by URL text: most requests repeat a few (a vault's reads, the oracle). */
const REMEMBERED_TARGETS = 2_000;

/**
 * The whole table behind one function (the node:http host, tests). A URL text is parsed and matched
 * once while it is remembered; the URL and parameters handed to handlers are shared between requests
 * of the same text, and read only.
 */
export function createApiHandler(
  routes: readonly RouteDefinition[],
  context: ApiContext,
): (request: ApiRequest) => Promise<ApiResponse> {
  const targetOf = boundedMemo((text): Target | null => {
    try {
      const url = new URL(text);
      return { url, match: matchRoute(routes, url.pathname) };
    } catch {
      // A Host header that makes no URL.
      return null;
    }
  }, REMEMBERED_TARGETS);
  return (request) => {
    // Requests are coming: watch the chain's genesis so caches start over if the chain is replaced.
    context.genesis.watch();
    const target = targetOf(request.url);
    if (target === null) {
      // No route matches a URL that does not parse.
      return runRoute(null, {}, request, context, new URL("http://localhost/"));
    }
    const { url, match } = target;
    return runRoute(match?.route ?? null, match?.params ?? {}, request, context, url);
  };
}
