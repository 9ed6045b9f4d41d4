// The store as the app uses it: the database opened and migrated on first use (a failure is retried on
// the next use, so a database that was down at boot is picked up without a restart), and the key and
// history tables and the indexer's rows over it.
import type { Server } from "node:net";

import { ApiKeyStore } from "./api-keys";
import { openPglite, openPostgres, type Database, type Queryable } from "./db";
import { SqlHistoryStore } from "./history";
import { SqlIndexerStore } from "./indexer";
import { migrate } from "./migrations";
import { connectBridge, serveBridge } from "./pglite-bridge";

export interface StoreOptions {
  databaseUrl: string | null;
  /** PGlite directory when there is no database URL; null keeps PGlite in memory. */
  pgliteDir: string | null;
  timeoutMs: number;
  schema?: string;
}

export class Store implements Queryable {
  readonly keys: ApiKeyStore;
  readonly history: SqlHistoryStore;
  /** The indexer's rows: vault accounts, snapshots, program events, cursors. */
  readonly indexer: SqlIndexerStore;
  readonly kind: Database["kind"];
  private database: Promise<Database> | null = null;
  private opened: Database | null = null;
  private bridge: Server | null = null;

  constructor(private readonly options: StoreOptions) {
    this.kind = options.databaseUrl === null ? "pglite" : "postgres";
    this.keys = new ApiKeyStore(this);
    this.history = new SqlHistoryStore(this);
    this.indexer = new SqlIndexerStore(this);
  }

  /** The migrated database; opens it on first use. */
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

  async close(): Promise<void> {
    const opened = this.opened;
    this.opened = null;
    this.database = null;
    this.bridge?.close();
    this.bridge = null;
    await opened?.close();
  }

  private async open(): Promise<Database> {
    const { databaseUrl, pgliteDir, timeoutMs, schema } = this.options;
    if (databaseUrl === null && pgliteDir !== null) {
      return this.openEmbeddedDirectory(pgliteDir);
    }
    this.opened ??=
      databaseUrl === null ? await openPglite(null) : openPostgres({ url: databaseUrl, timeoutMs, schema });
    await migrate(this.opened);
    return this.opened;
  }

  /** PGlite in a directory: through the bridge of the process that holds it, else held here. */
  private async openEmbeddedDirectory(directory: string): Promise<Database> {
    if (this.opened !== null) {
      return this.opened;
    }
    const remote = await connectBridge(directory, () => {
      // The holder went away: open again on next use (this process may hold it then).
      this.database = null;
      this.opened = null;
    });
    if (remote !== null) {
      this.opened = remote;
      return remote;
    }
    const local = await openPglite(directory);
    await migrate(local);
    this.bridge = await serveBridge(local, directory);
    this.opened = local;
    return local;
  }
}
