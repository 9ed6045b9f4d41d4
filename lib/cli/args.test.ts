// The shared command-line reader: strict flags, positionals counted, --help, integers in a range.
import { describe, expect, it } from "vitest";

import { HelpRequested, integerFlag, parseCommandLine, UsageError, usageErrorText } from "./args";

const OPTIONS = { name: { type: "string" }, verbose: { type: "boolean" } } as const;

describe("parseCommandLine", () => {
  it("reads known flags, --flag=value and booleans", () => {
    expect(parseCommandLine(["--name", "a", "--verbose"], OPTIONS).values).toEqual({
      name: "a",
      verbose: true,
    });
    expect(parseCommandLine(["--name=b"], OPTIONS).values).toEqual({ name: "b" });
  });

  it.each([
    [["--nme", "a"], "Unknown option '--nme'"],
    [["--name"], "Option '--name <value>' argument missing"],
    [["--name", "--verbose"], "Option '--name' argument is ambiguous"],
    [["--verbose=yes"], "Option '--verbose' does not take an argument"],
    [["stray"], "unexpected argument 'stray'"],
  ])("refuses %j: %s", (argv, reason) => {
    expect(() => parseCommandLine(argv, OPTIONS)).toThrow(UsageError);
    expect(() => parseCommandLine(argv, OPTIONS)).toThrow(new UsageError(reason));
  });

  it("counts positionals", () => {
    expect(parseCommandLine(["a"], OPTIONS, { maxPositionals: 1 }).positionals).toEqual(["a"]);
    expect(() => parseCommandLine(["a", "b"], OPTIONS, { maxPositionals: 1 })).toThrow(
      "unexpected argument 'b'",
    );
  });

  it("asks for help on --help or -h, even beside a wrong flag, but not after --", () => {
    expect(() => parseCommandLine(["--help"], OPTIONS)).toThrow(HelpRequested);
    expect(() => parseCommandLine(["--bogus", "-h"], OPTIONS)).toThrow(HelpRequested);
    expect(parseCommandLine(["--", "--help"], OPTIONS, { maxPositionals: 1 }).positionals).toEqual([
      "--help",
    ]);
  });
});

describe("integerFlag", () => {
  const range = { min: 1, max: 100 };

  it("reads an integer in range, or the fallback when absent", () => {
    expect(integerFlag("--n", "1", range)).toBe(1);
    expect(integerFlag("--n", "100", range, 5)).toBe(100);
    expect(integerFlag("--n", undefined, range, 5)).toBe(5);
    expect(integerFlag("--n", undefined, range)).toBeUndefined();
    expect(integerFlag("--n", "-3", { min: -5, max: 0 })).toBe(-3);
  });

  it.each(["0", "101", "1.5", "ten", "", " 7", "1e2", "0x10", "99999999999999999999"])(
    "refuses %j",
    (text) => {
      expect(() => integerFlag("--n", text, range)).toThrow(
        new UsageError(`--n must be an integer from 1 to 100; got "${text}"`),
      );
    },
  );
});

it("a refusal reads as the command, the reason, a blank line and the usage", () => {
  expect(usageErrorText("keys", "Unknown option '--scop'", "Usage: npm run keys -- …")).toBe(
    "keys: Unknown option '--scop'\n\nUsage: npm run keys -- …",
  );
});
