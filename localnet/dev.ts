// npm run dev: checks that its ports are free, then starts each service as a child process, in order,
// waiting until one is ready before starting the next; prefixes their output; stops them all on Ctrl-C
// or when any of them exits: the local chain first, then the web app (Next.js dev server, pages and
// /api) pointed at it. While a service starts without a word for a few seconds, it says which and for
// how long. The app is ready when it says so itself ("web: ready", scripts/web.ts: its
// store open, the directory listing the chain's vaults, the directory page compiled); an answer on its
// port could be another program's.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

import { assertPortsFree } from "../lib/server/port-check";
import { exitOnCommandLineError } from "../lib/cli/args";
import { Progress } from "../lib/server/progress";
import { ConfigError, REPO_ROOT, parseLocalnetConfig, usage, type LocalnetConfig } from "./config";
import { isLocalnetHealthy } from "./health";
import { localTickSeconds } from "./keeper";

interface Service {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Resolves true once the service answers; polled until `readyTimeoutMs`. */
  isReady?(): Promise<boolean>;
  /** Ready once the service prints a line that matches (on its own standard output). */
  readyLine?: RegExp;
  readyTimeoutMs: number;
  /** Where a person opens it, printed once everything is up. */
  url?: string;
}

const POLL_INTERVAL_MS = 250;
const STOP_GRACE_MS = 5_000;

/** Node with tsx's loader, in this process (tsx's own command starts a second Node process to run it). */
const TSX = ["--import", "tsx"];

function localnetService(config: LocalnetConfig, argv: readonly string[]): Service {
  const rpcUrl = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${config.rpcPort}`;
  return {
    name: "localnet",
    command: process.execPath,
    args: [...TSX, "localnet/main.ts", ...argv],
    readyTimeoutMs: 60_000,
    isReady: () => isLocalnetHealthy(rpcUrl),
  };
}

function appPort(): string {
  return process.env.APP_PORT ?? "3000";
}

/** The Next.js dev server on APP_PORT (default 3000), reading the chain's addresses file. */
function webAppService(config: LocalnetConfig): Service {
  const port = appPort();
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return {
    name: "app",
    url: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}/`,
    command: process.execPath,
    args: [...TSX, "scripts/web.ts", "--dev", "--port", port, "--hostname", config.host],
    env: {
      RPC_URL: process.env.RPC_URL ?? `http://${host}:${config.rpcPort}`,
      LOCALNET_ADDRESSES_FILE: config.addressesFile,
      // The arrival estimate is computed from the keeper's schedule: this chain's keeper's own.
      NAV_INTERVAL_SECONDS: process.env.NAV_INTERVAL_SECONDS ?? String(config.keeper.navIntervalSeconds),
      STAGE_INTERVAL_SECONDS:
        process.env.STAGE_INTERVAL_SECONDS ?? String(config.keeper.stageIntervalSeconds),
      STAGE_MAX_SHARES: process.env.STAGE_MAX_SHARES ?? config.keeper.stageMaxShares.toString(),
      KEEPER_TICK_SECONDS:
        process.env.KEEPER_TICK_SECONDS ?? String(Math.max(1, Math.ceil(localTickSeconds(config.keeper)))),
    },
    // Compiling the first pages on a busy machine takes minutes.
    readyTimeoutMs: 600_000,
    readyLine: /^web: ready on /,
  };
}

/** Every port this command's services listen on, with the setting that moves it. */
async function checkPorts(config: LocalnetConfig): Promise<void> {
  const port = Number(appPort());
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new ConfigError(`APP_PORT must be an integer 0–65535, got ${appPort()}`);
  }
  await assertPortsFree([
    { host: config.host, port: config.rpcPort, setting: "--rpc-port (LOCALNET_RPC_PORT)" },
    { host: config.host, port: config.wsPort, setting: "--ws-port (LOCALNET_WS_PORT)" },
    { host: config.host, port, setting: "APP_PORT" },
  ]);
}

function prefixLines(
  stream: NodeJS.ReadableStream | null,
  prefix: string,
  write: (line: string) => void,
): void {
  if (stream !== null) {
    createInterface({ input: stream }).on("line", (line) => write(`${prefix} ${line}`));
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

class Supervisor {
  private readonly running: { service: Service; child: ChildProcess }[] = [];
  private readonly saidReady = new Set<Service>();
  /** While a service starts and says nothing, which one it is and for how long. */
  private readonly progress = new Progress((pending) => console.log(`dev: waiting for ${pending}`));
  private stopping = false;

  start(service: Service): ChildProcess {
    const child = spawn(service.command, service.args, {
      cwd: REPO_ROOT,
      env: { ...process.env, ...service.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const prefix = `[${service.name}]`;
    prefixLines(child.stdout, prefix, (line) => {
      // The service's own words, from its own output: another program on its port cannot say them.
      if (service.readyLine?.test(line.slice(prefix.length + 1)) === true) {
        this.saidReady.add(service);
      }
      this.progress.heard();
      console.log(line);
    });
    prefixLines(child.stderr, prefix, (line) => {
      this.progress.heard();
      console.error(line);
    });
    child.on("exit", (code, signal) => {
      if (!this.stopping) {
        console.error(`${prefix} exited (${signal ?? `code ${code ?? 0}`}); stopping everything`);
        void this.stopAll(code ?? 1);
      }
    });
    this.running.push({ service, child });
    return child;
  }

  async waitUntilReady(service: Service, child: ChildProcess): Promise<void> {
    const deadline = Date.now() + service.readyTimeoutMs;
    const done = this.progress.begin(service.name);
    try {
      while (Date.now() < deadline) {
        if (child.exitCode !== null || this.stopping) {
          throw new Error(`${service.name} exited before it was ready`);
        }
        if (this.saidReady.has(service) || (service.isReady !== undefined && (await service.isReady()))) {
          return;
        }
        await sleep(POLL_INTERVAL_MS);
      }
      throw new Error(`${service.name} was not ready after ${service.readyTimeoutMs / 1000} s`);
    } finally {
      done();
    }
  }

  async stopAll(exitCode: number): Promise<never> {
    this.stopping = true;
    for (const { child } of [...this.running].reverse()) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }
    }
    process.exit(exitCode);
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const config = parseLocalnetConfig(argv, process.env);
  await checkPorts(config);
  const services: Service[] = [localnetService(config, argv), webAppService(config)];
  const supervisor = new Supervisor();
  process.on("SIGINT", () => void supervisor.stopAll(0));
  process.on("SIGTERM", () => void supervisor.stopAll(0));
  for (const service of services) {
    const child = supervisor.start(service);
    try {
      await supervisor.waitUntilReady(service, child);
    } catch (error) {
      console.error(`dev: ${error instanceof Error ? error.message : String(error)}`);
      await supervisor.stopAll(1);
    }
    console.log(`dev: ${service.name} is ready`);
  }
  const url = services.find((service) => service.url !== undefined)?.url;
  console.log(
    `dev: everything is up${url === undefined ? "" : `; open ${url} in a browser`}; Ctrl-C stops it`,
  );
}

main().catch((error: unknown) => {
  exitOnCommandLineError("dev", usage("npm run dev"), error);
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
