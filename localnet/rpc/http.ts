// JSON-RPC 2.0 over HTTP, as a validator serves it on :8899: single and batch requests, notifications,
// protocol errors (-32700, -32600, -32601, -32602), a 50 kB body limit, open CORS, GET /health, and
// room for extra routes (the faucet). A bad request gets an error object, never a crash or a hang.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

import { stringifyJson } from "../json";
import { RpcError, internalError, invalidRequest, methodNotFound, parseError } from "./errors";
import { rpcMethods, type RpcContext } from "./methods";

/** A validator's MAX_REQUEST_BODY_SIZE. */
export const MAX_REQUEST_BODY_BYTES = 50 * 1024;
const REQUEST_TIMEOUT_MS = 30_000;
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export interface HttpReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface HttpRequest {
  method: string;
  path: string;
  body: Buffer;
  contentType: string;
  clientIp: string;
}

/** An extra route, e.g. POST /faucet; returns null to fall through to 404. */
export type RouteHandler = (request: HttpRequest) => Promise<HttpReply | null> | HttpReply | null;

const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST, GET, OPTIONS",
  "Access-Control-Allow-Headers": "content-type, solana-client, authorization",
  "Access-Control-Max-Age": "86400",
};

type JsonRpcId = string | number | null;

interface JsonRpcResponse {
  jsonrpc: "2.0";
  id: JsonRpcId;
  result?: unknown;
  error?: ReturnType<RpcError["toJSON"]>;
}

function errorResponse(error: RpcError, id: JsonRpcId): JsonRpcResponse {
  return { jsonrpc: "2.0", error: error.toJSON(), id };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is JsonRpcId {
  return value === null || typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** Answers one request object; null for a notification (no `id`), which gets no response. */
export function handleJsonRpcCall(call: unknown, context: RpcContext): JsonRpcResponse | null {
  if (!isRecord(call)) {
    return errorResponse(invalidRequest(), null);
  }
  const hasId = Object.hasOwn(call, "id");
  const id = hasId && isId(call.id) ? call.id : null;
  if (
    call.jsonrpc !== "2.0" ||
    typeof call.method !== "string" ||
    (hasId && !isId(call.id)) ||
    (call.params !== undefined && typeof call.params !== "object")
  ) {
    return errorResponse(invalidRequest(), id);
  }
  const method = Object.hasOwn(rpcMethods, call.method) ? rpcMethods[call.method] : undefined;
  let response: JsonRpcResponse;
  if (method === undefined) {
    response = errorResponse(methodNotFound(), id);
  } else {
    try {
      response = { jsonrpc: "2.0", result: method(call.params, context), id };
    } catch (error) {
      if (!(error instanceof RpcError)) {
        console.error(`localnet: ${call.method} failed`, error);
      }
      response = errorResponse(error instanceof RpcError ? error : internalError(), id);
    }
  }
  return hasId ? response : null;
}

/** Answers a request body: a single call or a batch. Null when there is nothing to send back. */
export function handleJsonRpcBody(text: string, context: RpcContext): unknown {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return errorResponse(parseError(), null);
  }
  if (Array.isArray(payload)) {
    if (payload.length === 0) {
      return errorResponse(invalidRequest(), null);
    }
    const responses = payload.flatMap((call) => {
      const response = handleJsonRpcCall(call, context);
      return response === null ? [] : [response];
    });
    return responses.length === 0 ? null : responses;
  }
  return handleJsonRpcCall(payload, context);
}

class BodyTooLarge extends Error {}

function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers["content-length"] ?? "0");
    if (declared > limit) {
      reject(new BodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new BodyTooLarge());
        request.pause();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

function send(response: ServerResponse, reply: HttpReply): void {
  if (response.headersSent) {
    return;
  }
  const isText = typeof reply.body === "string";
  const body = reply.body === null ? "" : isText ? String(reply.body) : stringifyJson(reply.body);
  response.writeHead(reply.status, {
    ...CORS_HEADERS,
    "Content-Type": isText ? "text/plain; charset=utf-8" : "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    ...reply.headers,
  });
  response.end(body);
}

function clientIp(request: IncomingMessage): string {
  return request.socket.remoteAddress ?? "unknown";
}

export interface RpcHttpServerOptions {
  context: RpcContext;
  routes?: Record<string, RouteHandler>;
  maxBodyBytes?: number;
}

export function createRpcHttpServer(options: RpcHttpServerOptions): Server {
  const limit = options.maxBodyBytes ?? MAX_REQUEST_BODY_BYTES;
  const routes = options.routes ?? {};

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const method = request.method ?? "GET";
    if (method === "OPTIONS") {
      send(response, { status: 204, body: null });
      return;
    }
    if (path === "/health" && method === "GET") {
      send(response, { status: 200, body: "ok" });
      return;
    }
    let body: Buffer;
    try {
      body = await readBody(request, limit);
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        send(response, { status: 413, body: "Payload Too Large", headers: { Connection: "close" } });
        request.socket.end();
        return;
      }
      throw error;
    }
    const contentType = request.headers["content-type"] ?? "";
    const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
    if (route !== undefined) {
      let reply: HttpReply | null;
      try {
        reply = await route({ method, path, body, contentType, clientIp: clientIp(request) });
      } catch (error) {
        console.error(`localnet: ${method} ${path} failed`, error);
        reply = { status: 500, body: { error: "Internal error" } };
      }
      send(response, reply ?? { status: 404, body: { error: "Not found" } });
      return;
    }
    if (path !== "/") {
      send(response, { status: 404, body: "Not Found" });
      return;
    }
    if (method !== "POST") {
      send(response, { status: 405, body: "Used HTTP Method is not allowed. POST or OPTIONS is required" });
      return;
    }
    if (!contentType.toLowerCase().includes("application/json")) {
      send(response, {
        status: 415,
        body: "Supplied content type is not allowed. Content-Type: application/json is required",
      });
      return;
    }
    const result = handleJsonRpcBody(body.toString("utf8"), options.context);
    send(response, { status: 200, body: result });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      console.error("localnet: HTTP request failed", error);
      send(response, { status: 500, body: errorResponse(internalError(), null) });
    });
  });
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.headersTimeout = REQUEST_TIMEOUT_MS;
  // Longer than clients' idle pools keep sockets, so a busy moment never races a server-side close.
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.on("clientError", (_error, socket) => {
    if (socket.writable) {
      socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    } else {
      socket.destroy();
    }
  });
  return server;
}
