// Issue 31's "done when": an unknown flag to any command line exits non-zero with the usage. Every
// package.json script that runs one of our files is started as npm starts it, with a flag nobody
// declares; each must exit 2 having printed `<command>: <reason>`, a blank line and its usage, and
// nothing on stdout. A new script is covered by being added to package.json.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { REPO_ROOT } from "../../localnet/config";

const FLAG = "--no-such-flag-anywhere";

// Scripts that hand their arguments on to another tool, which refuses an unknown flag itself.
const PASSED_ON: Record<string, string> = {
  "test:rust": "cargo test's arguments",
  "test:e2e": "vitest's arguments",
};

const scripts = Object.entries(
  (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> })
    .scripts,
).flatMap(([name, command]) => {
  // scripts/run-bundled.mjs runs a TypeScript file bundled on plain Node (npm run keys).
  const match = /^(?:tsx|node --import tsx|node)( scripts\/run-bundled\.mjs)? (\S+\.(?:ts|mjs))$/.exec(
    command,
  );
  const file = match?.[2];
  return file === undefined || name in PASSED_ON ? [] : [{ name, file, bundled: match?.[1] !== undefined }];
});

function run(
  file: string,
  bundled: boolean,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const runner = bundled ? ["scripts/run-bundled.mjs"] : ["--import", "tsx"];
    const child = spawn(process.execPath, [...runner, file, FLAG], {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      // A script that ignored the flag would start its real work: stop it rather than wait.
      timeout: 110_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

it("finds the scripts (the servers, keys, operator commands, localnet, benches, generators)", () => {
  expect(scripts.map(({ name }) => name)).toEqual(
    expect.arrayContaining([
      "dev",
      "start",
      "api",
      "keys",
      "keeper",
      "sign",
      "vault",
      "protocol",
      "localnet",
    ]),
  );
  expect(scripts.length).toBeGreaterThanOrEqual(20);
});

describe.concurrent("an unknown flag", () => {
  it.each(scripts)(
    "npm run $name ($file) exits 2 with the reason and the usage",
    async ({ file, bundled }) => {
      const result = await run(file, bundled);
      const [reason = "", blank, usage = ""] = result.stderr.split("\n");
      expect(reason).toMatch(/^[\w: -]+: /);
      expect(reason).toContain(FLAG);
      expect(blank).toBe("");
      expect(usage).toMatch(/^Usage:/);
      expect(result.stdout).toBe("");
      expect(result.code).toBe(2);
    },
    120_000,
  );
});
