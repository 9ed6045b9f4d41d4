// A lean node:http host for the same handlers, for API-only deployments and the benchmark: Node
// request → ApiRequest (headers read in place, socket address and body bytes passed along) → handler
// → ApiResponse written as it is. No WHATWG Request or Response is built: their construction (URL,
// Headers, AbortSignal, body streams) cost more than a keyless request's whole handler. Shutdown
// stops accepting, lets in-flight requests finish, then closes connections.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

import type { ApiRequest, ApiResponse } from "./handler";
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

function toApiRequest(incoming: IncomingMessage, rawBody?: Uint8Array | "too-large"): ApiRequest {
  return {
    method: incoming.method ?? "GET",
    url: `http://${incoming.headers.host ?? "localhost"}${incoming.url ?? "/"}`,
    headers: new NodeRequestHeaders(incoming.headers),
    body: null,
    socketAddress: incoming.socket.remoteAddress ?? "unknown",
    rawBody,
  };
}

function writeResponse(response: ApiResponse, outgoing: ServerResponse): void {
  const { headers } = response;
  if (response.body === null || response.status === 204) {
    outgoing.writeHead(response.status, headers).end();
    return;
  }
  headers["Content-Length"] = String(Buffer.byteLength(response.body));
  outgoing.writeHead(response.status, headers).end(response.body);
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

export async function startNodeHost(
  handler: NodeHostHandler,
  options: { host: string; port: number },
): Promise<NodeHost> {
  let inFlight = 0;
  let drained: (() => void) | null = null;
  const server = createServer((incoming, outgoing) => {
    inFlight += 1;
    const finish = (): void => {
      inFlight -= 1;
      if (inFlight === 0) {
        drained?.();
      }
    };
    handle(handler, incoming)
      .then((response) => writeResponse(response, outgoing))
      .catch(() => {
        if (!outgoing.headersSent) {
          outgoing.writeHead(500, { "Content-Type": "application/json" });
        }
        outgoing.end('{"success":false,"error":"Internal error"}');
      })
      .finally(finish);
  });
  // Requests Node cannot parse (oversized headers or URL, bad framing) never reach a handler: answer
  // them here in the envelope too.
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
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host}:${address.port}`,
    async close(graceMs = 10_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0) {
        await Promise.race([
          new Promise<void>((resolve) => {
            drained = resolve;
          }),
          new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref()),
        ]);
      }
      server.closeAllConnections();
      await closed;
    },
  };
}
