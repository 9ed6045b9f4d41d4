// PGlite is one process's database. So that `npm run keys` can work while `npm run dev` holds it, the
// process that opens a PGlite directory also listens on a Unix socket inside it (mode 0600: this
// user only), and a second process sends its queries there: one JSON line per query and per answer.
import { chmod, unlink } from "node:fs/promises";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";

import { StoreUnavailableError, type Database } from "./db";

export function bridgeSocketPath(directory: string): string {
  return join(directory, ".bridge.sock");
}

interface BridgeRequest {
  id: number;
  sql: string;
  params: unknown[];
}

type BridgeResponse = { id: number; rows: object[] } | { id: number; error: string };

// Dates cross the socket as tagged strings so they arrive as Dates.
const DATE_TAG = "__date:";

function encode(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, field: unknown) {
    const original = this[key];
    return original instanceof Date ? `${DATE_TAG}${original.toISOString()}` : field;
  });
}

function decode(text: string): unknown {
  return JSON.parse(text, (_key, field: unknown) =>
    typeof field === "string" && field.startsWith(DATE_TAG) ? new Date(field.slice(DATE_TAG.length)) : field,
  );
}

/** Serves `db` to other processes on the directory's socket. */
export async function serveBridge(db: Database, directory: string): Promise<Server> {
  const path = bridgeSocketPath(directory);
  await unlink(path).catch(() => undefined);
  const server = createServer((socket) => {
    const reply = (response: BridgeResponse): void => {
      if (!socket.destroyed && socket.writable) {
        socket.write(`${encode(response)}\n`);
      }
    };
    const lines = createInterface({ input: socket });
    lines.on("error", () => socket.destroy());
    lines.on("line", (line) => {
      let request: BridgeRequest;
      try {
        request = decode(line) as BridgeRequest;
      } catch {
        socket.destroy();
        return;
      }
      db.query(request.sql, request.params).then(
        (rows) => reply({ id: request.id, rows }),
        (error: unknown) =>
          reply({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
      );
    });
    socket.on("error", () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => resolve());
  });
  await chmod(path, 0o600);
  server.unref();
  return server;
}

/** A Database that forwards queries to the directory's owner; null when no process serves it. */
export async function connectBridge(directory: string, onClose: () => void): Promise<Database | null> {
  const socket = await new Promise<Socket | null>((resolve) => {
    const candidate = createConnection(bridgeSocketPath(directory));
    candidate.once("connect", () => resolve(candidate));
    candidate.once("error", () => resolve(null));
  });
  if (socket === null) {
    return null;
  }
  const pending = new Map<number, { resolve: (rows: object[]) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  const lines = createInterface({ input: socket });
  lines.on("error", () => socket.destroy());
  lines.on("line", (line) => {
    const response = decode(line) as BridgeResponse;
    const waiter = pending.get(response.id);
    pending.delete(response.id);
    if ("error" in response) {
      waiter?.reject(new Error(response.error));
    } else {
      waiter?.resolve(response.rows);
    }
  });
  socket.on("close", () => {
    for (const waiter of pending.values()) {
      waiter.reject(new StoreUnavailableError("the process holding the embedded database went away"));
    }
    pending.clear();
    onClose();
  });
  socket.on("error", () => socket.destroy());
  return {
    kind: "pglite",
    query<Row extends object>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
      if (socket.destroyed) {
        return Promise.reject(new StoreUnavailableError("the embedded database's owner went away"));
      }
      const id = nextId++;
      return new Promise<Row[]>((resolve, reject) => {
        pending.set(id, { resolve: (rows) => resolve(rows as Row[]), reject });
        socket.write(`${encode({ id, sql, params: [...params] } satisfies BridgeRequest)}\n`);
      });
    },
    transaction() {
      return Promise.reject(new Error("Transactions are not available through the PGlite bridge"));
    },
    async close() {
      socket.destroy();
    },
  };
}
