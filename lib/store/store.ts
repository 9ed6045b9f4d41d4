// The store as the app uses it: the database opened and migrated on first use (a failure is retried on
// the next use, so a database that was down at boot is picked up without a restart), and the key and
// history tables over it.
import { ApiKeyStore } from "./api-keys";
import { openPglite, openPostgres, type Database, type Queryable } from "./db";
import { SqlHistoryStore } from "./history";
import { migrate } from "./migrations";

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
  readonly kind: Database["kind"];
  private database: Promise<Database> | null = null;
  private opened: Database | null = null;

  constructor(private readonly options: StoreOptions) {
    this.kind = options.databaseUrl === null ? "pglite" : "postgres";
    this.keys = new ApiKeyStore(this);
    this.history = new SqlHistoryStore(this);
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
    await opened?.close();
  }

  private async open(): Promise<Database> {
    if (this.opened === null) {
      const { databaseUrl, pgliteDir, timeoutMs, schema } = this.options;
      this.opened =
        databaseUrl === null
          ? await openPglite(pgliteDir)
          : openPostgres({ url: databaseUrl, timeoutMs, schema });
    }
    await migrate(this.opened);
    return this.opened;
  }
}
