// A generated stream of thousands of malformed, oversized, wrongly typed and hostile requests over
// HTTP: every answer is a 4xx (or a 2xx for the few that happen to be valid) in the right body shape,
// fast, and never a 5xx, a hang or a stack trace. Then, systematically, every string field of every
// endpoint (path parameter, query parameter, top-level body field) carrying each control character:
// a 400 naming the field, never a 5xx; and out-of-range numbers in the cursors and amounts.
import { randomBytes } from "node:crypto";

import bs58 from "bs58";
import { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ENDPOINTS } from "../../lib/api/endpoints";
import { startApiHarness, type ApiHarness } from "./harness";

const REQUESTS = 3_000;
const CONCURRENCY = 24;
/** Longer than any answer on a busy machine; a request still unanswered by then hangs. */
const HANG_MS = 30_000;

let harness: ApiHarness;
let writeKey: string;

beforeAll(async () => {
  harness = await startApiHarness();
  // The keyless routes' per-client limit would answer 429 before the fields are read.
  harness.context.publicLimit = { limit: 1_000_000, windowSeconds: 1 };
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

/** NUL, other C0 controls (tab, line feed, carriage return, escape among them), DEL and C1 controls. */
const CONTROL_CHARACTERS = [
  "\u0000",
  "\u0001",
  "\u0008",
  "\t",
  "\n",
  "\r",
  "\u001b",
  "\u007f",
  "\u0085",
  "\u009f",
];

interface FieldCase {
  name: string;
  method: string;
  path: string;
  body: unknown;
  audience: string;
  field: string;
}

/** Every endpoint's sample with one string field (path, query or body) replaced by `value(original)`. */
function fieldCases(vault: string, wallet: string, value: (original: unknown) => string): FieldCase[] {
  const cases: FieldCase[] = [];
  for (const endpoint of ENDPOINTS) {
    const sample = endpoint.sample?.({ vault, wallet }) ?? { path: endpoint.path };
    const url = new URL(sample.path, "http://host");
    const base = { method: endpoint.method, audience: endpoint.audience, body: sample.body };
    const pattern = endpoint.path.split("/");
    const segments = url.pathname.split("/");
    for (const name of Object.keys(endpoint.params?.shape ?? {})) {
      const index = pattern.indexOf(`:${name}`);
      if (index === -1) {
        continue;
      }
      const changed = [...segments];
      changed[index] = encodeURIComponent(value(decodeURIComponent(segments[index] ?? "")));
      cases.push({
        ...base,
        name: endpoint.operationId,
        field: name,
        path: `${changed.join("/")}${url.search}`,
      });
    }
    for (const name of Object.keys(endpoint.query?.shape ?? {})) {
      const query = new URLSearchParams(url.search);
      query.set(name, value(query.get(name)));
      cases.push({ ...base, name: endpoint.operationId, field: name, path: `${url.pathname}?${query}` });
    }
    const body = sample.body;
    if (typeof body === "object" && body !== null && !Array.isArray(body)) {
      const shape = endpoint.body !== null && "shape" in endpoint.body ? endpoint.body.shape : {};
      for (const name of new Set([...Object.keys(body), ...Object.keys(shape as object)])) {
        const original = (body as Record<string, unknown>)[name];
        const changed = Array.isArray(original) ? original.map((item) => value(item)) : value(original);
        cases.push({
          ...base,
          name: endpoint.operationId,
          field: name,
          path: sample.path,
          body: { ...body, [name]: changed },
        });
      }
    }
  }
  return cases;
}

/** The answer's status and its error's words (`error` in the envelope and bare errors, `message` in blinks'). */
async function send(request: FieldCase): Promise<{ status: number; error: string | null }> {
  const headers: Record<string, string> = {};
  if (request.audience === "partner") {
    headers.Authorization = `Bearer ${writeKey}`;
  }
  if (request.body !== undefined) {
    headers["Content-Type"] = "application/json";
  }
  const response = await fetch(`${harness.url}${request.path}`, {
    method: request.method,
    headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  const text = await response.text();
  let body: { error?: unknown; message?: unknown } | null = null;
  try {
    body = JSON.parse(text) as { error?: unknown; message?: unknown };
  } catch {
    body = null;
  }
  const error = body?.error ?? body?.message;
  return { status: response.status, error: typeof error === "string" ? error : null };
}

describe("control characters in every string field of every endpoint", () => {
  it("answer 400 naming the field, never a 5xx", async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    const problems: string[] = [];
    let checked = 0;
    for (const character of CONTROL_CHARACTERS) {
      const cases = fieldCases(harness.vaultId, wallet, (original) =>
        typeof original === "string" && original !== "" ? `${original}${character}` : `x${character}y`,
      );
      for (const request of cases) {
        const answer = await send(request);
        checked += 1;
        const said = `${request.method} ${request.name} ${request.field} ${JSON.stringify(character)} → ${answer.status} ${answer.error ?? ""}`;
        if (
          answer.status !== 400 ||
          !new RegExp(`^${request.field}(\\.\\d+)?: must not contain control characters$`).test(
            answer.error ?? "",
          )
        ) {
          problems.push(said);
        }
      }
    }
    console.log(`control characters: ${checked} requests over ${ENDPOINTS.length} endpoints`);
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(CONTROL_CHARACTERS.length * ENDPOINTS.length);
  });

  it("answers out-of-range numbers in cursors, limits and amounts with 400", async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    const problems: string[] = [];
    for (const number of [
      "9223372036854775808",
      "18446744073709551616",
      "99999999999999999999",
      "-1",
      "1e400",
      "0x10",
    ]) {
      const cases = fieldCases(harness.vaultId, wallet, () => number).filter((request) =>
        ["after", "limit", "cursor", "amount", "sharesAmount", "uiAmount", "from", "to"].includes(
          request.field,
        ),
      );
      for (const request of cases) {
        const answer = await send(request);
        // The blinks' metadata (GET) takes no amount: it ignores one, whatever it says.
        const ignored = request.method === "GET" && request.name.endsWith("Action");
        if (answer.status >= 500 || (answer.status === 200 && !ignored)) {
          problems.push(
            `${request.method} ${request.name} ${request.field}=${number} → ${answer.status} ${answer.error ?? ""}`,
          );
        }
      }
    }
    expect(problems).toEqual([]);
    const events = await harness.request("GET", `/api/events?after=${2n ** 63n}`, { key: writeKey });
    expect([events.status, (events.body as { error: string }).error]).toEqual([
      400,
      "after: must be a cursor this endpoint returned",
    ]);
    const largest = await harness.request("GET", `/api/events?after=${2n ** 63n - 1n}`, { key: writeKey });
    expect(largest.status).toBe(200);
  });
});

// Last: its bad credentials use up the failed-authentication budget of this client address.
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
            // A hang, not a busy machine's slow answer, is a problem: the time is printed, not judged.
            signal: AbortSignal.timeout(HANG_MS),
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
  });
});
