// The store as a process uses it: the database opened and migrated (a failure is retried on the next
// use, so a database that was down at boot is picked up without a restart), and the key and history
// tables and the indexer's rows over it. The app opens it at start-up (ready()).
//
// An embedded PGlite directory has one owner process (pglite-owner.ts) and every process reaches it
// through the owner's Postgres socket. The app is the owner ("owner": it waits while a CLI holds the
// directory for its run); a CLI ("shared") connects to the owner, waits while the owner is starting,
// and with no owner running takes the directory itself for its run.
import { ApiKeyStore } from "./api-keys";
import { openPgliteInMemory, openPostgres, pgliteDatabase, type Database, type Queryable } from "./db";
import { SqlHistoryStore } from "./history";
import { SqlIndexerStore } from "./indexer";
import { migrate } from "./migrations";
import {
  PGLITE_SOCKET_PORT,
  claimPglite,
  pgliteSocketAccepts,
  probeOwner,
  type PgliteOwnership,
} from "./pglite-owner";

export interface StoreOptions {
  databaseUrl: string | null;
  /** PGlite directory when there is no database URL; null keeps PGlite in memory. */
  pgliteDir: string | null;
  timeoutMs: number;
  schema?: string;
  /** How this process uses a PGlite directory (default "owner"). */
  embeddedRole?: "owner" | "shared";
  /** How long to wait for another process holding the directory (default 120 s). */
  ownerWaitMs?: number;
  /** Told once what the store waits for, when it waits for another process. */
  onWait?: (message: string) => void;
}

const OWNER_POLL_MS = 100;
/**
 * The least bound on a query to the embedded database's owner. The owner answers on its own event loop,
 * which `npm run dev` shares with Next.js compiling pages (seconds at a time on a busy machine): a
 * shorter bound failed the indexer's and the CLIs' queries while the first pages compiled.
 */
const EMBEDDED_MIN_TIMEOUT_MS = 60_000;
/**
 * How long a closing owner lets other processes finish their work on its database: a CLI holding the
 * directory for its run waits for the CLIs that joined it; the app, stopped by Ctrl-C, only briefly.
 */
const DRAIN_MS = { owner: 3_000, shared: 30_000 } as const;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function describeOwner(pid: number | null, state: string): string {
  return `${pid === null ? "another process" : `process ${pid}`} (${state})`;
}

export class Store implements Queryable {
  readonly keys: ApiKeyStore;
  readonly history: SqlHistoryStore;
  /** The indexer's rows: vault accounts, snapshots, program events, cursors. */
  readonly indexer: SqlIndexerStore;
  readonly kind: Database["kind"];
  private database: Promise<Database> | null = null;
  private opened: Database | null = null;
  private ownership: PgliteOwnership | null = null;

  constructor(private readonly options: StoreOptions) {
    this.kind = options.databaseUrl === null ? "pglite" : "postgres";
    this.keys = new ApiKeyStore(this);
    this.history = new SqlHistoryStore(this);
    this.indexer = new SqlIndexerStore(this);
  }

  /** The migrated database; opens it on first call. */
  ready(): Promise<Database> {
    if (this.database === null) {
      this.database = this.open().catch((error: unknown) => {
        this.database = null;
        throw error;
      });
    }
    return this.database;
  }

  async query<Row extends object>(sql: string, params?: readonly unknown[]): Promise<Row[]> {
    return (await this.ready()).query<Row>(sql, params);
  }

  /** Runs `work` in one transaction on one connection. */
  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return (await this.ready()).transaction(work);
  }

  async close(): Promise<void> {
    const opened = this.opened;
    const ownership = this.ownership;
    this.opened = null;
    this.ownership = null;
    this.database = null;
    await opened?.close();
    await ownership?.release(DRAIN_MS[this.options.embeddedRole ?? "owner"]);
  }

  private async open(): Promise<Database> {
    const { databaseUrl, pgliteDir, timeoutMs, schema } = this.options;
    if (this.opened !== null) {
      return this.opened;
    }
    if (databaseUrl === null && pgliteDir !== null) {
      this.opened = await this.openDirectory(pgliteDir);
      return this.opened;
    }
    const db =
      databaseUrl === null
        ? await openPgliteInMemory()
        : openPostgres({ url: databaseUrl, timeoutMs, schema });
    this.opened = db;
    await migrate(db);
    return db;
  }

  private socketClient(directory: string, maxConnections: number): Database {
    return openPostgres({
      url: { socketDirectory: directory, port: PGLITE_SOCKET_PORT },
      timeoutMs: Math.max(this.options.timeoutMs, EMBEDDED_MIN_TIMEOUT_MS),
      maxConnections,
    });
  }

  /** PGlite in a directory: as its owner, or through the owner's socket (pglite-owner.ts). */
  private async openDirectory(directory: string): Promise<Database> {
    const role = this.options.embeddedRole ?? "owner";
    const deadline = Date.now() + (this.options.ownerWaitMs ?? 120_000);
    let told = false;
    for (;;) {
      if (role === "shared" && (await pgliteSocketAccepts(directory))) {
        // One connection, opened now: a CLI-run owner waits for it before closing.
        const client = this.socketClient(directory, 1);
        try {
          await client.query("SELECT 1");
          return client;
        } catch {
          // The owner closed between the two steps: look again.
          await client.close().catch(() => undefined);
          continue;
        }
      }
      const ownership = await claimPglite(directory);
      if (ownership !== null) {
        return this.serveAsOwner(ownership);
      }
      const owner = await probeOwner(directory);
      if (owner === null) {
        continue;
      }
      if (Date.now() >= deadline) {
        throw new Error(
          `The embedded database ${directory} is held by ${describeOwner(owner.pid, owner.state)}; gave up waiting`,
        );
      }
      if (!told) {
        told = true;
        this.options.onWait?.(
          role === "shared"
            ? `waiting for ${describeOwner(owner.pid, owner.state)}, which holds ${directory}, to serve it`
            : `waiting for ${describeOwner(owner.pid, owner.state)} to finish with ${directory}`,
        );
      }
      await sleep(OWNER_POLL_MS);
    }
  }

  private async serveAsOwner(ownership: PgliteOwnership): Promise<Database> {
    try {
      await migrate(pgliteDatabase(ownership.db));
      await ownership.serve();
      // This process's own queries take the socket too, so the server keeps every connection's
      // transactions apart.
      const client = this.socketClient(ownership.directory, 4);
      this.ownership = ownership;
      return client;
    } catch (error) {
      await ownership.release(0).catch(() => undefined);
      throw error;
    }
  }
}
