// npm run bench:api — in one run on this machine: the keyless oracle's req/s on the lean node:http
// host next to a bare node:http server answering a constant JSON body; deposit builds/s with p50/p99
// at 50 concurrent connections (warm caches); withdrawal status p50/p99 (10 connections); RPC calls
// per request. The keyless limit is raised in the benchmark's server so the oracle is measured
// rather than its 429s.
// The servers run in a child process (scripts/bench-api-server.ts); autocannon runs here.
import { fork } from "node:child_process";
import { createRequire } from "node:module";
import { cpus, loadavg } from "node:os";

import autocannon from "autocannon";
import { Connection, Keypair, VersionedTransaction } from "@solana/web3.js";

import type { BenchServerCounts, BenchServerReady } from "./bench-api-server";

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 50;
const STATUS_CONNECTIONS = 10;
const TARGETS = { oracleShareOfBare: 0.5, depositP99Ms: 25, statusRpcCalls: 1 };

const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");

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
  const child = fork(tsxCli, ["scripts/bench-api-server.ts"], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
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
    `bench:api — ${DURATION_SECONDS} s per run, ${CONNECTIONS} connections, servers in a child process\n`,
  );

  const beforeBare = await counts();
  const bare = await run({ url: ready.bareUrl });
  const afterBare = await counts();
  const oracle = await run({ url: `${ready.apiUrl}/api/oracle` });
  const afterOracle = await counts();

  const depositBody = JSON.stringify({ wallet: address, amount: "1000000" });
  const authorization = { authorization: `Bearer ${ready.apiKey}`, "content-type": "application/json" };
  await run({
    url: `${vaultPath}/deposit`,
    method: "POST",
    headers: authorization,
    body: depositBody,
    duration: 1,
  });
  const beforeDeposit = await counts();
  const deposits = await run({
    url: `${vaultPath}/deposit`,
    method: "POST",
    headers: authorization,
    body: depositBody,
  });
  const afterDeposit = await counts();

  const beforeStatus = await counts();
  // Each status read is a chain round trip to the localnet, which shares the server's process here.
  const statuses = await run({
    url: `${vaultPath}/withdraw?wallet=${address}`,
    headers: authorization,
    connections: STATUS_CONNECTIONS,
  });
  const afterStatus = await counts();
  const directory = await run({ url: `${ready.apiUrl}/api/vaults`, headers: authorization });
  const portfolio = await run({
    url: `${ready.apiUrl}/api/portfolio?wallet=${address}`,
    headers: authorization,
  });

  const perRequest = (before: BenchServerCounts, after: BenchServerCounts, result: Result) => ({
    request: (after.request - before.request) / Math.max(1, result.requests.total),
    background: (after.background - before.background) / Math.max(1, result.requests.total),
  });
  const depositCalls = perRequest(beforeDeposit, afterDeposit, deposits);
  const statusCalls = perRequest(beforeStatus, afterStatus, statuses);
  const share = oracle.requests.average / bare.requests.average;
  // Server CPU per request: unlike req/s, barely moved by other load on the machine.
  const cpuPerRequest = (before: BenchServerCounts, after: BenchServerCounts, result: Result): number =>
    (after.cpuMicros - before.cpuMicros) / Math.max(1, result.requests.total);
  const cpu = {
    bare: cpuPerRequest(beforeBare, afterBare, bare),
    oracle: cpuPerRequest(afterBare, afterOracle, oracle),
    deposit: cpuPerRequest(beforeDeposit, afterDeposit, deposits),
    status: cpuPerRequest(beforeStatus, afterStatus, statuses),
  };

  const rows = [
    [
      "bare node:http, constant JSON",
      `${fixed(bare.requests.average, 0)} req/s`,
      `p50 ${bare.latency.p50} ms, p99 ${bare.latency.p99} ms`,
      "",
    ],
    [
      "GET /api/oracle (node host)",
      `${fixed(oracle.requests.average, 0)} req/s`,
      `p50 ${oracle.latency.p50} ms, p99 ${oracle.latency.p99} ms`,
      `${fixed(share * 100)}% of bare (target ≥ ${TARGETS.oracleShareOfBare * 100}%) ${share >= TARGETS.oracleShareOfBare ? "ok" : "MISSED"}`,
    ],
    [
      "POST deposit (build)",
      `${fixed(deposits.requests.average, 0)} builds/s`,
      `p50 ${deposits.latency.p50} ms, p99 ${deposits.latency.p99} ms`,
      `p99 target ≤ ${TARGETS.depositP99Ms} ms ${deposits.latency.p99 <= TARGETS.depositP99Ms ? "ok" : "MISSED"}; RPC calls/request ${fixed(depositCalls.request, 4)} (+${fixed(depositCalls.background, 4)} background)`,
    ],
    [
      `GET withdraw (status, ${STATUS_CONNECTIONS} conns)`,
      `${fixed(statuses.requests.average, 0)} req/s`,
      `p50 ${statuses.latency.p50} ms, p99 ${statuses.latency.p99} ms`,
      `RPC calls/request ${fixed(statusCalls.request, 3)} (target ${TARGETS.statusRpcCalls}) (+${fixed(statusCalls.background, 4)} background)`,
    ],
    [
      "GET /api/vaults (directory)",
      `${fixed(directory.requests.average, 0)} req/s`,
      `p50 ${directory.latency.p50} ms, p99 ${directory.latency.p99} ms`,
      "from the indexer's rows, cached 2 s",
    ],
    [
      "GET /api/portfolio",
      `${fixed(portfolio.requests.average, 0)} req/s`,
      `p50 ${portfolio.latency.p50} ms, p99 ${portfolio.latency.p99} ms`,
      "one store query for all vaults + cached share balances, cached 2 s per wallet",
    ],
  ];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  for (const row of rows) {
    console.log(
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    );
  }
  const errors = [bare, oracle, deposits, statuses, directory, portfolio].reduce(
    (sum, result) => sum + result.non2xx + result.errors,
    0,
  );
  console.log(`\nnon-2xx or errors across the runs: ${errors}`);
  console.log(
    `server CPU per request: bare ${fixed(cpu.bare, 0)} µs, oracle ${fixed(cpu.oracle, 0)} µs ` +
      `(bare/oracle ${fixed((cpu.bare / cpu.oracle) * 100)}%), deposit build ${fixed(cpu.deposit, 0)} µs, ` +
      `status ${fixed(cpu.status, 0)} µs`,
  );
  console.log(
    `load average during the run: ${loadavg()
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
