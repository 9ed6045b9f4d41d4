// npm test [-- <stage>…]: every stage in order (typecheck, lint, format, lock, rust, unit, api-hosts,
// e2e), each run even when an earlier one failed, so one red suite does not hide the state of the
// others; then each stage's result and time, and a non-zero exit if any failed. Named stages run alone.
// Ctrl-C stops the run (the stage under way gets the signal too).
import { spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { exitOnCommandLineError, parseCommandLine, UsageError } from "../lib/cli/args";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export interface Stage {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** npm as this run was started (npm sets npm_execpath), else the one on the PATH. */
function npmRun(name: string, script: string[], env?: Record<string, string>): Stage {
  const cli = process.env.npm_execpath;
  return cli !== undefined && cli.endsWith(".js")
    ? { name, command: process.execPath, args: [cli, "run", ...script], env }
    : { name, command: "npm", args: ["run", ...script], env };
}

export const STAGES: readonly Stage[] = [
  npmRun("typecheck", ["typecheck"]),
  npmRun("lint", ["lint"]),
  npmRun("format", ["format:check"]),
  npmRun("lock", ["lock:platforms", "--", "--check"]),
  npmRun("rust", ["test:rust"]),
  npmRun("unit", ["test:unit"]),
  npmRun("api-hosts", ["test:api-hosts"]),
  // On the build test:api-hosts made (the browser suite builds one itself when there is none).
  npmRun("e2e", ["test:e2e"], { E2E_SKIP_BUILD: "1" }),
];

const USAGE = `Usage: npm test [-- <stage>…]
  Runs every stage in order, each whether or not an earlier one failed, and reports each at the end.
  Stages: ${STAGES.map((stage) => stage.name).join(", ")}`;

export type Outcome = { stage: string; seconds: number } & (
  { passed: true } | { passed: false; why: string; interrupted: boolean }
);

/** The stages the arguments name, in the suite's order; all of them without arguments. */
export function selectStages(args: readonly string[]): Stage[] {
  const { positionals } = parseCommandLine(args, {}, { maxPositionals: Number.POSITIVE_INFINITY });
  const unknown = positionals.filter((name) => !STAGES.some((stage) => stage.name === name));
  if (unknown.length > 0) {
    throw new UsageError(`unknown stage ${unknown.join(", ")}`);
  }
  return positionals.length === 0 ? [...STAGES] : STAGES.filter((stage) => positionals.includes(stage.name));
}

function runStage(stage: Stage, log: (line: string) => void): Outcome {
  log(`\nnpm test: ${stage.name}`);
  const startedAt = performance.now();
  const result = spawnSync(stage.command, stage.args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...stage.env },
    stdio: "inherit",
  });
  const seconds = (performance.now() - startedAt) / 1000;
  if (result.error !== undefined) {
    return { stage: stage.name, seconds, passed: false, why: result.error.message, interrupted: false };
  }
  if (result.signal !== null) {
    const interrupted = result.signal === "SIGINT" || result.signal === "SIGTERM";
    return { stage: stage.name, seconds, passed: false, why: `killed by ${result.signal}`, interrupted };
  }
  return result.status === 0
    ? { stage: stage.name, seconds, passed: true }
    : { stage: stage.name, seconds, passed: false, why: `exit ${result.status}`, interrupted: false };
}

function formatSeconds(seconds: number): string {
  return seconds < 60
    ? `${seconds.toFixed(1)} s`
    : `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

function summary(outcomes: readonly Outcome[], skipped: readonly string[]): string {
  const width = Math.max(
    ...[...outcomes.map((outcome) => outcome.stage), ...skipped].map((name) => name.length),
  );
  const lines = outcomes.map((outcome) => {
    const result = outcome.passed ? "passed" : `FAILED (${outcome.why})`;
    return `  ${outcome.stage.padEnd(width)}  ${result}, ${formatSeconds(outcome.seconds)}`;
  });
  for (const name of skipped) {
    lines.push(`  ${name.padEnd(width)}  not run (interrupted)`);
  }
  const failed = outcomes.filter((outcome) => !outcome.passed).map((outcome) => outcome.stage);
  const verdict =
    failed.length === 0 && skipped.length === 0
      ? `npm test: every stage passed (${outcomes.length})`
      : `npm test: ${failed.length} of ${outcomes.length + skipped.length} stages failed${failed.length > 0 ? ` (${failed.join(", ")})` : ""}${skipped.length > 0 ? `, ${skipped.length} not run` : ""}`;
  return [`\nnpm test: stages`, ...lines, verdict].join("\n");
}

/**
 * Runs the stages in order, each whether or not an earlier one failed (an interrupted one ends the
 * run), prints each one's result and time, and returns the exit code: 0 when all passed.
 */
export function runStages(
  stages: readonly Stage[],
  log: (line: string) => void = (line) => console.log(line),
): number {
  const outcomes: Outcome[] = [];
  for (const stage of stages) {
    const outcome = runStage(stage, log);
    outcomes.push(outcome);
    if (!outcome.passed && outcome.interrupted) {
      break;
    }
  }
  const skipped = stages.slice(outcomes.length).map((stage) => stage.name);
  log(summary(outcomes, skipped));
  return outcomes.every((outcome) => outcome.passed) && skipped.length === 0 ? 0 : 1;
}

function main(): number {
  let stages: Stage[];
  try {
    stages = selectStages(process.argv.slice(2));
  } catch (error) {
    exitOnCommandLineError("npm test", USAGE, error);
    throw error;
  }
  return runStages(stages);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main();
}
