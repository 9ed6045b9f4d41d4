// The SQL connection: a pg pool to PostgreSQL when DATABASE_URL is set, or to the embedded PGlite
// directory's owner (pglite-owner.ts); PGlite itself in memory for tests. All run the same SQL.
// Connection trouble becomes StoreUnavailableError (the HTTP edge answers 503); pg's timeouts keep
// every query bounded.
import pg from "pg";
import type { PGlite } from "@electric-sql/pglite";

export class StoreUnavailableError extends Error {
  constructor(reason: string) {
    super(`The database is unreachable: ${reason}`);
  }
}

export interface Queryable {
  query<Row extends object>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

export interface Database extends Queryable {
  readonly kind: "postgres" | "pglite";
  /** The schema the tables live in, when not the default one. */
  readonly schema?: string;
  /** Runs `work` in one transaction on one connection. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const CONNECTION_ERROR_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "57014", // query_canceled (statement_timeout)
  "53300", // too_many_connections
]);

function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) {
    return false;
  }
  const code = "code" in error && typeof error.code === "string" ? error.code : "";
  return (
    CONNECTION_ERROR_CODES.has(code) ||
    code.startsWith("08") ||
    /timeout|terminated|Connection|connect/i.test(error.message)
  );
}

async function unavailableOnConnectionError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isConnectionError(error)) {
      throw new StoreUnavailableError(error instanceof Error ? error.message : String(error));
    }
    throw error;
  }
}

export function quoteIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
    throw new Error(`Invalid schema name ${name}`);
  }
  return `"${name}"`;
}

export interface PostgresOptions {
  /** A PostgreSQL URL, or the directory of an embedded database's Postgres socket (pglite-owner.ts). */
  url: string | { socketDirectory: string; port: number };
  timeoutMs: number;
  /** Tables live in this schema (created if missing); tests use one schema per run. */
  schema?: string;
  maxConnections?: number;
}

/** A pool; nothing connects until the first query, so this never fails on a database that is down. */
export function openPostgres(options: PostgresOptions): Database {
  const schema = options.schema;
  const { url } = options;
  const pool = new pg.Pool({
    ...(typeof url === "string"
      ? { connectionString: url, statement_timeout: options.timeoutMs }
      : // PGlite: one database, one user, and one backend that runs a statement at a time.
        { host: url.socketDirectory, port: url.port, user: "postgres", database: "postgres" }),
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.timeoutMs,
    query_timeout: options.timeoutMs,
    idleTimeoutMillis: 30_000,
    options: schema === undefined ? undefined : `-c search_path=${quoteIdentifier(schema)}`,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on("error", () => undefined);
  const query = async <Row extends object>(
    client: pg.Pool | pg.PoolClient,
    sql: string,
    params: readonly unknown[] = [],
  ): Promise<Row[]> => (await client.query<Row>(sql, [...params])).rows;
  return {
    kind: typeof url === "string" ? "postgres" : "pglite",
    schema,
    query: (sql, params) => unavailableOnConnectionError(() => query(pool, sql, params)),
    transaction: (work) =>
      unavailableOnConnectionError(async () => {
        const client = await pool.connect();
        // The pool listens for a lost connection only on idle clients: one lost while checked out
        // (PostgreSQL restarted during a transaction) emits 'error' on the client, which would crash
        // the process unheard. The statement under way fails with it anyway; the client is dropped.
        let broken = false;
        const onError = (): void => {
          broken = true;
        };
        client.on("error", onError);
        try {
          await client.query("BEGIN");
          const result = await work({ query: (sql, params) => query(client, sql, params) });
          await client.query("COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK").catch(() => {
            broken = true;
          });
          throw error;
        } finally {
          client.removeListener("error", onError);
          // A broken connection is closed rather than handed to the next caller.
          client.release(broken);
        }
      }),
    close: () => pool.end(),
  };
}

/** PGlite in memory (one process's, for tests). */
export async function openPgliteInMemory(): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  return pgliteDatabase(await PGlite.create());
}

/** An open PGlite instance as a Database (its owner's start-up work, or an in-memory one). */
export function pgliteDatabase(db: PGlite): Database {
  const query = async <Row extends object>(
    target: Pick<PGlite, "query">,
    sql: string,
    params: readonly unknown[] = [],
  ): Promise<Row[]> => (await target.query<Row>(sql, [...params])).rows;
  return {
    kind: "pglite",
    query: (sql, params) => query(db, sql, params),
    transaction: (work) => db.transaction((tx) => work({ query: (sql, params) => query(tx, sql, params) })),
    close: () => db.close(),
  };
}

/** Drops a schema made for a test run. */
export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // A session of a host that is shutting down may still hold locks in the schema; PostgreSQL then
    // picks one side of the cycle to abort (40P01, deadlock detected). The other side finishes, so the
    // drop tries again (a few times; anything else is thrown at once).
    for (let attempt = 1; ; attempt += 1) {
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
        return;
      } catch (error) {
        if (!(error instanceof pg.DatabaseError) || error.code !== "40P01" || attempt >= 5) throw error;
      }
    }
  } finally {
    await client.end();
  }
}
