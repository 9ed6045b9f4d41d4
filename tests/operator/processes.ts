// The operator commands as an operator runs them: child processes of the npm scripts' entry points,
// their output collected, and long-running ones (the local chain, keepers) watched line by line.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";

import { REPO_ROOT } from "../../localnet/config";

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function nodeArgs(script: string, args: readonly string[]): string[] {
  return ["--import", "tsx", join(REPO_ROOT, script), ...args];
}

/** Runs `script` (e.g. "scripts/vault.ts") to completion. */
export function runScript(
  script: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs(script, args), {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export interface RunningProcess {
  child: ChildProcess;
  lines: string[];
  /** Resolves with the first line (already seen or to come) that matches. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Ends it: SIGTERM (a clean stop) or SIGKILL (a crash). */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export function startScript(
  script: string,
  args: readonly string[],
  env: Record<string, string> = {},
): RunningProcess {
  const child = spawn(process.execPath, nodeArgs(script, args), {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const waiters = new Set<{ pattern: RegExp; resolve: (line: string) => void }>();
  let partial = "";
  const take = (chunk: Buffer): void => {
    partial += chunk.toString();
    const parts = partial.split("\n");
    partial = parts.pop() ?? "";
    for (const line of parts) {
      lines.push(line);
      for (const waiter of waiters) {
        if (waiter.pattern.test(line)) {
          waiters.delete(waiter);
          waiter.resolve(line);
        }
      }
    }
  };
  child.stdout?.on("data", take);
  child.stderr?.on("data", take);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    lines,
    waitForLine(pattern, timeoutMs = 30_000) {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) {
        return Promise.resolve(seen);
      }
      return new Promise((resolve, reject) => {
        const waiter = { pattern, resolve };
        waiters.add(waiter);
        setTimeout(() => {
          if (waiters.delete(waiter)) {
            reject(
              new Error(`no line matching ${pattern} within ${timeoutMs} ms; output:\n${lines.join("\n")}`),
            );
          }
        }, timeoutMs).unref();
      });
    },
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
      }
      await exited;
    },
  };
}
