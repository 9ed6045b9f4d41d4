// npm run test:api-hosts: the API suites on the servers people run, after `npm run test:unit` ran them
// on the lean host. One `next build` (skipped with E2E_SKIP_BUILD=1 when a build exists, as the browser
// tests do), then the endpoint, security, fuzz, due-fee and smoke suites against `npm start`'s server
// (API_HOST=production), then the smoke suite, the security suite's credential cases and the typed
// client's partner flow (deposit, withdraw, claim through lib/client alone) against `npm run dev`'s
// (API_HOST=dev; its first page compiles for a minute, so only a subset runs there), then every
// endpoint's sample, the credential cases and /actions.json's refused methods through Next.js's route files (API_HOST=next).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { parseCommandLineOrExit } from "../../lib/cli/args";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(import.meta.url);
const nextBin = require.resolve("next/dist/bin/next");
const vitest = join(dirname(require.resolve("vitest/package.json")), "vitest.mjs");

const PRODUCTION_SUITES = [
  "tests/api/hosts-smoke.test.ts",
  // Every per-endpoint suite (vitest filters by path).
  "tests/api/endpoints/",
  "tests/api/security.test.ts",
  "tests/api/fuzz.test.ts",
  // A fee raise due and unapplied is the fee the vault shows, the check takes and the claim pays.
  "tests/api/fee-due.test.ts",
  // The pages' session: on the web server the pages issue it too (its per-IP issue rate).
  "lib/api/first-party-session.test.ts",
];
const DEV_SUITES = [
  "tests/api/hosts-smoke.test.ts",
  "tests/api/security.test.ts",
  "tests/api/client.test.ts",
];
/**
 * The security suite's credential cases (every partner route, no key / bad / unknown / revoked), and
 * the client's flow test alone (its 429 and expired-blockhash cases wait a minute each).
 */
const DEV_CASES = "API on the dev host|401|through the client deposits, withdraws and claims";

const NEXT_SUITES = ["tests/api/hosts-smoke.test.ts", "tests/api/security.test.ts"];
const NEXT_CASES = "documented status|401|403|bad key|actions.json";

function run(label: string, args: string[], env: NodeJS.ProcessEnv): boolean {
  console.log(`\ntest:api-hosts: ${label}`);
  const result = spawnSync(process.execPath, args, { cwd: REPO_ROOT, env, stdio: "inherit" });
  return result.status === 0;
}

function main(): number {
  parseCommandLineOrExit(
    "test:api-hosts",
    "Usage: npm run test:api-hosts   (no flags; E2E_SKIP_BUILD=1 reuses a build)",
    process.argv.slice(2),
    {},
  );
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  const reuse = process.env.E2E_SKIP_BUILD === "1" && existsSync(join(REPO_ROOT, ".next/BUILD_ID"));
  if (!reuse && !run("next build", [nextBin, "build"], { ...env, NODE_ENV: "production" })) {
    return 1;
  }
  const production = run(
    "the API suites on npm start's server",
    // One file at a time: each starts a chain and a Next.js server, on machines with few cores.
    [
      vitest,
      "run",
      "--no-file-parallelism",
      "--hookTimeout",
      "180000",
      "--testTimeout",
      "300000",
      ...PRODUCTION_SUITES,
    ],
    { ...env, API_HOST: "production" },
  );
  const dev = run(
    "the smoke and credential cases and the client's flow on npm run dev's server",
    [vitest, "run", "--no-file-parallelism", "--hookTimeout", "240000", ...DEV_SUITES, "-t", DEV_CASES],
    { ...env, API_HOST: "dev" },
  );
  // Next.js alone (a platform that runs `next start`): /api reaches the API through app/api's one
  // catch-all route file. Every endpoint of ENDPOINTS answers its sample as documented, and the
  // credential cases walk every partner route.
  const nextAlone = run(
    "every endpoint through Next.js's catch-all route file",
    [vitest, "run", "--no-file-parallelism", "--hookTimeout", "180000", ...NEXT_SUITES, "-t", NEXT_CASES],
    { ...env, API_HOST: "next" },
  );
  return production && dev && nextAlone ? 0 : 1;
}

process.exitCode = main();
