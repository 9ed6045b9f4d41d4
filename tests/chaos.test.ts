// `npm run chaos -- --quick` as a process: two instances over this machine's PostgreSQL and Redis and a
// local chain, through each fault for 5 s. Asserts the zeros (no history row lost or doubled, no
// webhook lost, no event delivered under two webhook-ids, every 5xx a 503 with Retry-After) and the
// shared limit (a key at twice its rate from both instances is served exactly its limit), never a
// timing; that both instances said in /metrics that limits were per process while Redis was down;
// and that no instance exited except the one killed. Needs DATABASE_URL and REDIS_URL; skipped with a
// note otherwise.
import { spawn } from "node:child_process";

import { expect, it } from "vitest";

const skip = process.env.DATABASE_URL === undefined || process.env.REDIS_URL === undefined;
if (skip) {
  console.warn("chaos: DATABASE_URL and REDIS_URL are both needed (the run is over them); skipping");
}

interface PhaseResult {
  fault: string;
  requests: number;
  served: number;
  serverErrors: number;
  unavailableWithRetry: number;
  limitedWithRetry: number;
  deposits: number;
  historyLost: number;
  historyDoubled: number;
  webhooksLost: number;
  webhooksDoubled: number;
  note: string;
  sharedDuring?: (number | null)[];
}

function runChaos(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/chaos.ts", "--quick"], {
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

it.skipIf(skip)(
  "loses and doubles nothing through each fault, answers every 5xx with 503 and Retry-After, and shares one key's limit",
  async () => {
    const { code, output } = await runChaos();
    expect(code, output).toBe(0);
    const line = output.split("\n").find((text) => text.startsWith("chaos-result "));
    expect(line, output).toBeDefined();
    const result = JSON.parse((line ?? "").slice("chaos-result ".length)) as {
      phases: PhaseResult[];
      crashes: string[];
    };
    // No instance exited but the one the run killed.
    expect(result.crashes, output).toEqual([]);
    expect(result.phases.map((phase) => phase.fault)).toEqual([
      "PostgreSQL restart (proxy cut)",
      "Redis down (proxy cut)",
      "RPC paused (proxy blackhole)",
      "instance SIGKILL during deliveries",
      "one key at 2x its rate from both instances",
    ]);
    for (const phase of result.phases) {
      expect(phase.historyLost, `${phase.fault}\n${output}`).toBe(0);
      expect(phase.historyDoubled, `${phase.fault}\n${output}`).toBe(0);
      expect(phase.webhooksLost, `${phase.fault}\n${output}`).toBe(0);
      expect(phase.webhooksDoubled, `${phase.fault}\n${output}`).toBe(0);
      expect(phase.serverErrors - phase.unavailableWithRetry, `${phase.fault}\n${output}`).toBe(0);
      expect(phase.requests).toBeGreaterThan(0);
    }
    // Deposits went through the faults (so the zeros above counted something).
    expect(result.phases.slice(0, 4).reduce((sum, phase) => sum + phase.deposits, 0)).toBeGreaterThan(0);
    // While Redis was down each instance said in /metrics that it counted limits alone.
    expect(result.phases[1]?.sharedDuring).toEqual([0, 0]);
    const rate = result.phases[4];
    expect(rate?.requests).toBe(40);
    expect(rate?.limitedWithRetry).toBe(20);
  },
  600_000,
);
