// npm test's runner: every stage runs even after a red one, the end names each stage's result, and the
// exit code is non-zero when any failed; stage names are checked.
import { describe, expect, it } from "vitest";

import { runStages, selectStages, STAGES, type Stage } from "./test";

/** A real child process that exits with `code`. */
function nodeStage(name: string, code: number): Stage {
  return { name, command: process.execPath, args: ["-e", `process.exitCode = ${code}`] };
}

describe("npm test's runner", () => {
  it("runs every stage after a failed one, reports each, and exits 1", () => {
    const lines: string[] = [];
    const code = runStages([nodeStage("first", 0), nodeStage("second", 3), nodeStage("third", 0)], (line) =>
      lines.push(line),
    );
    expect(code).toBe(1);
    const report = lines.join("\n");
    expect(report).toMatch(/first\s+passed/);
    expect(report).toMatch(/second\s+FAILED \(exit 3\)/);
    expect(report).toMatch(/third\s+passed/);
    expect(report).toMatch(/npm test: 1 of 3 stages failed \(second\)$/);
  });

  it("exits 0 when every stage passed", () => {
    const lines: string[] = [];
    expect(runStages([nodeStage("only", 0)], (line) => lines.push(line))).toBe(0);
    expect(lines.at(-1)).toMatch(/npm test: every stage passed \(1\)$/);
  });

  it("keeps the suite's order, runs named stages alone, and refuses unknown names and flags", () => {
    expect(selectStages([]).map((stage) => stage.name)).toEqual([
      "typecheck",
      "lint",
      "format",
      "lock",
      "rust",
      "unit",
      "api-hosts",
      "e2e",
    ]);
    expect(selectStages(["e2e", "lint"]).map((stage) => stage.name)).toEqual(["lint", "e2e"]);
    expect(() => selectStages(["units"])).toThrow(/unknown stage units/);
    expect(() => selectStages(["--bail"])).toThrow(/Unknown option '--bail'/);
    expect(STAGES.find((stage) => stage.name === "e2e")?.env).toEqual({ E2E_SKIP_BUILD: "1" });
  });
});
