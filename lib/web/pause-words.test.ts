import { describe, expect, it } from "vitest";

import { pauseWords } from "./pause-words";

describe("pauseWords", () => {
  // Day 20 of an admin's pause: 2023-12-04 22:13:20 UTC.
  const until = 1_701_728_000n;

  it("names the protocol admin and the end in the reader's locale and zone", () => {
    expect(pauseWords({ until, by: "admin" }, { locale: "en-US", timeZone: "UTC" })).toBe(
      "Paused by the protocol admin until Dec 4, 10:13 PM UTC",
    );
    expect(pauseWords({ until, by: "admin" }, { locale: "de-DE", timeZone: "Europe/Berlin" })).toBe(
      "Paused by the protocol admin until 4. Dez., 23:13 MEZ",
    );
  });

  it("names the manager for the manager's own pause", () => {
    expect(pauseWords({ until, by: "manager" }, { locale: "en-GB", timeZone: "UTC" })).toBe(
      "Paused by the manager until 4 Dec, 22:13 UTC",
    );
  });
});
