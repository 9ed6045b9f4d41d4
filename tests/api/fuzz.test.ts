// A generated stream of thousands of malformed, oversized, wrongly typed and hostile requests over
// HTTP: every answer is a 4xx (or a 2xx for the few that happen to be valid) in the right body shape,
// fast, and never a 5xx, a hang or a stack trace.
import { randomBytes } from "node:crypto";

import bs58 from "bs58";
import { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startApiHarness, type ApiHarness } from "./harness";

const REQUESTS = 3_000;
const CONCURRENCY = 24;

let harness: ApiHarness;
let writeKey: string;

beforeAll(async () => {
  harness = await startApiHarness();
  writeKey = (await harness.createKey({ scope: "write", rpm: 1_000_000 })).secret;
});

afterAll(async () => {
  await harness?.close();
});

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

interface GeneratedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Blob;
}

function generator(seed: number, vault: string, key: string) {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const wallet = Keypair.generate().publicKey.toBase58();

  const strings = [
    "",
    " ",
    "null",
    "0",
    "-1",
    "1e309",
    "NaN",
    "💥".repeat(50),
    "../../etc/passwd",
    "<script>alert(1)</script>",
    "'; DROP TABLE history; --",
    "%00",
    "\u0000",
    "x".repeat(20_000),
    wallet,
    vault,
    "11111111111111111111111111111111",
    bs58.encode(randomBytes(64)),
    // Base58 of the signature's length that decodes to 65 bytes.
    "z".repeat(88),
    "1".repeat(65),
    // Cursors past the largest slot.
    Buffer.from(`9223372036854775808:${"1".repeat(64)}`, "utf8").toString("base64url"),
    Buffer.from(`99999999999999999999:${"1".repeat(64)}`, "utf8").toString("base64url"),
    "18446744073709551616",
    "99999999999999999999999",
  ];
  const values: unknown[] = [
    ...strings,
    null,
    true,
    false,
    0,
    -1,
    1.5,
    2 ** 53 + 1,
    1e308,
    -0,
    [],
    {},
    [wallet],
    { wallet },
    { __proto__: { polluted: true } },
    { constructor: { prototype: { polluted: true } } },
  ];
  const fields = [
    "wallet",
    "amount",
    "uiAmount",
    "sharesAmount",
    "action",
    "vault_id",
    "signature",
    "__proto__",
    "constructor",
  ];

  function body(): string | Blob {
    switch (Math.floor(next() * 9)) {
      case 0:
        return "{";
      case 1:
        return JSON.stringify(pick(values));
      case 2:
        return "[".repeat(5_000) + "]".repeat(5_000);
      case 3:
        return new Blob([randomBytes(64)]);
      case 4:
        return JSON.stringify({ a: "y".repeat(17_000) });
      case 5:
        return '{"__proto__": {"isAdmin": true}, "wallet": "' + wallet + '", "amount": 1}';
      default: {
        const object: Record<string, unknown> = {};
        const count = Math.floor(next() * 5);
        for (let index = 0; index < count; index += 1) {
          object[pick(fields)] = pick(values);
        }
        if (next() < 0.5) {
          object.wallet = pick([wallet, wallet, pick(values)]);
        }
        return JSON.stringify(object);
      }
    }
  }

  const vaultSegments = [
    vault,
    "not-a-vault",
    "%E0%A4%A",
    "..",
    encodeURIComponent("💥"),
    Keypair.generate().publicKey.toBase58(),
    "a".repeat(3_000),
  ];
  const paths = [
    () => `/api/vault/${pick(vaultSegments)}/deposit`,
    () => `/api/vault/${pick(vaultSegments)}/withdraw`,
    () => `/api/vault/${pick(vaultSegments)}/withdraw?wallet=${encodeURIComponent(String(pick(values)))}`,
    () => `/api/vault/${vault}/withdraw?wallet=${wallet}&wallet=${wallet}`,
    () =>
      `/api/history?wallet=${encodeURIComponent(String(pick(values)))}&vault_id=${pick(vaultSegments)}&limit=${encodeURIComponent(String(pick(values)))}&cursor=${encodeURIComponent(String(pick(values)))}`,
    () =>
      `/api/history?wallet=${wallet}&vault_id=${vault}&cursor=${encodeURIComponent(String(pick(values)))}`,
    () => "/api/history",
    () => `/api/oracle?vault=${encodeURIComponent(String(pick(values)))}`,
    () => "/api/circulating-supply?vault=%ZZ",
    () => `/api/${pick(["", "vault", "vault/x", "nope", "openapi.json/x", "health/../oracle"])}`,
  ];
  const authorizations = [
    undefined,
    `Bearer ${key}`,
    `Bearer ${key}`,
    `Bearer ${key}`,
    "Bearer",
    "Basic abc",
    `Bearer ${"z".repeat(9_000)}`,
    `bearer ${key}`,
  ];
  const contentTypes = [
    "application/json",
    "application/json",
    "text/plain",
    "application/json; charset=latin1",
    "multipart/form-data",
    undefined,
  ];

  return (): GeneratedRequest => {
    const method = pick(["GET", "POST", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]);
    const headers: Record<string, string> = {};
    const authorization = pick(authorizations);
    if (authorization !== undefined) {
      headers.Authorization = authorization;
    }
    const contentType = pick(contentTypes);
    if (contentType !== undefined) {
      headers["Content-Type"] = contentType;
    }
    const hasBody = method !== "GET" && method !== "HEAD";
    return { method, path: pick(paths)(), headers, body: hasBody ? body() : undefined };
  };
}

describe("a stream of bad requests", () => {
  it(`answers ${REQUESTS} of them with no 5xx, in the right shape, without leaking internals`, async () => {
    const nextRequest = generator(20_261_122, harness.vaultId, writeKey);
    const statuses = new Map<number, number>();
    const problems: string[] = [];
    let issued = 0;
    let slowest = 0;

    async function worker(): Promise<void> {
      while (issued < REQUESTS) {
        issued += 1;
        const request = nextRequest();
        const startedAt = performance.now();
        let response: Response;
        try {
          response = await fetch(`${harness.url}${request.path}`, {
            method: request.method,
            headers: request.headers,
            body: request.body,
            signal: AbortSignal.timeout(5_000),
          });
        } catch (error) {
          problems.push(`${request.method} ${request.path.slice(0, 80)}: ${String(error)}`);
          continue;
        }
        const text = await response.text();
        slowest = Math.max(slowest, performance.now() - startedAt);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status >= 500) {
          problems.push(
            `${request.method} ${request.path.slice(0, 80)} ${typeof request.body === "string" ? request.body.slice(0, 300) : ""} → ${response.status} ${text.slice(0, 200)}`,
          );
        }
        if (/node_modules|\.ts:\d+|at [A-Za-z.]+ \(/.test(text)) {
          problems.push(`${request.method} ${request.path.slice(0, 80)} leaked: ${text.slice(0, 200)}`);
        }
        if (response.status >= 400 && request.method !== "HEAD") {
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = null;
          }
          const error = (parsed as { error?: unknown } | null)?.error;
          if (typeof error !== "string" || error === "") {
            problems.push(
              `${request.method} ${request.path.slice(0, 80)} → ${response.status} without an error message`,
            );
          }
        }
      }
    }

    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    console.log(
      "statuses",
      Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
      `slowest ${Math.round(slowest)} ms`,
    );
    expect(problems.slice(0, 10)).toEqual([]);
    expect([...statuses.keys()].every((status) => status < 500)).toBe(true);
    expect(slowest).toBeLessThan(3_000);
  });
});
