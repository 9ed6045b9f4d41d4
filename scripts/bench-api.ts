// npm run bench:api — in one run on this machine, on the lean node:http host (`npm run api`) and on
// `npm start`'s server (the API answered before Next.js), next to a bare node:http server answering a
// constant JSON body: the keyless oracle's and the partner NAV read's req/s as a share of bare; deposit
// builds/s with p50/p99 at 50 concurrent connections (warm caches) and their RPC calls per request;
// then, on the lean host, withdrawal status p50/p99 (10 connections), the directory and the portfolio.
// The keyless limit is raised in the benchmark's server so the oracle is measured rather than its 429s.
// The servers run in a child process (scripts/bench-api-server.ts); autocannon runs here. npm start
// needs a `next build`: the last one is reused when it is newer than every source it is built from
// (BENCH_SKIP_BUILD=1 reuses any build), else the app is built once first.
// BENCH_PROFILE=1: after the measured rounds, the oracle, the NAV read and the deposit build run once
// more on each host, and the withdrawal status on the lean host, under the server process's CPU
// profiler (an inspector Session); each profile is written to
// BENCH_PROFILE_DIR (default: the system's temporary directory) as <read>-<host>.cpuprofile (open it in
// Chrome DevTools) and its top self-time functions and the project's functions by total time are
// printed (scripts/cpu-profile-summary.ts). The measured figures are taken without the profiler.
import { fork, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";

import type { Profiler } from "node:inspector";

import autocannon from "autocannon";
import { Connection, Keypair, VersionedTransaction } from "@solana/web3.js";

import { parseCommandLineOrExit } from "../lib/cli/args";
import type { BenchServerCounts, BenchServerProfiled, BenchServerReady } from "./bench-api-server";
import { formatProfileSummary, summarizeProfile } from "./cpu-profile-summary";

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 50;
const STATUS_CONNECTIONS = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
// Issue 31: the npm start partner NAV read ≥ 60% and the oracle ≥ 75% of bare node:http in the same
// run; a deposit build p99 ≤ 20 ms with ≤ 1 RPC call per build on average; a withdrawal status
// p99 ≤ 50 ms at 10 connections.
const TARGETS = {
  oracleShareOfBare: 0.75,
  navShareOfBare: 0.6,
  depositP99Ms: 20,
  depositRpcCalls: 1,
  statusP99Ms: 50,
  statusRpcCalls: 1,
};

const require = createRequire(import.meta.url);
const nextBin = require.resolve("next/dist/bin/next");
const BUILD_INPUTS = [
  "app",
  "components",
  "lib",
  "public",
  "instrumentation.ts",
  "proxy.ts",
  "next.config.mjs",
  "postcss.config.mjs",
  "tsconfig.json",
  "package-lock.json",
];

/** The newest modification time under `path` (0 when it does not exist). */
function newestMtimeMs(path: string): number {
  if (!existsSync(path)) {
    return 0;
  }
  const stat = statSync(path);
  if (!stat.isDirectory()) {
    return stat.mtimeMs;
  }
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtimeMs(join(path, name))), 0);
}

/** Builds the app for npm start's server unless the last build is newer than its sources. */
function ensureNextBuild(): void {
  const buildId = join(process.cwd(), ".next/BUILD_ID");
  const built = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  const sources = Math.max(...BUILD_INPUTS.map((path) => newestMtimeMs(join(process.cwd(), path))));
  if (built > 0 && (process.env.BENCH_SKIP_BUILD === "1" || built >= sources)) {
    console.log("bench:api: reusing the last next build (.next)");
    return;
  }
  console.log("bench:api: next build …");
  const result = spawnSync(process.execPath, [nextBin, "build"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) {
    throw new Error(`next build failed (exit ${result.status ?? "signal"})`);
  }
}

type Result = autocannon.Result;

function run(options: autocannon.Options): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon({ duration: DURATION_SECONDS, connections: CONNECTIONS, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

async function post(url: string, body: unknown, key?: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ...(key === undefined ? {} : { Authorization: `Bearer ${key}` }),
    },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { success?: boolean; data?: Record<string, unknown> };
  if (!response.ok) {
    throw new Error(`${url} answered ${response.status}: ${JSON.stringify(json)}`);
  }
  return json.data ?? (json as Record<string, unknown>);
}

async function signSend(connection: Connection, base64: string, wallet: Keypair): Promise<string> {
  const transaction = VersionedTransaction.deserialize(Buffer.from(base64, "base64"));
  transaction.sign([wallet]);
  const signature = await connection.sendTransaction(transaction);
  const latest = await connection.getLatestBlockhash();
  await connection.confirmTransaction({ signature, ...latest }, "confirmed");
  return signature;
}

function fixed(value: number, digits = 1): string {
  return value.toFixed(digits);
}

async function main(): Promise<void> {
  parseCommandLineOrExit(
    "bench:api",
    "Usage: npm run bench:api   (no flags; settings: BENCH_SECONDS, BENCH_ROUNDS, BENCH_SKIP_BUILD=1, BENCH_SERVER_FLAGS, BENCH_PROFILE=1, BENCH_PROFILE_DIR)",
    process.argv.slice(2),
    {},
  );
  ensureNextBuild();
  // npm start's environment (React and Next.js pick their production builds by it), for both hosts.
  // BENCH_SERVER_FLAGS: node flags for the server process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"
  // for a CPU profile (open it in Chrome DevTools) or "--trace-gc" for its collections.
  const serverFlags = (process.env.BENCH_SERVER_FLAGS ?? "").split(" ").filter((flag) => flag !== "");
  const child = fork("scripts/bench-api-server.ts", [], {
    execArgv: ["--import", "tsx", ...serverFlags],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
  });
  const messages: ((message: unknown) => void)[] = [];
  child.on("message", (message) => messages.shift()?.(message));
  const next = <T>(): Promise<T> =>
    new Promise((resolve) => messages.push((message) => resolve(message as T)));
  const counts = async (): Promise<BenchServerCounts> => {
    const reply = next<BenchServerCounts>();
    child.send({ type: "counts" });
    return reply;
  };

  const ready = await next<BenchServerReady>();
  const connection = new Connection(ready.rpcUrl, { commitment: "confirmed", wsEndpoint: ready.wsUrl });
  const wallet = Keypair.generate();
  const address = wallet.publicKey.toBase58();
  await post(ready.faucetUrl, { wallet: address, amount: "100000000000" });
  const vaultPath = `${ready.apiUrl}/api/vault/${ready.vaultId}`;
  const deposit = await post(
    `${vaultPath}/deposit`,
    { wallet: address, amount: "50000000000" },
    ready.apiKey,
  );
  await signSend(connection, String(deposit.transaction), wallet);
  const initiate = await post(
    `${vaultPath}/withdraw`,
    { wallet: address, sharesAmount: "1000000000000" },
    ready.apiKey,
  );
  const initiateSignature = await signSend(connection, String(initiate.transaction), wallet);
  await post(
    `${ready.apiUrl}/api/history`,
    { wallet: address, vault_id: ready.vaultId, signature: initiateSignature },
    ready.apiKey,
  );

  // The indexer has read the vaults and the deposit once the portfolio shows the position.
  const indexed = next<{ type: "indexed"; error?: string }>();
  child.send({ type: "index" });
  const indexRun = await indexed;
  if (indexRun.error !== undefined) {
    throw new Error(`the indexer's run failed: ${indexRun.error}`);
  }
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const response = await fetch(`${ready.apiUrl}/api/portfolio?wallet=${address}`, {
      headers: { authorization: `Bearer ${ready.apiKey}` },
    });
    const body = (await response.json()) as { data?: { positions?: unknown[] } };
    if (response.ok && (body.data?.positions?.length ?? 0) > 0) {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  console.log(
    `bench:api — ${DURATION_SECONDS} s per run, ${CONNECTIONS} connections, servers in a child process; ` +
      `oracle, NAV and deposit: each host's better of ${ROUNDS} alternating rounds\n`,
  );

  const authorization = { authorization: `Bearer ${ready.apiKey}`, "content-type": "application/json" };
  const depositBody = JSON.stringify({ wallet: address, amount: "1000000" });
  const hosts = [
    { name: "npm run api", url: ready.apiUrl },
    { name: "npm start", url: ready.webUrl },
  ];
  interface Measured {
    result: Result;
    before: BenchServerCounts;
    after: BenchServerCounts;
  }
  const measuredRuns: Measured[] = [];
  const measure = async (options: autocannon.Options): Promise<Measured> => {
    const before = await counts();
    const result = await run(options);
    const measured = { result, before, after: await counts() };
    measuredRuns.push(measured);
    return measured;
  };

  // Bare node:http before and after the API runs: its mean is the reference (the machine is shared).
  const bareFirst = await measure({ url: ready.bareUrl });
  // Each endpoint on one host then the other, ROUNDS times; each host's better round (by rate) is
  // reported, the one least disturbed by other load on a shared machine.
  const roundLines: string[] = [];
  const best = async (
    label: string,
    options: (hostUrl: string) => autocannon.Options,
  ): Promise<Measured[]> => {
    const rounds: Measured[][] = hosts.map(() => []);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [index, host] of hosts.entries()) {
        rounds[index]?.push(await measure(options(host.url)));
      }
    }
    roundLines.push(
      `${label}: ` +
        hosts
          .map(
            (host, index) =>
              `${host.name} ${(rounds[index] ?? [])
                .map(
                  (measured) =>
                    `${fixed(measured.result.requests.average, 0)}/s p99 ${measured.result.latency.p99} ms`,
                )
                .join(", ")}`,
          )
          .join("; "),
    );
    return rounds.map((measured) =>
      measured.reduce((a, b) => (b.result.requests.average > a.result.requests.average ? b : a)),
    );
  };
  const oracles = await best("oracle", (url) => ({ url: `${url}/api/oracle` }));
  const navs = await best("nav", (url) => ({
    url: `${url}/api/vault/${ready.vaultId}/nav`,
    headers: authorization,
  }));
  const profiles: string[] = [];
  if (process.env.BENCH_PROFILE === "1") {
    const directory = process.env.BENCH_PROFILE_DIR ?? tmpdir();
    mkdirSync(directory, { recursive: true });
    // The deposit build and the withdrawal status as they are measured below (status: the lean host).
    const reads: {
      read: string;
      path: string;
      options: Omit<autocannon.Options, "url">;
      onHosts: typeof hosts;
    }[] = [
      { read: "oracle", path: "/api/oracle", options: {}, onHosts: hosts },
      {
        read: "nav",
        path: `/api/vault/${ready.vaultId}/nav`,
        options: { headers: authorization },
        onHosts: hosts,
      },
      {
        read: "deposit",
        path: `/api/vault/${ready.vaultId}/deposit`,
        options: { method: "POST", headers: authorization, body: depositBody },
        onHosts: hosts,
      },
      {
        read: "status",
        path: `/api/vault/${ready.vaultId}/withdraw?wallet=${address}`,
        options: { headers: authorization, connections: STATUS_CONNECTIONS },
        onHosts: hosts.slice(0, 1),
      },
    ];
    for (const { read, path, options, onHosts } of reads) {
      for (const host of onHosts) {
        const started = next<{ type: "profiling" }>();
        child.send({ type: "profile-start" });
        await started;
        const result = await run({ ...options, url: `${host.url}${path}` });
        const profiled = next<BenchServerProfiled>();
        const file = join(directory, `${read}-${host.name.replace(/ /g, "-")}.cpuprofile`);
        child.send({ type: "profile-stop", file });
        await profiled;
        const summary = summarizeProfile(JSON.parse(readFileSync(file, "utf8")) as Profiler.Profile);
        profiles.push(
          `${read} on ${host.name} under the profiler: ${fixed(result.requests.average, 0)} req/s; ${file}`,
          ...formatProfileSummary(summary).map((line) => `  ${line}`),
        );
      }
    }
  }
  for (const host of hosts) {
    // Warm the build path (first builds compile the deposit's code).
    await run({
      url: `${host.url}/api/vault/${ready.vaultId}/deposit`,
      method: "POST",
      headers: authorization,
      body: depositBody,
      duration: 1,
    });
  }
  const deposits = await best("deposit", (url) => ({
    url: `${url}/api/vault/${ready.vaultId}/deposit`,
    method: "POST",
    headers: authorization,
    body: depositBody,
  }));
  const perHost = hosts.map((host, index) => {
    const [oracle, nav, deposit] = [oracles[index], navs[index], deposits[index]];
    if (oracle === undefined || nav === undefined || deposit === undefined) {
      throw new Error("a host was not measured");
    }
    return { host, oracle, nav, deposit };
  });
  const bareLast = await measure({ url: ready.bareUrl });
  const bareRate = (bareFirst.result.requests.average + bareLast.result.requests.average) / 2;

  // Each status read is a chain round trip to the localnet, which shares the server's process here.
  const statuses = await measure({
    url: `${vaultPath}/withdraw?wallet=${address}`,
    headers: authorization,
    connections: STATUS_CONNECTIONS,
  });
  const directory = await measure({ url: `${ready.apiUrl}/api/vaults`, headers: authorization });
  const portfolio = await measure({
    url: `${ready.apiUrl}/api/portfolio?wallet=${address}`,
    headers: authorization,
  });

  const perRequest = ({ before, after, result }: Measured) => ({
    request: (after.request - before.request) / Math.max(1, result.requests.total),
    background: (after.background - before.background) / Math.max(1, result.requests.total),
  });
  // Server CPU per request: unlike req/s, barely moved by other load on the machine.
  const cpuPerRequest = ({ before, after, result }: Measured): number =>
    (after.cpuMicros - before.cpuMicros) / Math.max(1, result.requests.total);
  const latency = ({ result }: Measured): string =>
    `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`;
  const rate = ({ result }: Measured, unit = "req/s"): string =>
    `${fixed(result.requests.average, 0)} ${unit}`;
  const verdict = (met: boolean): string => (met ? "ok" : "MISSED");
  const ofBare = (measured: Measured, target: number): string => {
    const share = measured.result.requests.average / bareRate;
    return `${fixed(share * 100)}% of bare (target ≥ ${target * 100}%) ${verdict(share >= target)}`;
  };

  const rows: string[][] = [
    [
      "bare node:http, constant JSON",
      "",
      `${fixed(bareRate, 0)} req/s`,
      `first ${fixed(bareFirst.result.requests.average, 0)}, last ${fixed(bareLast.result.requests.average, 0)} req/s`,
      `CPU ${fixed((cpuPerRequest(bareFirst) + cpuPerRequest(bareLast)) / 2, 0)} µs/req`,
    ],
  ];
  // A read endpoint on each host: its rate against bare node:http's, and the server's CPU per request.
  const cachedReadRows = (label: string, target: number, read: "oracle" | "nav"): string[][] =>
    perHost.map((measures) => {
      const measured = measures[read];
      return [
        label,
        measures.host.name,
        rate(measured),
        latency(measured),
        `${ofBare(measured, target)}; CPU ${fixed(cpuPerRequest(measured), 0)} µs/req`,
      ];
    });
  rows.push(...cachedReadRows("GET /api/oracle", TARGETS.oracleShareOfBare, "oracle"));
  rows.push(...cachedReadRows("GET /api/vault/{id}/nav", TARGETS.navShareOfBare, "nav"));
  for (const { host, deposit } of perHost) {
    const calls = perRequest(deposit);
    rows.push([
      "POST deposit (build)",
      host.name,
      rate(deposit, "builds/s"),
      latency(deposit),
      `p99 target ≤ ${TARGETS.depositP99Ms} ms ${verdict(deposit.result.latency.p99 <= TARGETS.depositP99Ms)}; ` +
        `RPC calls/request ${fixed(calls.request, 4)} (target ≤ ${TARGETS.depositRpcCalls}) ${verdict(calls.request <= TARGETS.depositRpcCalls)} (+${fixed(calls.background, 4)} background); CPU ${fixed(cpuPerRequest(deposit), 0)} µs/req`,
    ]);
  }
  const statusCalls = perRequest(statuses);
  rows.push(
    [
      `GET withdraw (status, ${STATUS_CONNECTIONS} conns)`,
      "npm run api",
      rate(statuses),
      latency(statuses),
      `p99 target ≤ ${TARGETS.statusP99Ms} ms ${verdict(statuses.result.latency.p99 <= TARGETS.statusP99Ms)}; ` +
        `RPC calls/request ${fixed(statusCalls.request, 3)} (target ${TARGETS.statusRpcCalls}) (+${fixed(statusCalls.background, 4)} background); CPU ${fixed(cpuPerRequest(statuses), 0)} µs/req`,
    ],
    [
      "GET /api/vaults (directory)",
      "npm run api",
      rate(directory),
      latency(directory),
      "from the indexer's rows, cached 2 s",
    ],
    [
      "GET /api/portfolio",
      "npm run api",
      rate(portfolio),
      latency(portfolio),
      "one store query for all vaults + cached share balances, cached 2 s per wallet",
    ],
  );
  const widths = [0, 1, 2, 3].map((column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  for (const row of rows) {
    console.log(
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    );
  }
  const errors = measuredRuns.reduce((sum, { result }) => sum + result.non2xx + result.errors, 0);
  console.log(`\nevery round: ${roundLines.join("\n              ")}`);
  console.log(`non-2xx or errors across the runs: ${errors}`);
  if (profiles.length > 0) {
    console.log(`\n${profiles.join("\n")}`);
  }
  console.log(
    `load average at the end: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(", ")} (${cpus().length} CPUs)`,
  );

  child.send({ type: "stop" });
  await new Promise((resolve) => child.once("exit", resolve));
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
