// A localnet as a child process on free ports, as the benchmarks start one: `localnet/main.ts` through
// tsx, its addresses written to a file in a fresh temporary directory, which stop() removes.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { z } from "zod";

import { REPO_ROOT } from "./config";

export interface LocalnetChild {
  child: ChildProcess;
  addressesFile: string;
  /** Ends the localnet (if it still runs) and removes its directory. */
  stop(): Promise<void>;
}

/** Starts `localnet/main.ts --rpc-port 0 --ws-port 0 --addresses-file <file> ...args`. */
export async function spawnLocalnet(
  args: readonly string[],
  options: { tempPrefix: string; stdout: "ignore" | "pipe" },
): Promise<LocalnetChild> {
  const directory = await mkdtemp(join(tmpdir(), options.tempPrefix));
  const addressesFile = join(directory, "addresses.json");
  const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");
  const child = spawn(
    process.execPath,
    [
      tsxCli,
      "localnet/main.ts",
      "--rpc-port",
      "0",
      "--ws-port",
      "0",
      "--addresses-file",
      addressesFile,
      ...args,
    ],
    { cwd: REPO_ROOT, stdio: ["ignore", options.stdout, "inherit"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    await rm(directory, { recursive: true, force: true });
  };
  return { child, addressesFile, stop };
}

/**
 * The addresses the localnet writes once it serves, read every `pollMs`; null when it exited first or
 * `timeoutMs` passed.
 */
export async function waitForAddresses<T>(
  localnet: LocalnetChild,
  schema: z.ZodType<T>,
  timeoutMs: number,
  pollMs: number,
): Promise<T | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return schema.parse(JSON.parse(await readFile(localnet.addressesFile, "utf8")));
    } catch {
      if (localnet.child.exitCode !== null || Date.now() > deadline) {
        return null;
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }
}
