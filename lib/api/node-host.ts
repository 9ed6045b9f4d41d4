// A lean node:http host for the same Web-standard handlers, for API-only deployments and the
// benchmark: Node request → Request (socket address registered for per-IP limits) → handler →
// Node response. Shutdown stops accepting, lets in-flight requests finish, then closes connections.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

import { registerSocketAddress } from "./client-address";

export type WebHandler = (request: Request) => Promise<Response>;

function toRequest(incoming: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (let index = 0; index < incoming.rawHeaders.length; index += 2) {
    headers.append(incoming.rawHeaders[index] ?? "", incoming.rawHeaders[index + 1] ?? "");
  }
  const method = incoming.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const init: RequestInit & { duplex?: "half" } = { method, headers };
  if (hasBody) {
    init.body = Readable.toWeb(incoming) as ReadableStream<Uint8Array>;
    init.duplex = "half";
  }
  return new Request(new URL(incoming.url ?? "/", origin), init);
}

async function writeResponse(response: Response, outgoing: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  outgoing.writeHead(response.status, headers);
  if (response.body === null) {
    outgoing.end();
    return;
  }
  const body = Buffer.from(await response.arrayBuffer());
  outgoing.end(body);
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
    let request: Request;
    try {
      request = toRequest(incoming, `http://${incoming.headers.host ?? "localhost"}`);
    } catch {
      request = new Request(`http://localhost/`, { method: "GET" });
    }
    registerSocketAddress(request, incoming.socket.remoteAddress ?? "unknown");
    handler(request)
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
