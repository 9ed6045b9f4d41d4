// npm run chaos [-- --quick] [--server api|web] [--json FILE]: two instances over the machine's
// PostgreSQL and Redis and a local chain: `npm run api`'s server by default (the same router, context,
// indexer and webhook worker as `npm start`, without the Next.js pages), or with `--server web`
// `npm start`'s own (after `npm run build`; a page session issued by one is then tried on the other).
// Partner traffic (reads, builds, deposits recorded through POST /api/history, webhook deliveries to a
// local receiver that verifies and records each webhook-id) runs through five faults in turn:
//   - PostgreSQL restart: every connection cut and new ones refused for the fault's length, through a
//     TCP proxy in front of the machine's PostgreSQL (restarting the server itself would cut every other
//     user of this machine's database, and needs its service manager);
//   - Redis down: the same, through a proxy in front of Redis;
//   - the RPC paused: a proxy in front of the chain's RPC and WebSocket that accepts and never answers;
//   - the instance that leads the indexer killed with SIGKILL while webhook deliveries are in flight
//     (the receiver answers slowly), then started again;
//   - one key used from both instances at twice its rate.
// It prints one row per fault: requests served (an answer under 500), 5xx, of which 503 with
// Retry-After, 429 with Retry-After, history rows lost/doubled, webhooks lost/doubled (a repeat under
// the same webhook-id is a retry, counted apart; a second webhook-id for one event is a double), and
// the recovery time (fault over → both instances' /api/health 200). A deposit's history is recorded by
// the partner until an instance answers 200, as a partner retries a 503.
// Faults last 30 s; --quick makes them 5 s (tests/chaos.test.ts). It creates a database of its own
// (chaos_<random>) on DATABASE_URL's server and drops it at the end; PostgreSQL and Redis are started as
// .ci/run starts them only when they do not answer.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync, type WriteStream } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Keypair, VersionedTransaction, type Connection } from "@solana/web3.js";
import pg from "pg";

import { exitOnCommandLineError, parseCommandLine, UsageError } from "../lib/cli/args";
import { Store } from "../lib/store/store";
import type { PartnerEvent } from "../lib/vault/model/partner-event";
import type { LocalnetHandle } from "../localnet/localnet";
import { closeConnection, connect, startTestLocalnet } from "../localnet/testing";
import { startTcpProxy } from "../tests/api/tcp-proxy";
import { startReceiver, type Receiver } from "../tests/api/webhook-receiver";

const USDC = 1_000_000n;
const REQUEST_TIMEOUT_MS = 10_000;
const SETTLE_MS = 120_000;
const WEBHOOK_PATH = "/chaos";

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** PostgreSQL and Redis as .ci/run starts them, only when they do not answer. */
function ensureServices(databaseUrl: URL, redisUrl: URL): void {
  const pgReady = spawnSync("pg_isready", [
    "-h",
    databaseUrl.hostname,
    "-p",
    databaseUrl.port || "5432",
    "-q",
  ]);
  if (pgReady.status !== 0) {
    console.log("chaos: PostgreSQL does not answer; starting it");
    const version = spawnSync("ls", ["/etc/postgresql"], { encoding: "utf8" }).stdout.trim();
    spawnSync("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", "start"], { stdio: "inherit" });
  }
  const redisPing = spawnSync("redis-cli", ["-h", redisUrl.hostname, "-p", redisUrl.port || "6379", "ping"], {
    encoding: "utf8",
  });
  if (redisPing.stdout.trim() !== "PONG") {
    console.log("chaos: Redis does not answer; starting it");
    spawnSync(
      "redis-server",
      [
        "--daemonize",
        "yes",
        "--bind",
        "127.0.0.1",
        "-::1",
        "--port",
        redisUrl.port || "6379",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        "/var/lib/redis",
        "--logfile",
        "/var/log/redis/ci.log",
      ],
      { stdio: "inherit" },
    );
  }
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** What one fault's window saw. */
interface PhaseStats {
  fault: string;
  requests: number;
  served: number;
  serverErrors: number;
  unavailableWithRetry: number;
  otherServerErrors: Map<string, number>;
  limitedWithRetry: number;
  noAnswer: number;
  /** Deposits confirmed on the chain while this phase's traffic ran. */
  deposits: string[];
  recoveryMs: number | null;
  note: string;
  /** Redis phase: each instance's rate_limits_shared halfway through the outage. */
  sharedDuring?: (number | null)[];
}

function newStats(fault: string): PhaseStats {
  return {
    fault,
    requests: 0,
    served: 0,
    serverErrors: 0,
    unavailableWithRetry: 0,
    otherServerErrors: new Map(),
    limitedWithRetry: 0,
    noAnswer: 0,
    deposits: [],
    recoveryMs: null,
    note: "",
  };
}

interface Answer {
  status: number;
  body: unknown;
}

interface Instance {
  name: string;
  port: number;
  url: string;
  child: ChildProcess | null;
  /** Answered its health check since it started: the load balancer sends it traffic. */
  ready: boolean;
  /** Set before chaos kills it: any other exit is a crash. */
  expectedExit: boolean;
  log: WriteStream;
}

interface Chaos {
  quick: boolean;
  /** api: `npm run api`'s server; web: `npm start`'s (the pages too; needs `npm run build`). */
  server: "api" | "web";
  faultMs: number;
  localnet: LocalnetHandle;
  connection: Connection;
  env: Record<string, string>;
  instances: Instance[];
  receiver: Receiver;
  key: string;
  metricsToken: string;
  /** Deposits whose history is not recorded yet: the partner retries until an instance says 200. */
  unrecorded: Map<string, { wallet: string; vault: string }>;
  wallets: Keypair[];
  vault: string;
  /** Instances that exited unasked (each restarted, as a supervisor would). */
  crashes: string[];
}

async function call(
  chaos: Chaos,
  stats: PhaseStats | null,
  instance: Instance,
  method: string,
  path: string,
  options: { body?: unknown; key?: string | null } = {},
): Promise<Answer | null> {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? chaos.key : options.key;
  if (key !== null) {
    headers.Authorization = `Bearer ${key}`;
  }
  if (options.body !== undefined) {
    headers["Content-Type"] = "application/json";
  }
  if (stats !== null) {
    stats.requests += 1;
  }
  try {
    const response = await fetch(`${instance.url}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    if (stats !== null) {
      if (response.status < 500) {
        stats.served += 1;
      } else {
        stats.serverErrors += 1;
        if (response.status === 503 && response.headers.has("retry-after")) {
          stats.unavailableWithRetry += 1;
        } else {
          const label = `${response.status} ${method} ${path.replace(/\/[1-9A-HJ-NP-Za-km-z]{32,44}/g, "/:id")}`;
          stats.otherServerErrors.set(label, (stats.otherServerErrors.get(label) ?? 0) + 1);
        }
      }
      if (response.status === 429 && response.headers.has("retry-after")) {
        stats.limitedWithRetry += 1;
      }
    }
    let body: unknown = null;
    try {
      body = text === "" ? null : JSON.parse(text);
    } catch {
      body = null;
    }
    return { status: response.status, body };
  } catch {
    if (stats !== null) {
      stats.noAnswer += 1;
    }
    return null;
  }
}

function dataOf(answer: Answer | null): Record<string, unknown> | null {
  if (answer === null || answer.status !== 200 || typeof answer.body !== "object" || answer.body === null) {
    return null;
  }
  const data = (answer.body as { data?: unknown }).data;
  return typeof data === "object" && data !== null ? (data as Record<string, unknown>) : null;
}

function live(chaos: Chaos): Instance[] {
  // As a load balancer does: only the instances that are up and have passed a health check.
  return chaos.instances.filter((instance) => instance.child !== null && instance.ready);
}

function pick<T>(items: readonly T[], index: number): T {
  const item = items[index % items.length];
  if (item === undefined) {
    throw new Error("nothing to pick from");
  }
  return item;
}

/** Records the history of the deposits not recorded yet, through any live instance. */
async function recordHistory(chaos: Chaos, stats: PhaseStats | null, round: number): Promise<void> {
  let index = round;
  for (const [signature, { wallet, vault }] of [...chaos.unrecorded]) {
    const instances = live(chaos);
    if (instances.length === 0) {
      return;
    }
    index += 1;
    const answer = await call(chaos, stats, pick(instances, index), "POST", "/api/history", {
      body: { wallet, vault_id: vault, signature },
    });
    if (answer?.status !== 200) {
      // The partner backs off and tries the rest on its next round.
      return;
    }
    chaos.unrecorded.delete(signature);
  }
}

/** One partner's loop: a read, a build, a deposit (built by the app, sent to the chain) and its history. */
async function partnerLoop(
  chaos: Chaos,
  stats: PhaseStats,
  worker: number,
  until: () => boolean,
): Promise<void> {
  let round = worker;
  const wallet = pick(chaos.wallets, worker);
  const owner = wallet.publicKey.toBase58();
  while (!until()) {
    round += 1;
    const instances = live(chaos);
    if (instances.length === 0) {
      await sleep(100);
      continue;
    }
    const failedBefore = stats.serverErrors + stats.noAnswer;
    const instance = pick(instances, round);
    await call(chaos, stats, instance, "GET", `/api/vault/${chaos.vault}/nav`);
    await call(chaos, stats, pick(instances, round + 1), "GET", "/api/vaults");
    const built = dataOf(
      await call(chaos, stats, instance, "POST", `/api/vault/${chaos.vault}/deposit`, {
        body: { wallet: owner, amount: String(USDC / 100n + BigInt(round % 97)) },
      }),
    );
    if (built !== null && typeof built.transaction === "string") {
      try {
        const transaction = VersionedTransaction.deserialize(Buffer.from(built.transaction, "base64"));
        transaction.sign([wallet]);
        const signature = await chaos.connection.sendTransaction(transaction, { skipPreflight: true });
        const latest = await chaos.connection.getLatestBlockhash();
        const result = await chaos.connection.confirmTransaction({ signature, ...latest }, "confirmed");
        if (result.value.err === null) {
          stats.deposits.push(signature);
          chaos.unrecorded.set(signature, { wallet: owner, vault: chaos.vault });
        }
      } catch {
        // A blockhash the paused RPC let go stale: the partner builds again.
      }
    }
    await recordHistory(chaos, stats, round);
    // A round that met a 5xx backs off (less than Retry-After, so the fault is still probed often).
    await sleep(stats.serverErrors + stats.noAnswer > failedBefore ? 500 : 50);
  }
}

async function healthy(chaos: Chaos, instance: Instance): Promise<boolean> {
  try {
    const response = await fetch(`${instance.url}/api/health`, {
      headers: { Authorization: `Bearer ${chaos.metricsToken}` },
      signal: AbortSignal.timeout(3_000),
    });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** Milliseconds until every instance answers /api/health 200 (null: not within `limitMs`). */
async function recovery(chaos: Chaos, since: number, limitMs = 90_000): Promise<number | null> {
  while (Date.now() - since < limitMs) {
    const states = await Promise.all(chaos.instances.map((instance) => healthy(chaos, instance)));
    if (states.every(Boolean)) {
      return Date.now() - since;
    }
    await sleep(100);
  }
  return null;
}

async function startInstance(chaos: Chaos, instance: Instance): Promise<void> {
  // node itself (tsx as a loader), so a SIGKILL kills the server and not a wrapper.
  const script = chaos.server === "web" ? "scripts/web.ts" : "scripts/api.ts";
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    env: { ...process.env, ...chaos.env, PORT: String(instance.port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.pipe(instance.log, { end: false });
  child.stderr.pipe(instance.log, { end: false });
  instance.child = child;
  instance.ready = false;
  instance.expectedExit = false;
  child.once("exit", (code, signal) => {
    instance.log.write(`chaos: ${instance.name} exited (${signal ?? code})\n`);
    if (instance.child === child) {
      instance.child = null;
      instance.ready = false;
      if (!instance.expectedExit) {
        const crash = `${new Date().toISOString()} ${instance.name} exited (${signal ?? code}) unasked`;
        console.log(`chaos: ${crash}; restarting it (its log has why)`);
        chaos.crashes.push(crash);
        startInstance(chaos, instance).catch((error: unknown) =>
          console.error(`chaos: restarting ${instance.name}: ${errorText(error)}`),
        );
      }
    }
  });
  const started = Date.now();
  while (!(await healthy(chaos, instance))) {
    if (instance.child === null || Date.now() - started > 120_000) {
      throw new Error(`instance ${instance.name} did not become healthy; see its log`);
    }
    await sleep(200);
  }
  instance.ready = true;
}

/**
 * `npm start` only: the session cookie a page on A sets opens the pages' event stream on B (the
 * browser is the same: its address and User-Agent).
 */
async function sessionAcrossInstances(chaos: Chaos): Promise<boolean> {
  const [first, second] = chaos.instances;
  if (first === undefined || second === undefined) {
    return false;
  }
  const userAgent = "chaos-browser";
  const page = await fetch(`${first.url}/`, {
    headers: { "User-Agent": userAgent },
    signal: AbortSignal.timeout(60_000),
  });
  await page.arrayBuffer();
  const cookie = page.headers
    .getSetCookie()
    .map((line) => line.split(";")[0] ?? "")
    .find((pair) => pair.startsWith("vg_session="));
  if (cookie === undefined) {
    return false;
  }
  const controller = new AbortController();
  try {
    const stream = await fetch(`${second.url}/api/events/stream?vault=${chaos.vault}`, {
      headers: { "User-Agent": userAgent, "Sec-Fetch-Site": "same-origin", Cookie: cookie },
      signal: controller.signal,
    });
    return stream.status === 200;
  } finally {
    controller.abort();
  }
}

async function metricValue(chaos: Chaos, instance: Instance, name: string): Promise<number | null> {
  try {
    const response = await fetch(`${instance.url}/metrics`, {
      headers: { Authorization: `Bearer ${chaos.metricsToken}` },
      signal: AbortSignal.timeout(3_000),
    });
    const line = (await response.text()).split("\n").find((text) => text.startsWith(`${name} `));
    return line === undefined ? null : Number(line.split(" ")[1]);
  } catch {
    return null;
  }
}

/** Traffic through `lead`, the fault for the fault's length, then traffic until recovery and a tail. */
async function runPhase(
  chaos: Chaos,
  fault: string,
  inject: () => Promise<void>,
  restore: () => Promise<void>,
): Promise<PhaseStats> {
  const stats = newStats(fault);
  let done = false;
  const partners = Array.from({ length: 3 }, (_unused, worker) =>
    partnerLoop(chaos, stats, worker, () => done),
  );
  const lead = chaos.quick ? 1_000 : 3_000;
  await sleep(lead);
  console.log(`chaos: ${fault}: fault on for ${chaos.faultMs / 1000} s`);
  await inject();
  await sleep(chaos.faultMs);
  await restore();
  const restoredAt = Date.now();
  stats.recoveryMs = await recovery(chaos, restoredAt);
  console.log(
    `chaos: ${fault}: restored; ${stats.recoveryMs === null ? "not healthy within 90 s" : `healthy after ${stats.recoveryMs} ms`}`,
  );
  await sleep(lead);
  done = true;
  await Promise.all(partners);
  return stats;
}

/** One key at twice its rate, alternately through both instances, within one window of its limit. */
async function rateLimitPhase(chaos: Chaos, store: Store): Promise<PhaseStats> {
  const fault = "one key at 2x its rate from both instances";
  const stats = newStats(fault);
  const rpm = chaos.quick ? 20 : 60;
  const { secret } = await store.keys.create({ name: "chaos double rate", scope: "read", rpm });
  const total = rpm * 2;
  const spacing = chaos.faultMs / total;
  let ok = 0;
  const started = Date.now();
  const calls: Promise<void>[] = [];
  for (let index = 0; index < total; index += 1) {
    const instance = pick(live(chaos), index);
    calls.push(
      call(chaos, stats, instance, "GET", `/api/vault/${chaos.vault}/nav`, { key: secret }).then((answer) => {
        if (answer?.status === 200) {
          ok += 1;
        }
      }),
    );
    await sleep(Math.max(0, started + (index + 1) * spacing - Date.now()));
  }
  await Promise.all(calls);
  stats.recoveryMs = 0;
  stats.note = `limit ${rpm}/min, sent ${total}: ${ok} served with 200, ${stats.limitedWithRetry} got 429 with Retry-After`;
  return stats;
}

interface Outcome {
  historyLost: number;
  historyDoubled: number;
  webhooksLost: number;
  webhooksDoubled: number;
  webhookRetries: number;
}

async function outcomes(chaos: Chaos, store: Store, deposits: readonly string[]): Promise<Outcome> {
  const outcome: Outcome = {
    historyLost: 0,
    historyDoubled: 0,
    webhooksLost: 0,
    webhooksDoubled: 0,
    webhookRetries: 0,
  };
  if (deposits.length === 0) {
    return outcome;
  }
  const rows = await store.query<{ signature: string; rows: string }>(
    "SELECT signature, count(*)::text AS rows FROM history WHERE signature = ANY($1) GROUP BY signature",
    [deposits],
  );
  const counted = new Map(rows.map((row) => [row.signature, Number(row.rows)]));
  const deliveries = new Map<string, string[]>();
  for (const entry of chaos.receiver.verifiedOn(WEBHOOK_PATH)) {
    const event = entry.event as PartnerEvent | null;
    if (event?.type === "deposit.confirmed" && event.signature !== null) {
      deliveries.set(event.signature, [...(deliveries.get(event.signature) ?? []), entry.webhookId]);
    }
  }
  for (const signature of deposits) {
    const historyRows = counted.get(signature) ?? 0;
    if (historyRows === 0) {
      outcome.historyLost += 1;
    } else if (historyRows > 1) {
      outcome.historyDoubled += historyRows - 1;
    }
    const ids = deliveries.get(signature) ?? [];
    const distinct = new Set(ids).size;
    if (distinct === 0) {
      outcome.webhooksLost += 1;
    } else {
      outcome.webhooksDoubled += distinct - 1;
      outcome.webhookRetries += ids.length - distinct;
    }
  }
  return outcome;
}

/** Until every deposit's history is recorded and its webhook received, or SETTLE_MS. */
async function settle(chaos: Chaos, store: Store, deposits: readonly string[]): Promise<void> {
  const started = Date.now();
  let round = 0;
  while (Date.now() - started < SETTLE_MS) {
    round += 1;
    await recordHistory(chaos, null, round);
    const outcome = await outcomes(chaos, store, deposits).catch(() => null);
    if (outcome !== null && chaos.unrecorded.size === 0 && outcome.webhooksLost === 0) {
      return;
    }
    await sleep(500);
  }
}

function table(rows: readonly (PhaseStats & Outcome)[]): string {
  const header = [
    "fault",
    "requests",
    "served",
    "5xx",
    "503+Retry-After",
    "429+Retry-After",
    "no answer",
    "history lost/doubled",
    "webhooks lost/doubled (same-id retries)",
    "recovery",
  ];
  const lines = rows.map((row) => [
    row.fault,
    String(row.requests),
    String(row.served),
    String(row.serverErrors),
    String(row.unavailableWithRetry),
    String(row.limitedWithRetry),
    String(row.noAnswer),
    `${row.historyLost}/${row.historyDoubled} of ${row.deposits.length}`,
    `${row.webhooksLost}/${row.webhooksDoubled} (${row.webhookRetries})`,
    row.recoveryMs === null ? "none in 90 s" : `${(row.recoveryMs / 1000).toFixed(1)} s`,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => (line[column] ?? "").length)),
  );
  const format = (cells: readonly string[]): string =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(" | ")} |`;
  return [
    format(header),
    `| ${widths.map((width) => "-".repeat(width)).join(" | ")} |`,
    ...lines.map(format),
  ].join("\n");
}

const CHAOS_USAGE = "Usage: npm run chaos -- [--quick] [--server api|web] [--json <file>]";

async function main(): Promise<void> {
  const { values } = parseCommandLine(process.argv.slice(2), {
    quick: { type: "boolean", default: false },
    json: { type: "string" },
    server: { type: "string", default: "api" },
  });
  const quick = values.quick;
  const server = values.server;
  if (server !== "api" && server !== "web") {
    throw new UsageError(`--server must be api or web; got "${server}"`);
  }
  if (server === "web" && !existsSync(".next/BUILD_ID")) {
    throw new Error("--server web runs npm start's server: build it first (npm run build)");
  }
  const faultMs = quick ? 5_000 : 30_000;
  const baseDatabaseUrl = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test");
  const redisUrl = new URL(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
  ensureServices(baseDatabaseUrl, redisUrl);

  const database = `chaos_${randomBytes(6).toString("hex")}`;
  await adminQuery(baseDatabaseUrl.toString(), `CREATE DATABASE ${database}`);
  const directDatabaseUrl = new URL(baseDatabaseUrl);
  directDatabaseUrl.pathname = `/${database}`;
  const logDir = await mkdtemp(join(tmpdir(), "chaos-"));
  console.log(`chaos: database ${database}; instance logs in ${logDir}`);

  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async (): Promise<void> => {
    for (const step of cleanups.reverse()) {
      await step().catch((error: unknown) => console.error(`chaos: cleanup: ${errorText(error)}`));
    }
  };
  cleanups.push(() =>
    adminQuery(baseDatabaseUrl.toString(), `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`),
  );
  try {
    const localnet = await startTestLocalnet();
    cleanups.push(() => localnet.stop());
    const rpcProxy = await startTcpProxy("127.0.0.1", Number(new URL(localnet.rpcUrl).port));
    const wsProxy = await startTcpProxy("127.0.0.1", Number(new URL(localnet.wsUrl).port));
    const pgProxy = await startTcpProxy(baseDatabaseUrl.hostname, Number(baseDatabaseUrl.port || "5432"));
    const redisProxy = await startTcpProxy(redisUrl.hostname, Number(redisUrl.port || "6379"));
    for (const proxy of [rpcProxy, wsProxy, pgProxy, redisProxy]) {
      cleanups.push(() => proxy.close());
    }
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const proxiedDatabase = new URL(directDatabaseUrl);
    proxiedDatabase.hostname = "127.0.0.1";
    proxiedDatabase.port = String(pgProxy.port);
    const proxiedRedis = new URL(redisUrl);
    proxiedRedis.hostname = "127.0.0.1";
    proxiedRedis.port = String(redisProxy.port);
    const metricsToken = randomBytes(16).toString("hex");
    const env: Record<string, string> = {
      // Production refuses http:// webhook targets, and the receiver here is plain http on loopback:
      // everything else (limits, store, worker, indexer) behaves the same.
      NODE_ENV: "development",
      HOST: "127.0.0.1",
      RPC_URL: `http://127.0.0.1:${rpcProxy.port}`,
      INDEXER_WS_URL: `ws://127.0.0.1:${wsProxy.port}`,
      LOCALNET_ADDRESSES_FILE: localnet.config.addressesFile,
      SLOT_MS: String(localnet.config.slotMs),
      DATABASE_URL: proxiedDatabase.toString(),
      REDIS_URL: proxiedRedis.toString(),
      METRICS_TOKEN: metricsToken,
      WEBHOOKS: "on",
      WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64"),
      // The receiver listens on this machine.
      WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1/32",
      WEBHOOK_TIMEOUT_MS: "5000",
      INDEXER_INTERVAL_SECONDS: "1",
      LOG_LEVEL: "info",
    };
    const store = new Store({ databaseUrl: directDatabaseUrl.toString(), pgliteDir: null, timeoutMs: 5_000 });
    cleanups.push(() => store.close());
    await store.ready();
    const { secret: key } = await store.keys.create({
      name: "chaos partner",
      scope: "write",
      rpm: 1_000_000,
    });
    const [prime] = localnet.addresses.vaults;
    if (prime === undefined) {
      throw new Error("The localnet has no demo vaults (is programs/vault/vault.so built?)");
    }
    const wallets = Array.from({ length: 3 }, () => Keypair.generate());
    for (const wallet of wallets) {
      localnet.faucet.dispenseUsdc(wallet.publicKey, 1_000_000n * USDC);
    }
    const connection = connect(localnet);
    cleanups.push(async () => closeConnection(connection));
    const instances: Instance[] = [];
    for (const name of ["A", "B"]) {
      instances.push({
        name,
        port: await freePort(),
        url: "",
        child: null,
        ready: false,
        expectedExit: false,
        log: createWriteStream(join(logDir, `${name}.log`)),
      });
    }
    for (const instance of instances) {
      instance.url = `http://127.0.0.1:${instance.port}`;
    }
    const chaos: Chaos = {
      quick,
      server,
      faultMs,
      localnet,
      connection,
      env,
      instances,
      receiver,
      key,
      metricsToken,
      unrecorded: new Map(),
      wallets,
      vault: prime.vault.toBase58(),
      crashes: [],
    };
    cleanups.push(async () => {
      for (const instance of instances) {
        instance.expectedExit = true;
        instance.child?.kill("SIGKILL");
        instance.log.end();
      }
    });
    await startInstance(chaos, pick(instances, 0));
    await startInstance(chaos, pick(instances, 1));
    const registered = dataOf(
      await call(chaos, null, pick(instances, 0), "POST", "/api/webhooks", {
        body: { url: `${receiver.url}${WEBHOOK_PATH}`, events: ["deposit.confirmed"] },
      }),
    );
    if (registered === null) {
      throw new Error("registering the webhook endpoint failed");
    }
    receiver.secrets.set(WEBHOOK_PATH, [String(registered.secret)]);
    console.log(
      `chaos: two ${server === "web" ? "npm start" : "npm run api"} instances up (${instances.map((instance) => instance.url).join(", ")})`,
    );
    const sessionAcross = server === "web" ? await sessionAcrossInstances(chaos) : null;
    if (sessionAcross !== null) {
      console.log(`chaos: a page session issued by A ${sessionAcross ? "is" : "is NOT"} accepted by B`);
    }

    const phases: PhaseStats[] = [];
    phases.push(
      await runPhase(
        chaos,
        "PostgreSQL restart (proxy cut)",
        async () => pgProxy.setMode("refuse"),
        async () => pgProxy.setMode("forward"),
      ),
    );
    // What each instance's /metrics says of its limits halfway through the outage, and after it.
    const sharedFlags = (): Promise<(number | null)[]> =>
      Promise.all(instances.map((instance) => metricValue(chaos, instance, "rate_limits_shared")));
    let sharedDuring: Promise<(number | null)[]> = Promise.resolve([]);
    phases.push(
      await runPhase(
        chaos,
        "Redis down (proxy cut)",
        async () => {
          redisProxy.setMode("refuse");
          sharedDuring = sleep(faultMs / 2).then(sharedFlags);
        },
        async () => {
          await sharedDuring;
          redisProxy.setMode("forward");
        },
      ),
    );
    const redisPhase = phases.at(-1);
    if (redisPhase !== undefined) {
      const during = await sharedDuring;
      redisPhase.sharedDuring = during;
      redisPhase.note = `rate_limits_shared in /metrics during the outage: ${during.join(", ")}; after: ${(await sharedFlags()).join(", ")}`;
    }
    phases.push(
      await runPhase(
        chaos,
        "RPC paused (proxy blackhole)",
        async () => {
          rpcProxy.setMode("blackhole");
          wsProxy.setMode("blackhole");
        },
        async () => {
          rpcProxy.setMode("forward");
          wsProxy.setMode("forward");
        },
      ),
    );
    // The indexer's leader is the one killed, so the kill tests its failover as well.
    let victim = pick(instances, 1);
    let inFlightAtKill = 0;
    let failover: Promise<number | null> = Promise.resolve(null);
    let leaderAfterMs: number | null = null;
    phases.push(
      await runPhase(
        chaos,
        "instance SIGKILL during deliveries",
        async () => {
          receiver.delayMs = 1_500;
          const waitStarted = Date.now();
          while (receiver.pending === 0 && Date.now() - waitStarted < 15_000) {
            await sleep(20);
          }
          inFlightAtKill = receiver.pending;
          for (const instance of instances) {
            if ((await metricValue(chaos, instance, "indexer_leader")) === 1) {
              victim = instance;
            }
          }
          const survivor = pick(
            instances.filter((instance) => instance !== victim),
            0,
          );
          victim.expectedExit = true;
          victim.child?.kill("SIGKILL");
          const killedAt = Date.now();
          // The survivor's indexer takes the lock once the server drops the dead one's connection.
          failover = (async () => {
            while (Date.now() - killedAt < 60_000) {
              if ((await metricValue(chaos, survivor, "indexer_leader")) === 1) {
                return Date.now() - killedAt;
              }
              await sleep(100);
            }
            return null;
          })();
        },
        async () => {
          receiver.delayMs = 0;
          leaderAfterMs = await failover;
          await startInstance(chaos, victim);
        },
      ),
    );
    const killed = phases.at(-1);
    if (killed !== undefined) {
      killed.note = `${inFlightAtKill} deliveries in flight at the kill; killed ${victim.name}, the indexer's leader; ${leaderAfterMs === null ? "the survivor did not lead within 60 s" : `the survivor led ${leaderAfterMs} ms after the kill`}`;
    }
    phases.push(await rateLimitPhase(chaos, store));

    const deposits = phases.flatMap((phase) => phase.deposits);
    console.log(`chaos: settling (${deposits.length} deposits: history and webhooks)`);
    await settle(chaos, store, deposits);
    const rows: (PhaseStats & Outcome)[] = [];
    for (const phase of phases) {
      rows.push({ ...phase, ...(await outcomes(chaos, store, phase.deposits)) });
    }
    console.log("");
    console.log(table(rows));
    for (const row of rows) {
      if (row.note !== "") {
        console.log(`- ${row.fault}: ${row.note}`);
      }
      for (const [label, count] of row.otherServerErrors) {
        console.log(`- ${row.fault}: ${count} x ${label} (a 5xx other than 503 with Retry-After)`);
      }
      if (row.noAnswer > 0) {
        console.log(
          `- ${row.fault}: ${row.noAnswer} requests got no answer within ${REQUEST_TIMEOUT_MS / 1000} s (or hit a killed instance)`,
        );
      }
    }
    console.log(
      chaos.crashes.length === 0
        ? "- no instance exited unasked"
        : chaos.crashes.map((crash) => `- CRASH: ${crash}`).join("\n"),
    );
    const result = {
      quick,
      server,
      sessionAcrossInstances: sessionAcross,
      crashes: chaos.crashes,
      faultSeconds: faultMs / 1000,
      phases: rows.map((row) => ({
        fault: row.fault,
        requests: row.requests,
        served: row.served,
        serverErrors: row.serverErrors,
        unavailableWithRetry: row.unavailableWithRetry,
        otherServerErrors: Object.fromEntries(row.otherServerErrors),
        limitedWithRetry: row.limitedWithRetry,
        noAnswer: row.noAnswer,
        deposits: row.deposits.length,
        historyLost: row.historyLost,
        historyDoubled: row.historyDoubled,
        webhooksLost: row.webhooksLost,
        webhooksDoubled: row.webhooksDoubled,
        webhookRetries: row.webhookRetries,
        recoveryMs: row.recoveryMs,
        note: row.note,
        ...(row.sharedDuring === undefined ? {} : { sharedDuring: row.sharedDuring }),
      })),
    };
    console.log(`chaos-result ${JSON.stringify(result)}`);
    if (values.json !== undefined) {
      await writeFile(values.json, JSON.stringify(result, null, 2));
    }
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    exitOnCommandLineError("chaos", CHAOS_USAGE, error);
    console.error(`chaos: ${errorText(error)}`);
    process.exit(1);
  },
);
