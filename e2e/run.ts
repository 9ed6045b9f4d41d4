// npm run test:e2e [-- <vitest args>]
//
// The browser suite with Debian's Chromium. Without /usr/bin/chromium: installs it when running as
// root with apt-get (as programs/toolchain/host-test.ts does for Rust), else SKIPS and names the
// command. Then builds the app and runs e2e/*.e2e.ts (see e2e/support/global-setup.ts).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CHROMIUM = "/usr/bin/chromium";
const APT_GET = "/usr/bin/apt-get";

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): boolean {
  const result = spawnSync(command, args, { cwd: REPO_ROOT, env, stdio: "inherit" });
  if (result.error !== undefined) {
    console.error(`test:e2e: cannot run ${command}: ${result.error.message}`);
  }
  return result.status === 0;
}

function main(): number {
  if (!existsSync(CHROMIUM)) {
    if (process.getuid?.() !== 0 || !existsSync(APT_GET)) {
      console.warn(
        `\n*** SKIPPED: browser tests (${CHROMIUM} is not installed).\n` +
          "*** Install Debian's Chromium to run them: apt-get install -y chromium\n",
      );
      return 0;
    }
    console.log(`${CHROMIUM} is missing; installing Debian's Chromium: apt-get install -y chromium`);
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    if (!run(APT_GET, ["update"], env) || !run(APT_GET, ["install", "-y", "chromium"], env)) {
      console.error("test:e2e: apt-get failed to install Chromium");
      return 1;
    }
  }
  // The CLI file beside vitest's package.json (its "exports" do not list it).
  const vitest = join(dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs");
  return run(process.execPath, [vitest, "run", "--config", "e2e/vitest.config.ts", ...process.argv.slice(2)])
    ? 0
    : 1;
}

process.exitCode = main();
