// Exactly one indexer at a time: a session-level Postgres advisory lock held on a connection of its
// own (a crashed holder's connection closes and the lock passes on). Embedded PGlite is one session
// that every caller shares, where an advisory lock cannot tell holders apart, so there the claim is on
// the database object of this process (the only process that opens an embedded database directory).
import pg from "pg";

/** The advisory lock's first key; the second is the hash of the schema, so test schemas don't collide. */
const INDEXER_LOCK_CLASS = 726_351_002;
/** The keepers' lock class; its second key is the hash of what they keep (program and manager). */
export const KEEPER_LOCK_CLASS = 726_351_003;

export interface LeaderLock {
  /** True when this holder has (or just took) the lock. */
  tryAcquire(): Promise<boolean>;
  release(): Promise<void>;
}

export function postgresLeaderLock(
  url: string,
  schema: string,
  timeoutMs: number,
  lockClass: number = INDEXER_LOCK_CLASS,
): LeaderLock {
  let client: pg.Client | null = null;
  let held = false;
  const drop = (): void => {
    held = false;
    const closing = client;
    client = null;
    closing?.end().catch(() => undefined);
  };
  return {
    async tryAcquire() {
      if (held && client !== null) {
        // Still the holder only while the lock's connection answers: a connection that went silent
        // (a partition, a proxy that stopped forwarding) fails this within timeoutMs and the lock is
        // given up here, as the server gives it up when it notices the connection gone, so a
        // follower that took over never runs beside a leader that has not noticed.
        try {
          await client.query("SELECT 1");
          return true;
        } catch {
          drop();
          return false;
        }
      }
      if (client === null) {
        const fresh = new pg.Client({
          connectionString: url,
          connectionTimeoutMillis: timeoutMs,
          query_timeout: timeoutMs,
        });
        // A lost connection loses the lock with it; the next attempt reconnects.
        fresh.on("error", drop);
        fresh.on("end", () => {
          if (client === fresh) {
            held = false;
            client = null;
          }
        });
        client = fresh;
        try {
          await fresh.connect();
        } catch (error) {
          drop();
          throw error;
        }
      }
      const result = await client.query<{ locked: boolean }>(
        "SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked",
        [lockClass, schema],
      );
      held = result.rows[0]?.locked === true;
      return held;
    },
    async release() {
      const current = client;
      if (current !== null && held) {
        await current
          .query("SELECT pg_advisory_unlock($1, hashtext($2))", [lockClass, schema])
          .catch(() => undefined);
      }
      drop();
    },
  };
}

const embeddedHolders = new WeakMap<object, symbol>();

export function embeddedLeaderLock(database: object): LeaderLock {
  const token = Symbol("indexer");
  return {
    async tryAcquire() {
      const holder = embeddedHolders.get(database);
      if (holder === undefined) {
        embeddedHolders.set(database, token);
        return true;
      }
      return holder === token;
    },
    async release() {
      if (embeddedHolders.get(database) === token) {
        embeddedHolders.delete(database);
      }
    },
  };
}

/** The lock of a process that is the only one of its kind (no database to coordinate through). */
export function soleLeaderLock(): LeaderLock {
  return {
    async tryAcquire() {
      return true;
    },
    async release() {},
  };
}
