// The PostgreSQL leader lock between two holders (two instances' indexers, or two keepers): one holds,
// the other is refused; when the holder's session dies (its process killed: the server ends its
// connection, here by pg_terminate_backend) the other takes the lock on its next try, and the old
// holder, asking again, learns it no longer leads rather than running beside the new one. Needs
// DATABASE_URL; skipped with a note otherwise.
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";

import { KEEPER_LOCK_CLASS, postgresLeaderLock, type LeaderLock } from "./leader-lock";

const DATABASE_URL = process.env.DATABASE_URL ?? null;
if (DATABASE_URL === null) {
  console.warn("leader-lock: DATABASE_URL is not set; skipping the PostgreSQL leader lock tests");
}

const opened: LeaderLock[] = [];

afterEach(async () => {
  for (const lock of opened.splice(0)) {
    await lock.release();
  }
});

function lockOf(url: string, name: string, lockClass?: number): LeaderLock {
  const lock = postgresLeaderLock(url, name, 2_000, lockClass);
  opened.push(lock);
  return lock;
}

/**
 * Ends every session holding an advisory lock on `name` (as the server does for a killed client),
 * waiting up to 5 s for each to be gone (PostgreSQL 14+): without the wait, pg_terminate_backend only
 * signals, and the lock may still be held when the other holder asks (seen once in CI).
 */
async function killHolder(url: string, name: string, lockClass: number): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const result = await admin.query<{ ended: boolean }>(
      `SELECT pg_terminate_backend(pid, 5000) AS ended FROM pg_locks
        WHERE locktype = 'advisory' AND classid = $1::oid AND objid = hashtext($2)::oid AND granted`,
      [lockClass, name],
    );
    return result.rows.filter((row) => row.ended).length;
  } finally {
    await admin.end();
  }
}

describe.skipIf(DATABASE_URL === null)("postgresLeaderLock", () => {
  const url = DATABASE_URL ?? "";

  it.each([
    ["indexer", 726_351_002],
    ["keeper", KEEPER_LOCK_CLASS],
  ])("lets one %s lead, and the other take over when the leader's session dies", async (kind, lockClass) => {
    const name = `${kind}-lock-test-${Date.now()}-${Math.random()}`;
    const first = lockOf(url, name, kind === "keeper" ? KEEPER_LOCK_CLASS : undefined);
    const second = lockOf(url, name, kind === "keeper" ? KEEPER_LOCK_CLASS : undefined);
    expect(await first.tryAcquire()).toBe(true);
    expect(await second.tryAcquire()).toBe(false);
    expect(await first.tryAcquire()).toBe(true);
    expect(await second.tryAcquire()).toBe(false);

    expect(await killHolder(url, name, lockClass)).toBe(1);
    expect(await second.tryAcquire()).toBe(true);
    // The old leader's connection is gone: it is told so, and then waits its turn.
    expect(await first.tryAcquire()).toBe(false);
    expect(await first.tryAcquire()).toBe(false);
    expect(await second.tryAcquire()).toBe(true);

    // A graceful release hands it straight back.
    await second.release();
    expect(await first.tryAcquire()).toBe(true);
  });
});
