// Two app instances sharing one Redis enforce one limit between them, exactly, under concurrency:
// the keyless per-IP limit and a key's RPM. Needs REDIS_URL; skipped with a note otherwise.
import { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { REDIS_URL, startApiHarness, uniqueSuffix, type ApiHarness } from "./harness";

const skip = REDIS_URL === null;
if (skip) {
  console.warn("redis-limits: REDIS_URL is not set; skipping the two-instance rate-limit tests");
}

let first: ApiHarness;
let second: ApiHarness;

beforeAll(async () => {
  if (skip) {
    return;
  }
  const rateLimitPrefix = `test:${uniqueSuffix()}`;
  const env = { TRUSTED_PROXY_COUNT: "1", KEY_CACHE_SECONDS: "60" };
  first = await startApiHarness({ rateLimitPrefix, env });
  second = await startApiHarness({
    sharedLocalnet: first.localnet,
    rateLimitPrefix,
    env,
    // One database when there is a PostgreSQL; with PGlite each instance has its own.
    schema: first.schema,
  });
});

afterAll(async () => {
  await second?.close();
  await first?.close();
});

/** The same key in both instances' stores (one store already when they share PostgreSQL). */
async function sharedKey(rpm: number): Promise<string> {
  const { secret, id } = await first.createKey({ scope: "read", rpm });
  if (first.config.databaseUrl === null) {
    const [row] = await first.context.store.query<Record<string, unknown>>(
      "SELECT id, name, key_prefix, key_hash, scope, rpm FROM api_keys WHERE id = $1",
      [id],
    );
    await second.context.store.query(
      "INSERT INTO api_keys (id, name, key_prefix, key_hash, scope, rpm) VALUES ($1, $2, $3, $4, $5, $6)",
      [row?.id, row?.name, row?.key_prefix, row?.key_hash, row?.scope, row?.rpm],
    );
  }
  return secret;
}

describe.skipIf(skip)("rate limits shared through Redis by two instances", () => {
  it("allow exactly 20 keyless requests per 5 s from one client across both", async () => {
    const headers = { "X-Forwarded-For": "198.51.100.200" };
    const results = await Promise.all(
      Array.from({ length: 40 }, (_unused, index) =>
        (index % 2 === 0 ? first : second).request("GET", "/api/oracle", { headers }),
      ),
    );
    expect(results.filter((result) => result.status === 200)).toHaveLength(20);
    expect(results.filter((result) => result.status === 429)).toHaveLength(20);
  });

  it("allow exactly a key's RPM across both, keyed by key id", async () => {
    const secret = await sharedKey(30);
    const wallet = Keypair.generate().publicKey.toBase58();
    const path = `/api/history?wallet=${wallet}&vault_id=${first.vaultId}`;
    const results = await Promise.all(
      Array.from({ length: 60 }, (_unused, index) =>
        (index % 2 === 0 ? first : second).request("GET", path, { key: secret }),
      ),
    );
    const statuses = results.map((result) => result.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(30);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
    const remaining = results
      .filter((result) => result.status === 200)
      .map((result) => Number(result.headers.get("x-ratelimit-remaining")))
      .sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 30 }, (_unused, index) => index));
  });
});
