// A real webhook receiver for tests: an HTTP server on a free local port that verifies every delivery
// with the `standardwebhooks` library against its path's secret (a delivery that fails verification is
// answered 401 and recorded as unverified) and records what came. Each path can be told how to answer.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { Webhook } from "standardwebhooks";

import type { PartnerEvent } from "../../lib/vault/model/partner-event";

export interface Received {
  path: string;
  webhookId: string;
  verified: boolean;
  event: PartnerEvent | null;
  status: number;
  receivedAt: number;
  headers: Record<string, string>;
  body: string;
}

export type Responder = (delivery: { webhookId: string; attempt: number }) => number | "hang";

export interface Receiver {
  url: string;
  received: Received[];
  /** Secrets a path's deliveries are verified with (any one of them suffices). */
  secrets: Map<string, string[]>;
  respond: Map<string, Responder>;
  /** Called when a delivery arrives, before it is answered. */
  onDelivery?: (received: Received) => void;
  /** Milliseconds every answer waits (a slow partner; 0 by default). */
  delayMs: number;
  /** Deliveries received and not answered yet. */
  pending: number;
  verifiedOn(path: string): Received[];
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

export async function startReceiver(): Promise<Receiver> {
  const attempts = new Map<string, number>();
  const receiver: Omit<Receiver, "url" | "close"> & { url: string; close: () => Promise<void> } = {
    url: "",
    received: [],
    secrets: new Map(),
    respond: new Map(),
    delayMs: 0,
    pending: 0,
    verifiedOn(path) {
      return this.received.filter((entry) => entry.path === path && entry.verified);
    },
    close: async () => undefined,
  };
  const server: Server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const path = (request.url ?? "/").split("?")[0] ?? "/";
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === "string") {
          headers[name] = value;
        }
      }
      const webhookId = headers["webhook-id"] ?? "";
      let verified = false;
      let event: PartnerEvent | null = null;
      for (const secret of receiver.secrets.get(path) ?? []) {
        try {
          event = new Webhook(secret).verify(body, headers) as PartnerEvent;
          verified = true;
          break;
        } catch {
          // Try the next secret.
        }
      }
      const attempt = (attempts.get(`${path} ${webhookId}`) ?? 0) + 1;
      attempts.set(`${path} ${webhookId}`, attempt);
      const decided = verified ? (receiver.respond.get(path)?.({ webhookId, attempt }) ?? 200) : 401;
      const entry: Received = {
        path,
        webhookId,
        verified,
        event,
        status: decided === "hang" ? 0 : decided,
        receivedAt: Date.now(),
        headers,
        body,
      };
      receiver.received.push(entry);
      receiver.onDelivery?.(entry);
      if (decided !== "hang") {
        receiver.pending += 1;
        const answer = (): void => {
          receiver.pending -= 1;
          response.writeHead(decided, { "content-type": "text/plain" }).end("ok");
        };
        if (receiver.delayMs > 0) {
          setTimeout(answer, receiver.delayMs);
        } else {
          answer();
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = `http://127.0.0.1:${port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
