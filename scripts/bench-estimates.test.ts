// npm run bench:estimates's command line: counts in range, the keeper's flags handed on as given.
import { describe, expect, it } from "vitest";

import { UsageError } from "../lib/cli/args";
import { parseOptions } from "./bench-estimates";

describe("bench:estimates options", () => {
  it("reads the documented flags, with their defaults", () => {
    expect(parseOptions([])).toEqual({
      requests: 50,
      seed: 29,
      keeperArgs: [],
      deadlineSeconds: 300,
      verbose: false,
    });
    expect(
      parseOptions([
        "--requests",
        "10",
        "--seed=7",
        "--keeper-nav-interval",
        "5",
        "--deadline",
        "60",
        "--verbose",
      ]),
    ).toEqual({
      requests: 10,
      seed: 7,
      keeperArgs: ["--keeper-nav-interval", "5"],
      deadlineSeconds: 60,
      verbose: true,
    });
  });

  it.each([
    [["--request", "10"], "Unknown option '--request'"],
    [["--seed"], "Option '--seed <value>' argument missing"],
    [["--requests", "501"], '--requests must be an integer from 1 to 500; got "501"'],
    [["--deadline", "1.5"], '--deadline must be an integer from 1 to 3600; got "1.5"'],
  ])("refuses %j", (argv, reason) => {
    expect(() => parseOptions(argv)).toThrow(new UsageError(reason));
  });
});
