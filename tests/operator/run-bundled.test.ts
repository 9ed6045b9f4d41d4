// scripts/run-bundled.mjs, which `npm run keys` runs the keys CLI with: a TypeScript script and its own
// modules bundled, its packages loaded from node_modules, its arguments and exit code as if Node had
// run it, each module's import.meta its own source file's, a change picked up on the next run, a broken
// script a non-zero exit naming the problem.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const directory = mkdtempSync(join(tmpdir(), "run-bundled-"));

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
  // The bundles of this test's scripts (named after the script: cli-…, broken-…).
  const cache = join(ROOT, "node_modules/.cache/run-bundled");
  for (const name of readdirSync(cache)) {
    if (/^(cli|broken)-[0-9a-f]{16}\.mjs$/.test(name)) {
      rmSync(join(cache, name), { force: true });
    }
  }
});

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["scripts/run-bundled.mjs", ...args], { cwd: ROOT });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

function writeScript(greeting: string): string {
  writeFileSync(
    join(directory, "greeting.ts"),
    `export const greeting: string = ${JSON.stringify(greeting)};\nexport const where = import.meta.filename;\n`,
  );
  const script = join(directory, "cli.ts");
  writeFileSync(
    script,
    [
      `import { z } from "zod";`,
      `import { pathToFileURL } from "node:url";`,
      `import { greeting, where } from "./greeting";`,
      `const count: number = z.coerce.number().parse(process.argv[3]);`,
      `const isMain = import.meta.url === pathToFileURL(process.argv[1] ?? "").href;`,
      `console.log(JSON.stringify({ argv: process.argv.slice(2), greeting, where, count, script: process.argv[1], isMain }));`,
      `process.exitCode = 3;`,
      "",
    ].join("\n"),
  );
  return script;
}

describe("running a TypeScript CLI bundled on plain Node", () => {
  it("passes the arguments and the exit code, with its own modules and its packages", async () => {
    const script = writeScript("hello");
    const first = await run([script, "--flag", "7", "last"]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(3);
    expect(JSON.parse(first.stdout)).toEqual({
      argv: ["--flag", "7", "last"],
      greeting: "hello",
      // Each module's import.meta is its own source file's, as under tsx.
      where: join(directory, "greeting.ts"),
      count: 7,
      script,
      isMain: true,
    });
    // A change to one of its modules is in the next run.
    writeScript("changed");
    const second = await run([script, "--flag", "8"]);
    expect(JSON.parse(second.stdout)).toMatchObject({ greeting: "changed", count: 8 });
  });

  it("exits non-zero naming the problem when the script does not build, or is not named", async () => {
    const broken = join(directory, "broken.ts");
    writeFileSync(broken, `import { missing } from "./absent";\nconsole.log(missing);\n`);
    const failed = await run([broken]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("./absent");
    const unnamed = await run([]);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain("Usage: node scripts/run-bundled.mjs <script.ts>");
  });
});
