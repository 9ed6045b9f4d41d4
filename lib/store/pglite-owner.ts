// PGlite is one process's database: two PGlite instances on one directory write the same files and
// corrupt them. So one process, the owner, holds a PGlite directory and serves it over the Postgres
// protocol (@electric-sql/pglite-socket) on a Unix socket inside it; every process, the owner
// included, queries it through that socket with `pg`, as it would a PostgreSQL server, and
// `psql "host=<directory> user=postgres dbname=postgres"` opens it too.
//
// Ownership is the directory's ownership socket (.owner.sock), bound before PGlite opens the files and
// closed only after PGlite has closed them. Binding a path that exists fails, so two live owners are
// impossible; a socket left by a process killed with SIGKILL refuses connections, and is removed and
// bound afresh only under a lock (proper-lockfile, held for those few milliseconds), so that two
// processes finding the same dead socket cannot both take it. The ownership socket answers whoever
// connects with the owner's pid and whether it is still opening the database.
import { chmod, mkdir, unlink } from "node:fs/promises";
import { createConnection, createServer, type Server } from "node:net";
import { join } from "node:path";

import type { ExecProtocolOptionsStream, PGlite } from "@electric-sql/pglite";
import type { PGLiteSocketServer } from "@electric-sql/pglite-socket";

/** The Postgres socket's port number: psql and pg look for `<directory>/.s.PGSQL.<port>`. */
export const PGLITE_SOCKET_PORT = 5432;

export function pgliteSocketPath(directory: string): string {
  return join(directory, `.s.PGSQL.${PGLITE_SOCKET_PORT}`);
}

export function ownerSocketPath(directory: string): string {
  return join(directory, ".owner.sock");
}

/** What the ownership socket says about its process. */
export interface OwnerStatus {
  pid: number | null;
  state: "starting" | "ready" | "closing" | "busy";
}

// Unix socket paths are short (108 bytes on Linux, 104 on macOS).
const MAX_SOCKET_PATH = 103;

function checkSocketPath(path: string): void {
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    throw new Error(
      `The embedded database's socket path ${path} is longer than a Unix socket allows; set PGLITE_DIR to a shorter path`,
    );
  }
}

function errorCode(error: unknown): string {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : "";
}

/**
 * Whether a process owns `directory`, and what it says about itself; null when none does (no socket,
 * or one left by a dead process). A live owner whose event loop is busy accepts the connection (the
 * kernel does) without answering: "busy".
 */
export function probeOwner(directory: string, answerMs = 1_000): Promise<OwnerStatus | null> {
  return new Promise((resolve) => {
    const socket = createConnection(ownerSocketPath(directory));
    let text = "";
    let connected = false;
    const finish = (status: OwnerStatus | null): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(status);
    };
    const timer = setTimeout(() => finish({ pid: null, state: "busy" }), answerMs);
    socket.once("connect", () => {
      connected = true;
    });
    socket.on("data", (chunk) => {
      text += chunk.toString("utf8");
    });
    socket.once("end", () => {
      try {
        const parsed = JSON.parse(text) as { pid?: unknown; state?: unknown };
        const state = parsed.state === "ready" || parsed.state === "closing" ? parsed.state : "starting";
        finish({ pid: typeof parsed.pid === "number" ? parsed.pid : null, state });
      } catch {
        finish({ pid: null, state: "busy" });
      }
    });
    socket.once("error", (error) => {
      const code = errorCode(error);
      // ECONNREFUSED: a socket file nobody listens on (its process died); ENOENT: no owner at all.
      finish(
        !connected && (code === "ECONNREFUSED" || code === "ENOENT") ? null : { pid: null, state: "busy" },
      );
    });
  });
}

/** Whether the owner's Postgres socket accepts connections now. */
export function pgliteSocketAccepts(directory: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(pgliteSocketPath(directory));
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

const EXTENDED_QUERY_MESSAGES = new Set(["P", "B", "D", "E", "C", "H"]);
const SYNC_MESSAGE = new Uint8Array([0x53, 0, 0, 0, 4]);

/**
 * Opens PGlite as the socket server shares it between connections. The server's queue keeps serving
 * one connection while PGlite is in a transaction block; a parameterised query outside BEGIN is a batch
 * of extended-protocol messages (Parse, Bind, Execute… up to Sync) that must not interleave with
 * another connection's, or one connection's Bind would bind the other's statement. So a batch counts
 * as a transaction here until its Sync. (Loaded only by the process that opens the directory: a CLI
 * that reaches a running owner never loads PGlite.)
 */
async function openSharedPglite(directory: string): Promise<PGlite> {
  const { PGlite } = await import("@electric-sql/pglite");
  class SharedPglite extends PGlite {
    private batchOpen = false;

    override isInTransaction(): boolean {
      return this.batchOpen || super.isInTransaction();
    }

    override async execProtocolRawStream(
      message: Uint8Array,
      options: ExecProtocolOptionsStream,
    ): Promise<void> {
      const type = message.length > 0 ? String.fromCharCode(message[0] ?? 0) : "";
      if (EXTENDED_QUERY_MESSAGES.has(type)) {
        this.batchOpen = true;
      } else if (type === "S" || type === "X") {
        this.batchOpen = false;
      }
      await super.execProtocolRawStream(message, options);
    }

    /** The server rolls back a connection that left mid-transaction with exec("ROLLBACK"): end its batch first. */
    override async exec(...args: Parameters<PGlite["exec"]>): ReturnType<PGlite["exec"]> {
      if (this.batchOpen) {
        this.batchOpen = false;
        await super.execProtocolRaw(SYNC_MESSAGE);
      }
      return super.exec(...args);
    }
  }
  const db = new SharedPglite(directory);
  await db.waitReady;
  return db;
}

export interface PgliteOwnership {
  readonly directory: string;
  /** The opened database, for this process's start-up work (migrations) before it is served. */
  readonly db: PGlite;
  /** Serves the database on the Postgres socket; clients waiting for the owner connect from now on. */
  serve(): Promise<void>;
  /** Waits (at most `drainMs`) until other processes' connections end, then closes and releases. */
  release(drainMs: number): Promise<void>;
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Binds the ownership socket if no live process holds it; false when one does. */
async function bindOwnerSocket(directory: string, server: Server): Promise<boolean> {
  const path = ownerSocketPath(directory);
  // Serialises the check and the removal of a dead owner's socket between processes; held briefly.
  const { lock } = await import("proper-lockfile");
  const unlock = await lock(directory, {
    lockfilePath: join(directory, ".owner.lock"),
    realpath: false,
    stale: 10_000,
    retries: { retries: 200, minTimeout: 10, maxTimeout: 100 },
    onCompromised: () => undefined,
  });
  try {
    if ((await probeOwner(directory)) !== null) {
      return false;
    }
    await unlink(path).catch((error: unknown) => {
      if (errorCode(error) !== "ENOENT") {
        throw error;
      }
    });
    try {
      await listen(server, path);
    } catch (error) {
      if (errorCode(error) === "EADDRINUSE") {
        return false;
      }
      throw error;
    }
    await chmod(path, 0o600);
    return true;
  } finally {
    await unlock().catch(() => undefined);
  }
}

/**
 * Takes `directory` for this process and opens PGlite in it; null when another live process owns it.
 * The database is not served until `serve()`.
 */
export async function claimPglite(directory: string): Promise<PgliteOwnership | null> {
  checkSocketPath(pgliteSocketPath(directory));
  await mkdir(directory, { recursive: true, mode: 0o700 });
  let state: OwnerStatus["state"] = "starting";
  const ownerServer = createServer((socket) => {
    socket.on("error", () => socket.destroy());
    socket.end(JSON.stringify({ pid: process.pid, state }));
  });
  if (!(await bindOwnerSocket(directory, ownerServer))) {
    return null;
  }
  // Unref'd: holding the directory does not by itself keep a process (a CLI) alive.
  ownerServer.unref();
  let db: PGlite;
  try {
    db = await openSharedPglite(directory);
  } catch (error) {
    await closeServer(ownerServer);
    throw error;
  }
  let socketServer: PGLiteSocketServer | null = null;
  return {
    directory,
    db,
    async serve() {
      const path = pgliteSocketPath(directory);
      // A dead owner's socket; ours to remove, since we hold the directory.
      await unlink(path).catch(() => undefined);
      const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
      socketServer = new PGLiteSocketServer({ db, path, maxConnections: 100 });
      await socketServer.start();
      await chmod(path, 0o600);
      state = "ready";
    },
    async release(drainMs) {
      state = "closing";
      if (socketServer !== null) {
        const deadline = Date.now() + drainMs;
        while (socketServer.getStats().activeConnections > 0 && Date.now() < deadline) {
          await sleep(50);
        }
        await socketServer.stop();
        socketServer = null;
      }
      try {
        await db.close();
      } finally {
        // Released only once PGlite has closed its files.
        await closeServer(ownerServer);
      }
    },
  };
}
