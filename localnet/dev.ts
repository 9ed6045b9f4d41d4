// npm run dev: starts each service as a child process, in order, waiting until one is ready before
// starting the next; prefixes their output; stops them all on Ctrl-C or when any of them exits: the
// local chain first, then the web app (Next.js dev server, pages and /api) pointed at it.
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { createInterface } from "node:readline";

import { ConfigError, REPO_ROOT, parseLocalnetConfig, type LocalnetConfig } from "./config";
import { isLocalnetHealthy } from "./health";

interface Service {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Resolves true once the service answers; polled until `readyTimeoutMs`. */
  isReady(): Promise<boolean>;
  readyTimeoutMs: number;
  /** Where a person opens it, printed once everything is up. */
  url?: string;
}

const POLL_INTERVAL_MS = 250;
const STOP_GRACE_MS = 5_000;

const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");

function localnetService(config: LocalnetConfig, argv: readonly string[]): Service {
  const rpcUrl = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${config.rpcPort}`;
  return {
    name: "localnet",
    command: process.execPath,
    args: [tsxCli, "localnet/main.ts", ...argv],
    readyTimeoutMs: 60_000,
    isReady: () => isLocalnetHealthy(rpcUrl),
  };
}

/** The Next.js dev server on APP_PORT (default 3000), reading the chain's addresses file. */
function webAppService(config: LocalnetConfig): Service {
  const port = process.env.APP_PORT ?? "3000";
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return {
    name: "app",
    url: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}/`,
    command: process.execPath,
    args: [tsxCli, "scripts/web.ts", "--dev", "--port", port, "--hostname", config.host],
    env: {
      RPC_URL: process.env.RPC_URL ?? `http://${host}:${config.rpcPort}`,
      LOCALNET_ADDRESSES_FILE: config.addressesFile,
    },
    readyTimeoutMs: 120_000,
    async isReady() {
      try {
        // Any answer (503 included, e.g. while a store starts) means the server is up.
        await fetch(`http://${host}:${port}/api/health`, { signal: AbortSignal.timeout(30_000) });
        return true;
      } catch {
        return false;
      }
    },
  };
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
  private stopping = false;

  start(service: Service): ChildProcess {
    const child = spawn(service.command, service.args, {
      cwd: REPO_ROOT,
      env: { ...process.env, ...service.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const prefix = `[${service.name}]`;
    prefixLines(child.stdout, prefix, (line) => console.log(line));
    prefixLines(child.stderr, prefix, (line) => console.error(line));
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
    while (Date.now() < deadline) {
      if (child.exitCode !== null || this.stopping) {
        throw new Error(`${service.name} exited before it was ready`);
      }
      if (await service.isReady()) {
        return;
      }
      await sleep(POLL_INTERVAL_MS);
    }
    throw new Error(`${service.name} was not ready after ${service.readyTimeoutMs / 1000} s`);
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
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
