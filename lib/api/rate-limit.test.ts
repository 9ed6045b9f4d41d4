// The limiter says when its counts stop being shared: with Redis unreachable an in-process count
// stands in (the same limit, per process), and the change is reported once, and again when Redis is back.
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";

import { describe, expect, it } from "vitest";

import { createRedis } from "./context";
import { createRateLimiter } from "./rate-limit";

const REDIS_URL = process.env.REDIS_URL ?? null;

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("the rate limiter without its Redis", () => {
  it("counts in process, still limiting, and reports once that counts are no longer shared", async () => {
    const redis = createRedis(`redis://127.0.0.1:${await closedPort()}`);
    const changes: boolean[] = [];
    try {
      const limiter = createRateLimiter({
        redis,
        keyPrefix: "test:down",
        onSharedChange: (shared) => changes.push(shared),
      });
      const rule = { bucket: "down", limit: 3, windowSeconds: 60 };
      const decisions = [];
      for (let index = 0; index < 4; index += 1) {
        decisions.push((await limiter.consume(rule, "client")).allowed);
      }
      expect(decisions).toEqual([true, true, true, false]);
      expect((await limiter.peek(rule, "client")).allowed).toBe(false);
      expect(changes).toEqual([false]);
    } finally {
      redis.disconnect();
    }
  });

  it("reports nothing without REDIS_URL (counting in process is the configuration)", async () => {
    const changes: boolean[] = [];
    const limiter = createRateLimiter({
      redis: null,
      keyPrefix: "test:none",
      onSharedChange: (shared) => changes.push(shared),
    });
    await limiter.consume({ bucket: "none", limit: 1, windowSeconds: 60 }, "client");
    expect(changes).toEqual([]);
  });

  it.skipIf(REDIS_URL === null)("reports nothing while Redis answers", async () => {
    const redis = createRedis(REDIS_URL ?? "");
    const changes: boolean[] = [];
    try {
      if (redis.status !== "ready") {
        await new Promise((resolve) => redis.once("ready", resolve));
      }
      const limiter = createRateLimiter({
        redis,
        keyPrefix: `test:up:${Date.now()}`,
        onSharedChange: (shared) => changes.push(shared),
      });
      expect((await limiter.consume({ bucket: "up", limit: 1, windowSeconds: 60 }, "client")).allowed).toBe(
        true,
      );
      expect(changes).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });
});
