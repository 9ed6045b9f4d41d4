// One owner for an embedded PGlite directory, raced with real processes: the app's store
// (pglite-owner-child.ts) and `npm run keys -- create` (scripts/keys.ts) started at several moments of
// the app's start-up, two CLIs at once with no app, and the app killed with SIGKILL in the middle of
// its writes and started again. Every key a process printed must work afterwards, and no process may
// log PGlite's WebAssembly abort. Outcomes only: no step waits a fixed time.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";

import { hashApiKey } from "../../lib/store/api-keys";
import { PGLITE_SOCKET_PORT } from "../../lib/store/pglite-owner";
import { Store } from "../../lib/store/store";

const ROOT = resolve(__dirname, "../..");
const KEY_LINE = /^(?:key )?(vk_(?:live|test)_[1-9A-HJ-NP-Za-km-z]+)$/;

interface Run {
  child: ChildProcess;
  lines: string[];
  output: () => string;
  exited: Promise<number | null>;
  /** Resolves once a line passes `test` (rejects if the process exits first). */
  waitForLine(test: (line: string) => boolean): Promise<void>;
}

const runs: Run[] = [];
const directories: string[] = [];

function start(args: string[], env: Record<string, string>): Run {
  const baseEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  // The race is PGlite's: these processes never see a PostgreSQL URL.
  delete baseEnv.DATABASE_URL;
  // tsx as a loader (not a wrapper process), so a signal reaches the process under test itself.
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    cwd: ROOT,
    env: baseEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  let text = "";
  const waiters: { test: (line: string) => boolean; resolve: () => void; reject: (e: Error) => void }[] = [];
  const take = (chunk: Buffer): void => {
    text += chunk.toString("utf8");
    const parts = text.split("\n");
    text = parts.pop() ?? "";
    for (const line of parts) {
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.test(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    }
  };
  let all = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    all += chunk.toString("utf8");
    take(chunk);
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    all += chunk.toString("utf8");
  });
  const exited = new Promise<number | null>((done) =>
    child.once("exit", (code) => {
      for (const waiter of waiters.splice(0)) {
        waiter.reject(new Error(`${args.join(" ")} exited (${String(code)}) first:\n${all}`));
      }
      done(code);
    }),
  );
  const run: Run = {
    child,
    lines,
    output: () => all,
    exited,
    waitForLine: (test) =>
      lines.some(test)
        ? Promise.resolve()
        : new Promise<void>((resolveWait, reject) => waiters.push({ test, resolve: resolveWait, reject })),
  };
  runs.push(run);
  return run;
}

function startOwner(directory: string, writes = false): Run {
  return start(["tests/store/pglite-owner-child.ts"], {
    OWNER_PGLITE_DIR: directory,
    OWNER_WRITES: writes ? "1" : "0",
  });
}

function createKeyCli(directory: string, name: string): Run {
  return start(["scripts/keys.ts", "create", "--name", name, "--test"], { PGLITE_DIR: directory });
}

function printedKeys(run: Run): string[] {
  return run.lines.flatMap((line) => {
    const match = KEY_LINE.exec(line.trim());
    return match?.[1] === undefined ? [] : [match[1]];
  });
}

async function stop(run: Run): Promise<void> {
  if (run.child.exitCode === null && run.child.signalCode === null) {
    run.child.kill("SIGTERM");
  }
  await run.exited;
}

async function freshDirectory(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), "pglite-owner-"));
  directories.push(directory);
  return join(directory, "db");
}

/** Opens the directory as its owner (nothing else runs by now) and finds each key. */
async function unknownKeys(directory: string, secrets: readonly string[]): Promise<string[]> {
  const store = new Store({ databaseUrl: null, pgliteDir: directory, timeoutMs: 10_000 });
  try {
    const missing: string[] = [];
    for (const secret of secrets) {
      const record = await store.keys.findByHash(hashApiKey(secret));
      if (record === null || record.revokedAt !== null) {
        missing.push(secret);
      }
    }
    return missing;
  } finally {
    await store.close();
  }
}

function expectNoAbort(all: readonly Run[]): void {
  for (const run of all) {
    expect(run.output()).not.toMatch(/Aborted\(\)|RuntimeError/);
  }
}

afterEach(async () => {
  for (const run of runs.splice(0)) {
    run.child.kill("SIGKILL");
    await run.exited;
  }
});

afterAll(async () => {
  for (const directory of directories) {
    // The mkdtemp directory itself (its "db" child is the store): never its parent, the machine's tmpdir.
    await rm(directory, { recursive: true, force: true });
  }
});

describe("one owner for a PGlite directory", { timeout: 240_000 }, () => {
  it("keeps every key created before, during and after the app's start-up", async () => {
    const directory = await freshDirectory();
    // Before the app: this CLI holds the directory for its run (the app waits for it).
    const before = createKeyCli(directory, "before");
    const owner = startOwner(directory);
    // While the app starts.
    const during = [createKeyCli(directory, "during-1"), createKeyCli(directory, "during-2")];
    await owner.waitForLine((line) => line === "ready");
    // Once it is up.
    const after = [createKeyCli(directory, "after-1"), createKeyCli(directory, "after-2")];
    const clis = [before, ...during, ...after];
    const codes = await Promise.all(clis.map((cli) => cli.exited));
    expect(codes, clis.map((cli) => cli.output()).join("\n---\n")).toEqual(clis.map(() => 0));
    const secrets = clis.flatMap(printedKeys);
    expect(secrets).toHaveLength(clis.length);
    // The running app serves them (a CLI connected to it), and after a restart they are still there.
    await stop(owner);
    expect(await owner.exited).toBe(0);
    expect(await unknownKeys(directory, secrets)).toEqual([]);
    expectNoAbort([owner, ...clis]);
  });

  it("lets two CLIs create keys at once with no app running", async () => {
    const directory = await freshDirectory();
    const clis = [
      createKeyCli(directory, "one"),
      createKeyCli(directory, "two"),
      createKeyCli(directory, "three"),
    ];
    const codes = await Promise.all(clis.map((cli) => cli.exited));
    expect(codes, clis.map((cli) => cli.output()).join("\n---\n")).toEqual([0, 0, 0]);
    const secrets = clis.flatMap(printedKeys);
    expect(new Set(secrets).size).toBe(3);
    expect(await unknownKeys(directory, secrets)).toEqual([]);
    expectNoAbort(clis);
  });

  it("loses nothing committed when the app is killed with SIGKILL mid-write, and starts again", async () => {
    const directory = await freshDirectory();
    const first = startOwner(directory, true);
    await first.waitForLine((line) => line.startsWith("key "));
    // CLIs racing the crash: each either prints a key that works or fails without printing one.
    const racing = [createKeyCli(directory, "race-1"), createKeyCli(directory, "race-2")];
    let seen = 0;
    await first.waitForLine((line) => line.startsWith("key ") && ++seen >= 10);
    first.child.kill("SIGKILL");
    await first.exited;
    await Promise.all(racing.map((cli) => cli.exited));
    // The directory's dead owner left its sockets; the next owner recovers them and opens the files.
    const second = startOwner(directory);
    await second.waitForLine((line) => line === "ready");
    const later = createKeyCli(directory, "after-restart");
    expect(await later.exited, later.output()).toBe(0);
    await stop(second);
    const secrets = [first, ...racing, later].flatMap(printedKeys);
    expect(secrets.length).toBeGreaterThanOrEqual(11);
    expect(await unknownKeys(directory, secrets)).toEqual([]);
    expectNoAbort([first, second, ...racing, later]);
  });

  it("keeps concurrent connections' parameterised queries and transactions apart", async () => {
    const directory = await freshDirectory();
    const owner = new Store({ databaseUrl: null, pgliteDir: directory, timeoutMs: 10_000 });
    await owner.ready();
    const pool = new pg.Pool({
      host: directory,
      port: PGLITE_SOCKET_PORT,
      user: "postgres",
      database: "postgres",
      max: 8,
    });
    try {
      await pool.query("CREATE TABLE race (n integer NOT NULL)");
      // Statements of different shapes at once: a Bind that reached another connection's Parse would
      // fail, or answer the other statement's columns.
      const answers = await Promise.all(
        Array.from({ length: 120 }, async (_, index) => {
          if (index % 3 === 0) {
            const { rows } = await pool.query<{ a: number }>("SELECT $1::int AS a", [index]);
            return rows[0]?.a === index;
          }
          if (index % 3 === 1) {
            const { rows } = await pool.query<{ b: string; c: string }>(
              "SELECT $1::text AS b, $2::text AS c",
              [`b${index}`, `c${index}`],
            );
            return rows[0]?.b === `b${index}` && rows[0]?.c === `c${index}`;
          }
          // A transaction that rolls back: none of its rows may land, nor may another's be undone.
          const client = await pool.connect();
          try {
            await client.query("BEGIN");
            await client.query("INSERT INTO race (n) VALUES ($1)", [index]);
            await client.query(index % 2 === 0 ? "COMMIT" : "ROLLBACK");
            return true;
          } finally {
            client.release();
          }
        }),
      );
      expect(answers.every(Boolean)).toBe(true);
      const committed = Array.from({ length: 120 }, (_, index) => index).filter(
        (index) => index % 3 === 2 && index % 2 === 0,
      );
      const { rows } = await pool.query<{ n: number }>("SELECT n FROM race ORDER BY n");
      expect(rows.map((row) => row.n)).toEqual(committed);
    } finally {
      await pool.end();
      await owner.close();
    }
  });
});
