import { describe, expect, it } from "vitest";
import { z } from "zod";

import { ApiError } from "./errors";
import { parseInputOnce } from "./request-input";

describe("parseInputOnce", () => {
  const schema = z.object({ n: z.coerce.number().int() });

  it("reads and parses a source once, and answers the same value for it after", () => {
    const source = {};
    let reads = 0;
    const read = (): unknown => {
      reads += 1;
      return { n: "7" };
    };
    const first = parseInputOnce(schema, source, read);
    expect(first).toEqual({ n: 7 });
    expect(parseInputOnce(schema, source, read)).toBe(first);
    expect(reads).toBe(1);
    // Another source, or the same source under another schema, is parsed anew.
    expect(parseInputOnce(schema, {}, read)).toEqual({ n: 7 });
    expect(parseInputOnce(z.object({ n: z.string() }), source, read)).toEqual({ n: "7" });
    expect(reads).toBe(3);
  });

  it("does not remember a failure: each request gets its own 400", () => {
    const source = {};
    let reads = 0;
    const read = (): unknown => {
      reads += 1;
      return { n: "x" };
    };
    const failure = (): unknown => parseInputOnce(schema, source, read);
    expect(failure).toThrow(ApiError);
    expect(failure).toThrow(/^n: /);
    expect(reads).toBe(2);
  });

  it("refuses control characters as parseInput does", () => {
    expect(() => parseInputOnce(schema, {}, () => ({ n: "1\u0000" }))).toThrow(
      "n: must not contain control characters",
    );
  });
});
