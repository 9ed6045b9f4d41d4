// A lean node:http host for the same Web-standard handlers, for API-only deployments and the
// benchmark: Node request → Request (socket address registered for per-IP limits) → handler →
// Node response. Shutdown stops accepting, lets in-flight requests finish, then closes connections.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import { registerSocketAddress } from "./client-address";
import { MAX_BODY_BYTES, registerRawBody } from "./request-input";
import { bodyTextOf } from "./responses";

/** Bodies past this are not even drained: the connection is closed. */
const DISCARD_LIMIT_BYTES = 1024 * 1024;

export type WebHandler = (request: Request) => Promise<Response>;

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

async function toRequest(incoming: IncomingMessage, origin: string): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (typeof value === "string") {
      headers.set(name, value);
    } else if (value !== undefined) {
      for (const item of value) {
        headers.append(name, item);
      }
    }
  }
  const method = incoming.method ?? "GET";
  // The body is read here and handed to readJsonBody through registerRawBody, not as a stream.
  const request = new Request(`${origin}${incoming.url ?? "/"}`, { method, headers });
  if (method !== "GET" && method !== "HEAD") {
    registerRawBody(request, await readBody(incoming));
  }
  return request;
}

async function writeResponse(response: Response, outgoing: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const text = bodyTextOf(response);
  if (text !== undefined) {
    // Our own JSON responses: write the text; the unread stream is dropped with the Response.
    headers["content-length"] = String(Buffer.byteLength(text));
    outgoing.writeHead(response.status, headers).end(response.status === 204 ? undefined : text);
    return;
  }
  outgoing.writeHead(response.status, headers);
  if (response.body === null) {
    outgoing.end();
    return;
  }
  outgoing.end(Buffer.from(await response.arrayBuffer()));
}

export interface NodeHost {
  server: Server;
  url: string;
  /** Stops accepting, waits for in-flight requests (at most `graceMs`), then closes every connection. */
  close(graceMs?: number): Promise<void>;
}

export async function startNodeHost(
  handler: WebHandler,
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
    toRequest(incoming, `http://${incoming.headers.host ?? "localhost"}`)
      .catch(() => new Request("http://localhost/", { method: "GET" }))
      .then((request) => {
        registerSocketAddress(request, incoming.socket.remoteAddress ?? "unknown");
        return handler(request);
      })
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
