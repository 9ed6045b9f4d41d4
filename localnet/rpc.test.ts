// The JSON-RPC edge: malformed requests get JSON-RPC error objects (never a crash or a hang), batches
// and notifications follow JSON-RPC 2.0, HTTP limits and CORS, and the cluster methods' shapes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { LocalnetHandle } from "./localnet";
import { postRaw, rpc, startTestLocalnet } from "./testing";

let localnet: LocalnetHandle;
let url: string;

beforeAll(async () => {
  localnet = await startTestLocalnet();
  url = localnet.rpcUrl;
});

afterAll(async () => {
  await localnet.stop();
});

const call = (method: string, params?: unknown[], id: unknown = 1): string =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });

describe("malformed JSON-RPC", () => {
  it.each([
    ["a truncated object", "{"],
    ["plain text", "hello"],
    ["an empty body", ""],
    ["trailing garbage", '{"jsonrpc":"2.0","id":1,"method":"getSlot"} x'],
  ])("answers %s with -32700 Parse error", async (_label, body) => {
    const response = await postRaw(url, body);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      jsonrpc: "2.0",
      error: { code: -32700, message: "Parse error" },
      id: null,
    });
  });

  it.each([
    ["a request without a method", { jsonrpc: "2.0", id: 7 }, 7],
    ["a JSON-RPC 1.0 request", { jsonrpc: "1.0", id: 7, method: "getSlot" }, 7],
    ["a method that is not a string", { jsonrpc: "2.0", id: 7, method: 42 }, 7],
    ["params that are a string", { jsonrpc: "2.0", id: 7, method: "getSlot", params: "x" }, 7],
    ["an id that is an object", { jsonrpc: "2.0", id: { a: 1 }, method: "getSlot" }, null],
    ["a bare number", 5, null],
    ["an empty batch", [], null],
  ])("answers %s with -32600 Invalid request", async (_label, body, id) => {
    const response = await postRaw(url, JSON.stringify(body));
    expect(response.json).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: "Invalid request" },
      id,
    });
  });

  it("answers an unknown method with -32601 and the request's id", async () => {
    const response = await postRaw(url, call("getEverything", [], "abc"));
    expect(response.json).toEqual({
      jsonrpc: "2.0",
      error: { code: -32601, message: "Method not found" },
      id: "abc",
    });
  });

  it.each([
    ["a missing required param", "getBalance", []],
    ["a param of the wrong type", "getBalance", [42]],
    ["too many params", "getHealth", [1]],
    ["params given by name", "getBalance", undefined],
  ])("answers %s with -32602 Invalid params", async (_label, method, params) => {
    const body =
      params === undefined
        ? JSON.stringify({ jsonrpc: "2.0", id: 3, method, params: { pubkey: "x" } })
        : call(method, params, 3);
    const response = await postRaw(url, body);
    expect(response.json).toMatchObject({ jsonrpc: "2.0", error: { code: -32602 }, id: 3 });
    expect((response.json as { error: { message: string } }).error.message).toMatch(/^Invalid params: /);
  });

  it.each([
    ["a pubkey that is not base58", "getBalance", ["not-a-key!"], "Invalid param: Invalid"],
    ["a pubkey of the wrong size", "getBalance", ["abc"], "Invalid param: WrongSize"],
    ["a signature of the wrong size", "getTransaction", ["abc"], "Invalid param: WrongSize"],
    [
      "a limit above 1000",
      "getSignaturesForAddress",
      ["11111111111111111111111111111111", { limit: 1001 }],
      "Invalid limit; max 1000",
    ],
    [
      "a commitment below confirmed",
      "getTransaction",
      ["1".repeat(64), { commitment: "processed" }],
      "Method does not support commitment below `confirmed`",
    ],
    ["a transaction that does not decode", "sendTransaction", ["AQID", { encoding: "base64" }], null],
  ])("answers %s with the validator's -32602 message", async (_label, method, params, message) => {
    const response = await postRaw(url, call(method, params));
    expect(response.json).toMatchObject({ error: { code: -32602 } });
    if (message !== null) {
      expect(response.json).toMatchObject({ error: { message } });
    }
  });

  it("answers a batch in order, skipping notifications and reporting each error", async () => {
    const response = await postRaw(
      url,
      JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "getHealth" },
        { jsonrpc: "2.0", method: "getHealth" },
        { jsonrpc: "2.0", id: 2, method: "nope" },
        "garbage",
        { jsonrpc: "2.0", id: 3, method: "getBalance", params: ["11111111111111111111111111111111"] },
      ]),
    );
    expect(response.json).toEqual([
      { jsonrpc: "2.0", result: "ok", id: 1 },
      { jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id: 2 },
      { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request" }, id: null },
      {
        jsonrpc: "2.0",
        result: { context: { slot: expect.any(Number), apiVersion: expect.any(String) }, value: 1 },
        id: 3,
      },
    ]);
  });

  it("sends nothing back for notifications only", async () => {
    const response = await postRaw(url, JSON.stringify([{ jsonrpc: "2.0", method: "getHealth" }]));
    expect(response.status).toBe(200);
    expect(response.text).toBe("");
  });

  it("refuses a body over 50 kB with 413 and keeps serving", async () => {
    const response = await postRaw(url, call("getHealth", ["x".repeat(60 * 1024)]));
    expect(response.status).toBe(413);
    expect(await rpc(url, "getHealth")).toEqual({ jsonrpc: "2.0", result: "ok", id: 1 });
  });

  it("survives a storm of garbage and still answers", async () => {
    const bodies = Array.from({ length: 200 }, (_, index) =>
      index % 4 === 0
        ? Buffer.from(Array.from({ length: 64 }, (_unused, byte) => (byte * 37 + index) % 256)).toString(
            "latin1",
          )
        : index % 4 === 1
          ? JSON.stringify({
              jsonrpc: "2.0",
              id: index,
              method: "getAccountInfo",
              params: [index, { encoding: index }],
            })
          : index % 4 === 2
            ? JSON.stringify([[[{}]], null, true])
            : call("sendTransaction", ["%%%%", { encoding: "base58" }], index),
    );
    const responses = await Promise.all(bodies.map((body) => postRaw(url, body)));
    expect(responses.every((response) => response.status === 200)).toBe(true);
    expect(await rpc(url, "getHealth")).toEqual({ jsonrpc: "2.0", result: "ok", id: 1 });
  });
});

describe("HTTP", () => {
  it("allows any origin, answers preflight requests and serves GET /health", async () => {
    const preflight = await fetch(url, { method: "OPTIONS", headers: { Origin: "http://localhost:3000" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("content-type");
    const health = await fetch(`${url}/health`);
    expect(await health.text()).toBe("ok");
    const answer = await postRaw(url, call("getHealth"));
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("requires POST with a JSON content type, as jsonrpc-http-server does", async () => {
    expect((await fetch(url)).status).toBe(405);
    expect((await postRaw(url, call("getHealth"), { "Content-Type": "text/plain" })).status).toBe(415);
    expect((await fetch(`${url}/nowhere`)).status).toBe(404);
  });
});

describe("cluster methods", () => {
  it("reports the node: version, health, genesis hash, identity", async () => {
    expect(await rpc(url, "getVersion")).toMatchObject({
      result: { "solana-core": expect.any(String), "feature-set": expect.any(Number) },
    });
    expect(await rpc(url, "getGenesisHash")).toMatchObject({ result: localnet.chain.identity.genesisHash });
    expect(await rpc(url, "getIdentity")).toMatchObject({
      result: { identity: localnet.chain.identity.identity },
    });
  });

  it("advances slots, block height and block times on the clock", async () => {
    const slot = async () =>
      ((await rpc(url, "getSlot", [{ commitment: "processed" }])) as { result: number }).result;
    const before = Math.floor(Date.now() / 1000);
    const first = await slot();
    // Wait for the timer to produce two slots; how long that takes depends on the machine's load (the
    // poll's limit is the test's, only there so a stopped clock fails with this line).
    await expect.poll(slot, { timeout: 50_000, interval: 50 }).toBeGreaterThanOrEqual(first + 2);
    const second = { result: await slot() };
    const height = (await rpc(url, "getBlockHeight", [{ commitment: "processed" }])) as { result: number };
    expect(height.result).toBeGreaterThanOrEqual(second.result);
    const time = (await rpc(url, "getBlockTime", [second.result])) as { result: number };
    // The slot started between the two readings of the wall clock, however long the machine took.
    expect(time.result).toBeGreaterThanOrEqual(before);
    expect(time.result).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect(await rpc(url, "getBlockTime", [second.result + 1_000_000])).toMatchObject({
      error: { code: -32004, message: `Block not available for slot ${second.result + 1_000_000}` },
    });
    expect(await rpc(url, "getEpochInfo")).toMatchObject({
      result: {
        epoch: 0,
        slotsInEpoch: 432000,
        absoluteSlot: expect.any(Number),
        transactionCount: expect.any(Number),
      },
    });
  });

  it("issues blockhashes valid for 150 blocks, with lastValidBlockHeight", async () => {
    const latest = (await rpc(url, "getLatestBlockhash", [{ commitment: "processed" }])) as {
      result: { context: { slot: number }; value: { blockhash: string; lastValidBlockHeight: number } };
    };
    const height = (await rpc(url, "getBlockHeight", [{ commitment: "processed" }])) as { result: number };
    expect(latest.result.value.lastValidBlockHeight).toBeGreaterThan(height.result + 140);
    expect(latest.result.value.lastValidBlockHeight).toBeLessThanOrEqual(height.result + 150);
    expect(await rpc(url, "isBlockhashValid", [latest.result.value.blockhash])).toMatchObject({
      result: { value: true },
    });
    expect(await rpc(url, "isBlockhashValid", ["4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi"])).toMatchObject(
      {
        result: { value: false },
      },
    );
    expect(await rpc(url, "isBlockhashValid", ["abc"])).toMatchObject({
      error: { code: -32602, message: "WrongSize" },
    });
  });

  it("answers rent, fee and prioritization-fee queries", async () => {
    expect(await rpc(url, "getMinimumBalanceForRentExemption", [0])).toMatchObject({ result: 890880 });
    expect(await rpc(url, "getMinimumBalanceForRentExemption", [165])).toMatchObject({ result: 2039280 });
    const fees = (await rpc(url, "getRecentPrioritizationFees", [[]])) as {
      result: { slot: number; prioritizationFee: number }[];
    };
    expect(fees.result.length).toBeGreaterThan(0);
    expect(fees.result[0]).toEqual({ slot: expect.any(Number), prioritizationFee: 0 });
  });
});
