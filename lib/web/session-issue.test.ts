import { describe, expect, it } from "vitest";

import { parseSessionNotice, sessionNoticeHeader } from "./session-issue";

describe("the session notice the proxy hands the page", () => {
  it("carries when a session can be issued again, from the limiter's Retry-After, and the limit", () => {
    const nowMs = 1_764_000_000_000;
    const header = sessionNoticeHeader(
      { allowed: false, limit: 300, remaining: 0, resetAt: nowMs / 1000 + 240, retryAfter: 240 },
      600,
      nowMs,
    );
    expect(parseSessionNotice(header)).toEqual({
      retryAtMs: nowMs + 240_000,
      limit: 300,
      windowSeconds: 600,
    });
  });

  it("reads nothing from an absent or malformed value", () => {
    for (const value of [null, "", "1;2", "1;2;3;4", "a;300;600", "-1;300;600", "1.5;300;600", "1;0;600"]) {
      expect(parseSessionNotice(value), String(value)).toBeNull();
    }
  });
});
