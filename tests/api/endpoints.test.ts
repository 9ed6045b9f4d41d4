// Per endpoint: happy paths, the errors each one answers with (whole bodies), against the local chain.
// The keeper runs only when a test calls it, so the withdrawal's states are set up deliberately.
import { randomBytes } from "node:crypto";

import bs58 from "bs58";
import { Keypair, VersionedTransaction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { depositResponse } from "../../lib/api/schemas/deposit";
import { historyRecordResponse } from "../../lib/api/schemas/history";
import { withdrawResponse, withdrawalStatusResponse } from "../../lib/api/schemas/withdraw";
import { COMPUTE_UNIT_BUDGETS } from "../../lib/vault/transaction";
import { waitFor } from "../../localnet/testing";
import { USDC, dataOf, startApiHarness, type ApiHarness } from "./harness";

let harness: ApiHarness;
let writeKey: string;
let readKey: string;

beforeAll(async () => {
  harness = await startApiHarness({
    localnet: { keeper: { enabled: true, scheduled: false } },
    env: { TRUSTED_PROXY_COUNT: "1" },
  });
  writeKey = (await harness.createKey({ scope: "write" })).secret;
  readKey = (await harness.createKey({ scope: "read" })).secret;
});

afterAll(async () => {
  await harness?.close();
});

const depositPath = (vault = harness.vaultId): string => `/api/vault/${vault}/deposit`;
const withdrawPath = (vault = harness.vaultId): string => `/api/vault/${vault}/withdraw`;

function errorBody(status: number, code: string, error: string | RegExp) {
  return { status, code, error };
}

function expectError(
  result: { status: number; body: unknown },
  expected: { status: number; code: string; error: string | RegExp },
) {
  expect(result.status).toBe(expected.status);
  const body = result.body as Record<string, unknown>;
  expect(body.success).toBe(false);
  expect(body.code).toBe(expected.code);
  expect(String(body.requestId)).toMatch(/^req_/);
  if (typeof expected.error === "string") {
    expect(body.error).toBe(expected.error);
  } else {
    expect(String(body.error)).toMatch(expected.error);
  }
}

function keeper() {
  const running = harness.localnet.keeper;
  if (running === null) {
    throw new Error("the keeper is not running");
  }
  return running;
}

function primeVault() {
  const vault = harness.localnet.addresses.vaults[0];
  if (vault === undefined) {
    throw new Error("no demo vault");
  }
  return vault;
}

async function deposit(wallet: Keypair, amount: bigint, vault = harness.vaultId): Promise<string> {
  const data = dataOf(
    await harness.request("POST", depositPath(vault), {
      key: writeKey,
      body: { wallet: wallet.publicKey.toBase58(), amount: amount.toString() },
    }),
  );
  return harness.signAndSend(String(data.transaction), wallet);
}

describe("POST /api/vault/{vault_id}/deposit", () => {
  it("builds a v0 transaction for the wallet to sign, with the spec's details", async () => {
    const wallet = await harness.fundedWallet(500n * USDC);
    const result = await harness.request("POST", depositPath(), {
      key: writeKey,
      body: { wallet: wallet.publicKey.toBase58(), amount: "250000000" },
    });
    expect(result.status).toBe(200);
    expect(result.headers.get("x-ratelimit-limit")).toBe("100000");
    const body = depositResponse.parse(result.body);
    expect(body.data.details).toMatchObject({
      vaultId: harness.vaultId,
      vaultName: "USDC Prime",
      depositAmount: { amount: "250000000", decimals: 6, uiAmount: 250, symbol: "USDC" },
      depositAmountHuman: "250.00 USDC",
      assetDecimals: 6,
      // A fresh vault: 1,000 raw share units per raw USDC unit, in a mint of 9 decimals.
      estimatedSharesReceived: { amount: "250000000000", decimals: 9, uiAmount: 250, symbol: "vUSDC" },
    });
    expect(body.data.message).toMatch(/^Deposit 250\.00 USDC into USDC Prime for about/);
    expect(Date.parse(body.data.expiresAt)).toBeGreaterThan(Date.now());
    const transaction = VersionedTransaction.deserialize(Buffer.from(body.data.transaction, "base64"));
    expect(transaction.version).toBe(0);
    expect(transaction.message.staticAccountKeys[0]?.equals(wallet.publicKey)).toBe(true);
    const simulation = await harness.connection.simulateTransaction(transaction, { sigVerify: false });
    expect(simulation.value.err).toBeNull();
    expect(simulation.value.unitsConsumed).toBeLessThanOrEqual(COMPUTE_UNIT_BUDGETS.deposit);
  });

  it("takes amount over uiAmount, and converts uiAmount with the asset's decimals", async () => {
    const wallet = (await harness.fundedWallet(10n * USDC)).publicKey.toBase58();
    const both = dataOf(
      await harness.request("POST", depositPath(), {
        key: writeKey,
        body: { wallet, amount: 1_000_000, uiAmount: 7 },
      }),
    );
    expect(both.details).toMatchObject({ depositAmount: { amount: "1000000" } });
    const ui = dataOf(
      await harness.request("POST", depositPath(), { key: writeKey, body: { wallet, uiAmount: 2.5 } }),
    );
    expect(ui.details).toMatchObject({
      depositAmount: { amount: "2500000" },
      depositAmountHuman: "2.50 USDC",
    });
  });

  it.each([
    [
      "uiAmount with too many decimals",
      { uiAmount: 1.0000001 },
      errorBody(400, "INVALID_AMOUNT", "uiAmount has more than 6 decimals"),
    ],
    ["no amount", {}, errorBody(400, "INVALID_REQUEST", "amount: one of amount or uiAmount is required")],
    [
      "a negative amount",
      { amount: -1 },
      errorBody(400, "INVALID_REQUEST", "amount: must be a positive integer that fits in a u64"),
    ],
    [
      "more than the balance",
      { amount: "2000000000" },
      errorBody(
        422,
        "INSUFFICIENT_BALANCE",
        "The wallet holds 10.00 USDC, less than the 2000.00 USDC to deposit",
      ),
    ],
  ])("refuses %s", async (_name, fields, expected) => {
    const wallet = (await harness.fundedWallet(10n * USDC)).publicKey.toBase58();
    expectError(
      await harness.request("POST", depositPath(), { key: writeKey, body: { wallet, ...fields } }),
      expected,
    );
  });

  it("answers 404 for an address that is no vault and 400 for one that is no address", async () => {
    const wallet = (await harness.fundedWallet(10n * USDC)).publicKey.toBase58();
    const nobody = Keypair.generate().publicKey.toBase58();
    expectError(
      await harness.request("POST", depositPath(nobody), { key: writeKey, body: { wallet, amount: 1 } }),
      errorBody(404, "VAULT_NOT_FOUND", `No vault exists at ${nobody}`),
    );
    expectError(
      await harness.request("POST", depositPath("not-a-key"), { key: writeKey, body: { wallet, amount: 1 } }),
      errorBody(400, "INVALID_REQUEST", "vault_id: must be a base58 public key"),
    );
  });

  it("answers 405 with Allow for other methods, 415 and 400 for bad bodies", async () => {
    const wrongMethod = await harness.request("GET", depositPath(), { key: writeKey });
    expectError(wrongMethod, errorBody(405, "METHOD_NOT_ALLOWED", "Method GET is not allowed here"));
    expect(wrongMethod.headers.get("allow")).toBe("POST, OPTIONS");
    expectError(
      await harness.request("POST", depositPath(), {
        key: writeKey,
        rawBody: "{}",
        headers: { "Content-Type": "text/plain" },
      }),
      errorBody(415, "UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json"),
    );
    expectError(
      await harness.request("POST", depositPath(), {
        key: writeKey,
        rawBody: "{wallet:",
        headers: { "Content-Type": "application/json" },
      }),
      errorBody(400, "INVALID_JSON", "The body is not valid JSON"),
    );
  });
});

describe("withdrawals: GET, POST and PUT /api/vault/{vault_id}/withdraw", () => {
  let wallet: Keypair;
  let address: string;
  let initiateSignature: string;

  beforeAll(async () => {
    wallet = await harness.fundedWallet(1_000n * USDC);
    address = wallet.publicKey.toBase58();
    await deposit(wallet, 500n * USDC);
  });

  it("reports no pending withdrawal with zeros and nulls", async () => {
    const result = await harness.request("GET", `${withdrawPath()}?wallet=${address}`, { key: readKey });
    expect(withdrawalStatusResponse.parse(result.body).data).toMatchObject({
      hasPendingWithdrawal: false,
      pendingShares: "0",
      estimatedUsdcAmount: { amount: "0", symbol: "USDC" },
      canClaimNow: false,
      createdAt: null,
      estimate: null,
      progress: null,
    });
  });

  it.each([
    [
      "claim with nothing pending",
      { action: "claim" },
      errorBody(409, "NO_PENDING_WITHDRAWAL", "This wallet has no pending withdrawal in this vault to claim"),
    ],
    [
      "initiate without sharesAmount",
      {},
      errorBody(400, "INVALID_AMOUNT", "sharesAmount: is required when initiating a withdrawal"),
    ],
    [
      "below the vault's minimum",
      { sharesAmount: "1" },
      errorBody(
        422,
        "BELOW_MINIMUM",
        // Shares have 9 decimals (the asset's 6 plus the program's offset of 3).
        "The vault's minimum withdrawal is 1.00 vUSDC; 0.000000001 vUSDC requested",
      ),
    ],
    [
      "more shares than held",
      { sharesAmount: "900000000000" },
      errorBody(422, "INSUFFICIENT_BALANCE", /^The wallet holds 500\.00 vUSDC/),
    ],
    [
      "an unknown action",
      { action: "steal", sharesAmount: "1000000" },
      errorBody(400, "INVALID_REQUEST", "action: must be initiate or claim"),
    ],
  ])("refuses %s", async (_name, fields, expected) => {
    expectError(
      await harness.request("POST", withdrawPath(), { key: writeKey, body: { wallet: address, ...fields } }),
      expected,
    );
  });

  it("initiates (auto-detected) with the policy, limits and estimate, and never a reservation", async () => {
    const result = await harness.request("POST", withdrawPath(), {
      key: writeKey,
      body: { wallet: address, sharesAmount: "100000000000" },
    });
    const data = withdrawResponse.parse(result.body).data;
    expect(data.action).toBe("initiate");
    if (data.action !== "initiate") {
      return;
    }
    expect(data.details.withdrawalReservation).toBeNull();
    expect(data.details.withdrawalEstimate).toMatchObject({
      shares: { amount: "100000000000", symbol: "vUSDC", decimals: 9 },
      gross: { amount: "100000000" },
      fee: { amount: "100000" },
      net: { amount: "99900000" },
    });
    expect(data.details.withdrawalPolicy).toMatchObject({ feeBps: 10, queueOrder: "fifo" });
    expect(data.details.withdrawalLimits.hourly.cap?.amount).toBe("25000000000");
    initiateSignature = await harness.signAndSend(data.transaction, wallet);
  });

  it("reports the pending withdrawal: shares, value, progress, the NAV it waits for, and when it was requested", async () => {
    const status = withdrawalStatusResponse.parse(
      (await harness.request("GET", `${withdrawPath()}?wallet=${address}`, { key: readKey })).body,
    ).data;
    const onChain = await harness.connection.getTransaction(initiateSignature, {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    expect(status).toMatchObject({
      hasPendingWithdrawal: true,
      pendingShares: "100000000000",
      estimatedUsdcAmount: { amount: "100000000" },
      canClaimNow: false,
      // The NAV strike and the staging are both outstanding; no staging has been observed yet, so
      // the pace and with it the band are unknown.
      estimate: { kind: "staging", band: null },
      progress: { totalShares: "100000000000", stagedShares: "0" },
    });
    // Before the initiate is recorded, createdAt comes from the chain; after, from history: the same.
    expect(status.createdAt).toBe(new Date((onChain?.blockTime ?? 0) * 1000).toISOString());
    dataOf(
      await harness.request("POST", "/api/history", {
        key: writeKey,
        body: { wallet: address, vault_id: harness.vaultId, signature: initiateSignature },
      }),
    );
    const again = dataOf(
      await harness.request("GET", `${withdrawPath()}?wallet=${address}`, { key: readKey }),
    );
    expect(again.createdAt).toBe(status.createdAt);
  });

  it("refuses a second initiate (409), and an auto-detected claim that is not claimable yet (409)", async () => {
    expectError(
      await harness.request("PUT", withdrawPath(), {
        key: writeKey,
        body: { wallet: address, sharesAmount: "1000000", action: "initiate" },
      }),
      errorBody(409, "WITHDRAWAL_PENDING", /^This wallet already has a pending withdrawal of 100\.00 vUSDC/),
    );
    expectError(
      await harness.request("POST", withdrawPath(), { key: writeKey, body: { wallet: address } }),
      errorBody(409, "WITHDRAWAL_NOT_CLAIMABLE", /no NAV has been struck since the withdrawal was requested/),
    );
  });

  it("claims, auto-detected through PUT, once a NAV is struck and the queue funded; the message states the amount", async () => {
    await keeper().strikeNav(primeVault().vault);
    await keeper().stageWithdrawals(primeVault().vault);
    const status = dataOf(
      await harness.request("GET", `${withdrawPath()}?wallet=${address}`, { key: readKey }),
    );
    expect(status).toMatchObject({
      canClaimNow: true,
      estimate: { kind: "ready", band: null },
      progress: { fraction: 1 },
    });
    const claim = await harness.request("PUT", withdrawPath(), { key: writeKey, body: { wallet: address } });
    expect(claim.status, claim.text).toBe(200);
    const data = withdrawResponse.parse(claim.body).data;
    expect(data.action).toBe("claim");
    if (data.action !== "claim") {
      return;
    }
    expect(data.details.withdrawalEstimate).toBeNull();
    expect(data.details.withdrawalReservation).toBeNull();
    expect(data.message).toMatch(/^Claim about 99\.9\d* USDC/);
    const signature = await harness.signAndSend(data.transaction, wallet);
    const recorded = historyRecordResponse.parse(
      (
        await harness.request("POST", "/api/history", {
          key: writeKey,
          body: { wallet: address, vault_id: harness.vaultId, signature },
        })
      ).body,
    ).data;
    expect(recorded).toMatchObject({
      duplicate: false,
      activity: { kind: "claim", fee: { symbol: "USDC" } },
    });
  });
});

describe("POST and GET /api/history", () => {
  it("records a deposit once; repeats, even concurrent ones, are duplicates of the one row", async () => {
    const wallet = await harness.fundedWallet(20n * USDC);
    const signature = await deposit(wallet, 5n * USDC);
    const body = { wallet: wallet.publicKey.toBase58(), vault_id: harness.vaultId, signature };
    const results = await Promise.all(
      Array.from({ length: 12 }, () => harness.request("POST", "/api/history", { key: writeKey, body })),
    );
    expect(results.map((result) => result.status)).toEqual(Array(12).fill(200));
    const flags = results.map((result) => dataOf(result).duplicate);
    expect(flags.filter((flag) => flag === false)).toHaveLength(1);
    const activity = dataOf(results[0] ?? results[1] ?? ({} as never)).activity;
    expect(activity).toMatchObject({ kind: "deposit", assets: { amount: "5000000" }, signature });
    const rows = await harness.context.store.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM history WHERE signature = $1",
      [signature],
    );
    expect(rows[0]?.n).toBe("1");
    const feed = dataOf(
      await harness.request("GET", `/api/history?wallet=${body.wallet}&vault_id=${harness.vaultId}`, {
        key: readKey,
      }),
    );
    expect(feed.activity).toEqual([activity]);
  });

  it("answers 409 for a claim recorded before its initiate", async () => {
    const wallet = await harness.fundedWallet(50n * USDC);
    const address = wallet.publicKey.toBase58();
    await deposit(wallet, 20n * USDC);
    const initiate = dataOf(
      await harness.request("POST", withdrawPath(), {
        key: writeKey,
        body: { wallet: address, sharesAmount: "5000000000" },
      }),
    );
    await harness.signAndSend(String(initiate.transaction), wallet);
    await keeper().strikeNav(primeVault().vault);
    await keeper().stageWithdrawals(primeVault().vault);
    const claim = dataOf(
      await harness.request("POST", withdrawPath(), { key: writeKey, body: { wallet: address } }),
    );
    const signature = await harness.signAndSend(String(claim.transaction), wallet);
    const result = await harness.request("POST", "/api/history", {
      key: writeKey,
      body: { wallet: address, vault_id: harness.vaultId, signature },
    });
    expectError(
      result,
      errorBody(409, "INITIATE_NOT_RECORDED", /^The initiate of withdrawal request \d+ is not recorded/),
    );
  });

  it("refuses unknown, failed and foreign transactions with 422", async () => {
    const wallet = await harness.fundedWallet(10n * USDC);
    const address = wallet.publicKey.toBase58();
    const unknown = bs58.encode(randomBytes(64));
    expectError(
      await harness.request("POST", "/api/history", {
        key: writeKey,
        body: { wallet: address, vault_id: harness.vaultId, signature: unknown },
      }),
      errorBody(422, "TRANSACTION_NOT_CONFIRMED", /^signature: no confirmed transaction has this signature/),
    );
    const other = await harness.fundedWallet(10n * USDC);
    const foreign = await deposit(other, 1n * USDC);
    expectError(
      await harness.request("POST", "/api/history", {
        key: writeKey,
        body: { wallet: address, vault_id: harness.vaultId, signature: foreign },
      }),
      errorBody(422, "NOT_A_VAULT_TRANSACTION", "signature: the transaction is not signed by the wallet"),
    );
    // A deposit built for 8 USDC, sent after the wallet spent 9 of its 10 USDC: it lands and fails.
    const built = dataOf(
      await harness.request("POST", depositPath(), {
        key: writeKey,
        body: { wallet: address, amount: "8000000" },
      }),
    );
    await deposit(wallet, 9n * USDC);
    const failing = VersionedTransaction.deserialize(Buffer.from(String(built.transaction), "base64"));
    failing.sign([wallet]);
    const failedSignature = await harness.connection.sendTransaction(failing, { skipPreflight: true });
    await waitFor(async () => {
      const { value } = await harness.connection.getSignatureStatus(failedSignature);
      return value?.confirmationStatus === "confirmed" || value?.confirmationStatus === "finalized"
        ? true
        : undefined;
    });
    expectError(
      await harness.request("POST", "/api/history", {
        key: writeKey,
        body: { wallet: address, vault_id: harness.vaultId, signature: failedSignature },
      }),
      errorBody(
        422,
        "TRANSACTION_FAILED",
        "signature: the transaction failed on chain; only successful transactions are recorded",
      ),
    );
  });

  it("validates its fields by name", async () => {
    expectError(
      await harness.request("POST", "/api/history", {
        key: writeKey,
        body: { wallet: Keypair.generate().publicKey.toBase58() },
      }),
      errorBody(400, "INVALID_REQUEST", "vault_id: is required"),
    );
    expectError(
      await harness.request(
        "GET",
        `/api/history?wallet=${Keypair.generate().publicKey.toBase58()}&vault_id=${harness.vaultId}&limit=0`,
        {
          key: readKey,
        },
      ),
      errorBody(400, "INVALID_REQUEST", "limit: must be an integer from 1 to 100"),
    );
  });

  it.each([
    ["decodes to 65 bytes", "z".repeat(88)],
    ["decodes to 65 zero bytes", "1".repeat(65)],
    ["decodes to 63 bytes", "1".repeat(62) + "22"],
  ])("answers 400 naming signature for one that matches the pattern but %s", async (_case, signature) => {
    const result = await harness.request("POST", "/api/history", {
      key: writeKey,
      body: { wallet: Keypair.generate().publicKey.toBase58(), vault_id: harness.vaultId, signature },
    });
    expectError(
      result,
      errorBody(400, "INVALID_REQUEST", "signature: must be a base58 transaction signature (64 bytes)"),
    );
  });

  it.each(["9223372036854775808", "9223372036854775807", "9007199254740992"])(
    "answers 400 naming cursor for a cursor at slot %s, past what a slot can be",
    async (slot) => {
      const cursor = Buffer.from(`${slot}:${"1".repeat(64)}`, "utf8").toString("base64url");
      const result = await harness.request(
        "GET",
        `/api/history?wallet=${Keypair.generate().publicKey.toBase58()}&vault_id=${harness.vaultId}&cursor=${cursor}`,
        { key: readKey },
      );
      expectError(
        result,
        errorBody(400, "INVALID_REQUEST", "cursor: must be a nextCursor this endpoint returned"),
      );
    },
  );
});

describe("keyless GET /api/oracle and /api/circulating-supply", () => {
  const from = (ip: string) => ({ headers: { "X-Forwarded-For": ip } });

  it("answer bare bodies, edge-cacheable, open to any origin", async () => {
    const oracle = await harness.request("GET", "/api/oracle", from("198.51.100.1"));
    expect(oracle.status).toBe(200);
    expect(Object.keys(oracle.body as object)).toEqual(["sharePrice"]);
    expect((oracle.body as { sharePrice: number }).sharePrice).toBeGreaterThanOrEqual(1);
    expect(oracle.headers.get("access-control-allow-origin")).toBe("*");
    expect(oracle.headers.get("cache-control")).toBe("public, s-maxage=60");
    const supply = await harness.request(
      "GET",
      `/api/circulating-supply?vault=${harness.flexVaultId}`,
      from("198.51.100.1"),
    );
    expect(supply.body).toEqual({ circulatingSupply: expect.any(Number) });
    const preflight = await harness.request("OPTIONS", "/api/oracle", from("198.51.100.1"));
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("cache the value in process for about ten seconds", async () => {
    const before = (await harness.request("GET", "/api/circulating-supply", from("198.51.100.2"))).body;
    await deposit(await harness.fundedWallet(50n * USDC), 40n * USDC);
    const after = (await harness.request("GET", "/api/circulating-supply", from("198.51.100.2"))).body;
    expect(after).toEqual(before);
  });

  it("answer a bare 404 for an unknown vault and 400 for a bad one, not cacheable", async () => {
    const unknown = await harness.request(
      "GET",
      `/api/oracle?vault=${Keypair.generate().publicKey.toBase58()}`,
      from("198.51.100.3"),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: "VAULT_NOT_FOUND" });
    expect((unknown.body as object & { success?: unknown }).success).toBeUndefined();
    expect(unknown.headers.get("cache-control")).toBe("no-store");
    const bad = await harness.request("GET", "/api/oracle?vault=xyz", from("198.51.100.3"));
    expect([bad.status, (bad.body as { error: string }).error]).toEqual([
      400,
      "vault: must be a base58 public key",
    ]);
  });

  it("allow 20 requests per 5 s per client IP, then 429 with all four headers", async () => {
    const results = await Promise.all(
      Array.from({ length: 25 }, () => harness.request("GET", "/api/oracle", from("203.0.113.9"))),
    );
    expect(results.filter((result) => result.status === 200)).toHaveLength(20);
    const limited = results.find((result) => result.status === 429);
    expect(limited?.headers.get("x-ratelimit-limit")).toBe("20");
    expect(limited?.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(limited?.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000 - 1);
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await harness.request("GET", "/api/oracle", from("203.0.113.10"))).status).toBe(200);
  });
});

describe("operations", () => {
  it("serves health with the chain's slot and lag, the store and Redis", async () => {
    const health = await harness.request("GET", "/api/health");
    expect(health.status).toBe(200);
    expect(dataOf(health)).toMatchObject({
      status: "ok",
      chain: { ok: true },
      store: { ok: true },
      redis: { ok: true },
    });
  });

  it("serves the OpenAPI document and a request id on every response", async () => {
    const document = await harness.request("GET", "/api/openapi.json");
    expect((document.body as { openapi: string }).openapi).toBe("3.1.0");
    expect(document.headers.get("x-request-id")).toMatch(/^req_/);
    const missing = await harness.request("GET", "/api/nope");
    expectError(missing, errorBody(404, "NOT_FOUND", "No such endpoint"));
    expect(missing.headers.get("x-request-id")).toBe((missing.body as { requestId: string }).requestId);
  });
});
