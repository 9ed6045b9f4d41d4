// npm run bench:localnet's command line: its three counts, strictly.
import { describe, expect, it } from "vitest";

import { UsageError } from "../lib/cli/args";
import { parseOptions } from "./bench";

describe("bench:localnet options", () => {
  it("reads the documented flags, with their defaults", () => {
    expect(parseOptions([])).toEqual({ transactions: 2000, concurrency: 64, reads: 2000 });
    expect(parseOptions(["--transactions", "10", "--concurrency=8", "--reads", "5"])).toEqual({
      transactions: 10,
      concurrency: 8,
      reads: 5,
    });
  });

  it.each([
    [["--transaction", "10"], "Unknown option '--transaction'"],
    [["--reads"], "Option '--reads <value>' argument missing"],
    [["--concurrency", "2000"], '--concurrency must be an integer from 1 to 1024; got "2000"'],
    [["--transactions", "lots"], '--transactions must be an integer from 1 to 1000000; got "lots"'],
    [["10"], "unexpected argument '10'"],
  ])("refuses %j", (argv, reason) => {
    expect(() => parseOptions(argv)).toThrow(new UsageError(reason));
  });
});
