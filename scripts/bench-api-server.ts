// The server side of `npm run bench:api`, in its own process so the load generator does not share
// its CPU: the API on the lean node:http host (PGlite in memory, in-process limits, logs off), the same
// API behind `npm start`'s server (scripts/web-server.ts on the last `next build`, same context), and a
// bare node:http server answering a constant JSON body, with a localnet in a further process.
// Reports over IPC; profiles its own CPU on request (BENCH_PROFILE=1, scripts/bench-api.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { createProcessConfig, installProcessConfig, parseConfig } from "../lib/config";
import { createApiContext } from "../lib/api/context";
import { createLogger } from "../lib/api/logger";
import { startNodeHost } from "../lib/api/node-host";
import { parseIndexerSettings } from "../lib/indexer/settings";
import { createIndexer } from "../lib/server/indexer";
import { createApiHandler } from "../lib/api/router";
import { ROUTE_TABLE } from "../lib/api/routes";
import { startWebServer } from "./web-server";

const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");

export interface BenchServerReady {
  type: "ready";
  bareUrl: string;
  apiUrl: string;
  /** `npm start`'s server (the API before Next.js) on the same context. */
  webUrl: string;
  rpcUrl: string;
  wsUrl: string;
  faucetUrl: string;
  vaultId: string;
  apiKey: string;
}

/** Answer to `{ type: "profile-stop", file }`: the CPU profile since "profile-start", written to `file`. */
export interface BenchServerProfiled {
  type: "profiled";
  file: string;
}

export interface BenchServerCounts {
  type: "counts";
  request: number;
  background: number;
  /** CPU time this process has used, user + system, in microseconds. */
  cpuMicros: number;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The localnet in its own process, so its slot production does not stall the API's event loop. */
async function startLocalnetProcess(): Promise<{
  child: ChildProcess;
  rpcUrl: string;
  addressesFile: string;
}> {
  const rpcPort = await freePort();
  const wsPort = await freePort();
  const addressesFile = join(await mkdtemp(join(tmpdir(), "bench-api-")), "addresses.json");
  const child = spawn(
    process.execPath,
    [tsxCli, "localnet/main.ts", "--rpc-port", String(rpcPort), "--ws-port", String(wsPort)],
    {
      env: { ...process.env, LOCALNET_ADDRESSES_FILE: addressesFile, LOCALNET_KEEPER: "false" },
      stdio: "ignore",
    },
  );
  const rpcUrl = `http://127.0.0.1:${rpcPort}`;
  for (let attempt = 0; attempt < 240; attempt += 1) {
    try {
      const response = await fetch(rpcUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getHealth" }),
      });
      // The addresses file is written just after the RPC port opens.
      if (response.ok && (await readFile(addressesFile, "utf8").catch(() => "")) !== "") {
        return { child, rpcUrl, addressesFile };
      }
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill();
  throw new Error("the localnet did not start");
}

interface LocalnetAddresses {
  wsUrl: string;
  faucetUrl: string;
  defaultVaultId: string;
}

async function main(): Promise<void> {
  const localnet = await startLocalnetProcess();
  const addresses = JSON.parse(await readFile(localnet.addressesFile, "utf8")) as LocalnetAddresses;
  const env = {
    RPC_URL: localnet.rpcUrl,
    LOCALNET_ADDRESSES_FILE: localnet.addressesFile,
    PGLITE_DIR: ":memory:",
    LOG_LEVEL: "silent",
    DATABASE_URL: "",
    REDIS_URL: "",
  };
  // The process's configuration is this environment (npm start's server reads it through
  // processConfig(), parsed once: set before anything asks), with no second indexer in Next.js.
  Object.assign(process.env, env, { INDEXER: "off" });
  installProcessConfig(createProcessConfig(process.env));
  const config = parseConfig(env);
  // The keyless limit is raised so the limiter runs on every request without refusing one client.
  const context = createApiContext(config, {
    logger: createLogger("silent"),
    publicLimit: { limit: 1_000_000_000, windowSeconds: 5 },
  });
  await context.store.ready();
  const { secret } = await context.store.keys.create({ name: "bench", scope: "write", rpm: 100_000_000 });
  const api = await startNodeHost(createApiHandler(ROUTE_TABLE, context), { host: "127.0.0.1", port: 0 });
  // The directory and portfolio reads are served from the indexer's rows (its RPC calls count as
  // background). It runs at npm start's interval (INDEXER_INTERVAL_SECONDS, 15 s by default), as the
  // hosts measured here would run it; the client asks for a run once its set-up transactions landed.
  const indexer = createIndexer(context, {
    intervalMs: parseIndexerSettings(process.env, config.rpcUrl).intervalMs,
  });
  indexer.start();
  // npm start's server, as scripts/web.ts starts it; this indexer serves both hosts' context.
  const web = await startWebServer({
    dev: false,
    hostname: "127.0.0.1",
    port: 0,
    context,
    metricsToken: null,
  });

  const constant = JSON.stringify({ sharePrice: 1.0123 });
  const bare = createServer((_request, response) => {
    response.writeHead(200, { "Content-Type": "application/json" }).end(constant);
  });
  await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", () => resolve()));

  const profiler = new Session();
  profiler.connect();
  process.on("message", (message: { type?: string; file?: string }) => {
    if (message.type === "profile-start") {
      void profiler
        .post("Profiler.enable")
        .then(() => profiler.post("Profiler.start"))
        .then(() => process.send?.({ type: "profiling" }));
    } else if (message.type === "profile-stop" && message.file !== undefined) {
      const file = message.file;
      void profiler
        .post("Profiler.stop")
        .then(({ profile }) => writeFile(file, JSON.stringify(profile)))
        .then(() => process.send?.({ type: "profiled", file } satisfies BenchServerProfiled));
    } else if (message.type === "counts") {
      const cpu = process.cpuUsage();
      process.send?.({
        type: "counts",
        ...context.rpc.counts,
        cpuMicros: cpu.user + cpu.system,
      } satisfies BenchServerCounts);
    } else if (message.type === "index") {
      void indexer.runOnce().then(
        () => process.send?.({ type: "indexed" }),
        (error: unknown) => process.send?.({ type: "indexed", error: String(error) }),
      );
    } else if (message.type === "stop") {
      bare.close();
      void Promise.all([api.close(1_000), web.close(1_000)])
        .then(() => indexer.stop())
        .then(() => context.close())
        .finally(() => {
          localnet.child.kill("SIGTERM");
          process.exit(0);
        });
    }
  });
  process.send?.({
    type: "ready",
    bareUrl: `http://127.0.0.1:${(bare.address() as AddressInfo).port}`,
    apiUrl: api.url,
    webUrl: web.url,
    rpcUrl: localnet.rpcUrl,
    wsUrl: addresses.wsUrl,
    faucetUrl: addresses.faucetUrl,
    vaultId: addresses.defaultVaultId,
    apiKey: secret,
  } satisfies BenchServerReady);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
