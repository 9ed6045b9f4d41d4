// A lean node:http host for the same handlers, for API-only deployments and the benchmark: Node
// request → ApiRequest (headers read in place, socket address and body bytes passed along) → handler
// → ApiResponse written as it is. No WHATWG Request or Response is built: their construction (URL,
// Headers, AbortSignal, body streams) cost more than a keyless request's whole handler. Shutdown
// stops accepting, ends open streams, lets in-flight requests finish, then closes connections.
import {
  STATUS_CODES,
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";

import { isStreamBody, type ApiRequest, type ApiResponse, type StreamBody } from "./handler";
import { MAX_BODY_BYTES } from "./request-input";

/** Bodies past this are not even drained: the connection is closed. */
const DISCARD_LIMIT_BYTES = 1024 * 1024;

export type NodeHostHandler = (request: ApiRequest) => Promise<ApiResponse>;

/** Reads a body up to MAX_BODY_BYTES; past that, stops keeping it and says so. */
function readBody(incoming: IncomingMessage): Promise<Uint8Array | "too-large"> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
      } else if (size > DISCARD_LIMIT_BYTES) {
        incoming.destroy();
        resolve("too-large");
      }
    });
    incoming.on("end", () => resolve(size > MAX_BODY_BYTES ? "too-large" : Buffer.concat(chunks)));
    incoming.on("error", reject);
  });
}

/**
 * Node's parsed headers behind the two methods the edge calls. Node has already folded repeated
 * headers into one value (set-cookie stays a list, joined here as Headers.get would).
 */
export class NodeRequestHeaders {
  constructor(private readonly raw: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) {
      return null;
    }
    return typeof value === "string" ? value : value.join(", ");
  }

  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }
}

export function toApiRequest(incoming: IncomingMessage, rawBody?: Uint8Array | "too-large"): ApiRequest {
  return {
    method: incoming.method ?? "GET",
    url: `http://${incoming.headers.host ?? "localhost"}${incoming.url ?? "/"}`,
    headers: new NodeRequestHeaders(incoming.headers),
    body: null,
    socketAddress: incoming.socket.remoteAddress ?? "unknown",
    rawBody,
  };
}

/** Writes a streamed body until it ends, the client leaves or `shutdown` aborts; then ends the response. */
async function writeStream(
  stream: StreamBody,
  outgoing: ServerResponse,
  shutdown: AbortSignal,
): Promise<void> {
  const left = new AbortController();
  const leave = (): void => left.abort();
  outgoing.once("close", leave);
  shutdown.addEventListener("abort", leave, { once: true });
  // Without this, Node holds small chunks back (Nagle): an event would wait for the next one.
  outgoing.socket?.setNoDelay(true);
  outgoing.flushHeaders();
  const write = (chunk: string): Promise<void> => {
    if (left.signal.aborted || outgoing.writableEnded) {
      return Promise.resolve();
    }
    if (outgoing.write(chunk)) {
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const done = (): void => {
        outgoing.off("drain", done);
        outgoing.off("close", done);
        resolve();
      };
      outgoing.once("drain", done);
      outgoing.once("close", done);
    });
  };
  try {
    // The head is out: a failing body can only be cut short (the stream logs its own failures).
    await stream.run(write, left.signal).catch(() => undefined);
  } finally {
    outgoing.off("close", leave);
    shutdown.removeEventListener("abort", leave);
    outgoing.end();
  }
}

function writeResponse(
  response: ApiResponse,
  outgoing: ServerResponse,
  shutdown: AbortSignal,
): Promise<void> {
  const { headers, body } = response;
  if (isStreamBody(body)) {
    if (response.status === 204) {
      body.discard();
    } else {
      outgoing.writeHead(response.status, headers);
      return writeStream(body, outgoing, shutdown);
    }
  }
  if (body === null || isStreamBody(body) || response.status === 204) {
    outgoing.writeHead(response.status, headers).end();
    return Promise.resolve();
  }
  headers["Content-Length"] = String(Buffer.byteLength(body));
  outgoing.writeHead(response.status, headers).end(body);
  return Promise.resolve();
}

/** Bodies are read first, then handed over as bytes; GET and HEAD go straight to the handler. */
function handle(handler: NodeHostHandler, incoming: IncomingMessage): Promise<ApiResponse> {
  const method = incoming.method ?? "GET";
  if (method === "GET" || method === "HEAD") {
    return handler(toApiRequest(incoming));
  }
  // A body the client broke off rejects: the host's catch answers for it (if the socket still takes it).
  return readBody(incoming).then((body) => handler(toApiRequest(incoming, body)));
}

export interface NodeHost {
  server: Server;
  url: string;
  /** Stops accepting, waits for in-flight requests (at most `graceMs`), then closes every connection. */
  close(graceMs?: number): Promise<void>;
}

/** A node:http server's request listener for the handler, counting requests in flight. */
export interface NodeListener {
  (incoming: IncomingMessage, outgoing: ServerResponse): void;
  inFlight(): number;
  /** Resolves when nothing is in flight (at once when nothing is). */
  drained(): Promise<void>;
  /** Ends every streamed response (they would otherwise keep the host from draining). */
  endStreams(): void;
}

export function createNodeListener(handler: NodeHostHandler): NodeListener {
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const shutdown = new AbortController();
  // Made once: a function declared per request costs a closure, and under tsx its naming too.
  const finish = (): void => {
    inFlight -= 1;
    if (inFlight === 0) {
      waiting.splice(0).forEach((resolve) => resolve());
    }
  };
  const listener = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    inFlight += 1;
    handle(handler, incoming)
      .then((response) => writeResponse(response, outgoing, shutdown.signal))
      .catch(() => {
        if (!outgoing.headersSent) {
          outgoing.writeHead(500, { "Content-Type": "application/json" });
        }
        outgoing.end('{"success":false,"error":"Internal error"}');
      })
      .finally(finish);
  };
  return Object.assign(listener, {
    inFlight: () => inFlight,
    drained: () =>
      inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve)),
    endStreams: () => shutdown.abort(),
  });
}

function rawResponse(response: ApiResponse): string {
  if (isStreamBody(response.body)) {
    // Outside the request listener (CONNECT): no stream is written there.
    response.body.discard();
  }
  const body = response.status === 204 || isStreamBody(response.body) ? "" : (response.body ?? "");
  const headers = {
    ...response.headers,
    "Content-Length": String(Buffer.byteLength(body)),
    Connection: "close",
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ""}\r\n${lines.join("")}\r\n${body}`;
}

/**
 * The answers a node:http server gives outside its request listener, in the envelope: requests Node
 * cannot parse (oversized headers or URL, bad framing, a method it does not know) and CONNECT, which
 * Node hands to a `connect` listener (the socket is dropped without one) — that one goes through the
 * handler like any other method, so it gets the route's 405 with Allow, or the 404 of an unknown path.
 */
export function answerOutsideRequests(server: Server, handler: NodeHostHandler): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
    const body = JSON.stringify({
      success: false,
      error: tooLarge ? "The request's URL or headers are too large" : "Malformed HTTP request",
      code: "INVALID_REQUEST",
    });
    socket.end(
      `HTTP/1.1 ${tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request"}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  });
  server.on("connect", (incoming: IncomingMessage, socket: Duplex) => {
    socket.on("error", () => socket.destroy());
    handler(toApiRequest(incoming, new Uint8Array()))
      .then((response) => socket.end(rawResponse(response)))
      .catch(() => socket.destroy());
  });
}

export async function startNodeHost(
  handler: NodeHostHandler,
  options: { host: string; port: number },
): Promise<NodeHost> {
  const listener = createNodeListener(handler);
  const server = createServer(listener);
  answerOutsideRequests(server, handler);
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  return {
    server,
    url: await listenOn(server, options.port, options.host),
    close: (graceMs = 10_000) => closeDraining(server, listener, graceMs),
  };
}

/** Listens on `port` (0: a free one) and answers the server's URL. */
export async function listenOn(server: Server, port: number, hostname: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * Stops accepting, ends streamed responses (clients reconnect elsewhere), lets in-flight API requests
 * finish for at most `graceMs`, then drops the rest.
 */
export async function closeDraining(
  server: Server,
  listener: { drained(): Promise<void>; endStreams(): void },
  graceMs: number,
): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  listener.endStreams();
  await Promise.race([
    listener.drained(),
    new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref()),
  ]);
  server.closeAllConnections();
  await closed;
}
