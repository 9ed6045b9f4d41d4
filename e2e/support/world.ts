// Starting what `npm run dev` starts, on free ports: the local chain (`npm run localnet` with flags)
// and the app (scripts/web.ts on a build, or in dev mode). Used by the browser tests' global setup and
// by `npm run bench:web`.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { isLocalnetHealthy } from "../../localnet/health";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

const require = createRequire(import.meta.url);
const nextBin = require.resolve("next/dist/bin/next");
const tsxCli = require.resolve("tsx/cli");

export function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolvePort((server.address() as AddressInfo).port));
  });
}

export async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listen(server, "127.0.0.1");
  await new Promise((done) => server.close(done));
  return port;
}

export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve();
  }
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      done();
    });
    child.kill("SIGTERM");
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

/**
 * How long a started child may live without answering before it counts as hung. Readiness is waited
 * for as a state (the child exiting fails at once): a busy machine makes start-up slower, never red,
 * so this is far above any start-up seen (a minute or two on a loaded machine).
 */
export const HUNG_AFTER_MS = 10 * 60_000;

export interface LocalnetOptions {
  slotMs: number;
  navIntervalSeconds: number;
  stageIntervalSeconds: number;
  /** Raw share units funded per staging step. */
  stageMaxShares: bigint;
  log: NodeJS.WritableStream;
}

export interface LocalnetProcess {
  child: ChildProcess;
  rpcUrl: string;
  wsUrl: string;
  faucetUrl: string;
  addressesFile: string;
  vaults: { id: string; name: string }[];
}

/**
 * The chain as `npm run localnet` runs it, on free ports, with its own addresses file; its keeper
 * delivers claimable withdrawals (the local default), so a test's owner claims only when it is first.
 */
export async function startLocalnet(options: LocalnetOptions): Promise<LocalnetProcess> {
  const rpcPort = await freePort();
  const wsPort = await freePort();
  const addressesFile = join(mkdtempSync(join(tmpdir(), "vault-web-")), "addresses.json");
  const child = spawn(
    process.execPath,
    [
      tsxCli,
      "localnet/main.ts",
      `--rpc-port=${rpcPort}`,
      `--ws-port=${wsPort}`,
      `--addresses-file=${addressesFile}`,
      `--slot-ms=${options.slotMs}`,
      `--keeper-nav-interval=${options.navIntervalSeconds}`,
      `--keeper-stage-interval=${options.stageIntervalSeconds}`,
      `--keeper-stage-max-shares=${options.stageMaxShares}`,
      "--faucet-requests-per-minute=10000",
    ],
    { cwd: REPO_ROOT, env: { ...process.env, LOCALNET_STATE_DIR: "" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout?.pipe(options.log);
  child.stderr?.pipe(options.log);
  const rpcUrl = `http://127.0.0.1:${rpcPort}`;
  const deadline = Date.now() + HUNG_AFTER_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`The localnet exited (code ${child.exitCode}) before it was ready`);
    }
    try {
      if (await isLocalnetHealthy(rpcUrl)) {
        const addresses = JSON.parse(readFileSync(addressesFile, "utf8")) as {
          wsUrl: string;
          faucetUrl: string;
          vaults: { id: string; name: string }[];
        };
        return {
          child,
          rpcUrl,
          wsUrl: addresses.wsUrl,
          faucetUrl: addresses.faucetUrl,
          addressesFile,
          vaults: addresses.vaults,
        };
      }
    } catch {
      // Its addresses file is not written yet.
    }
    await sleep(250);
  }
  await stop(child);
  throw new Error(`The localnet did not answer within ${HUNG_AFTER_MS / 60_000} minutes while running`);
}

export type AppMode = "start" | "dev";

/** Environment for a Next.js command: NODE_ENV as Next.js expects it for the mode. */
export function appEnv(mode: AppMode, values: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: mode === "dev" ? "development" : "production",
    NEXT_TELEMETRY_DISABLED: "1",
    ...values,
  };
}

export function buildApp(env: NodeJS.ProcessEnv): void {
  const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: REPO_ROOT, env, stdio: "inherit" });
  if (build.status !== 0) {
    throw new Error(`next build failed (exit ${build.status ?? "signal"})`);
  }
}

/** The app's server (scripts/web.ts) on `port`, in production or dev mode, resolved once /api/health answers. */
export async function startApp(
  mode: AppMode,
  port: number,
  env: NodeJS.ProcessEnv,
  log: NodeJS.WritableStream,
): Promise<ChildProcess> {
  const args = [tsxCli, "scripts/web.ts", "--port", String(port), "--hostname", "127.0.0.1"];
  const child = spawn(process.execPath, mode === "dev" ? [...args, "--dev"] : args, {
    cwd: REPO_ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const deadline = Date.now() + HUNG_AFTER_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`The app exited (code ${child.exitCode}) before it was ready`);
    }
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`, {
        signal: AbortSignal.timeout(30_000),
      });
      await response.body?.cancel();
      return child;
    } catch {
      await sleep(250);
    }
  }
  await stop(child);
  throw new Error(`The app did not answer within ${HUNG_AFTER_MS / 60_000} minutes while running`);
}
