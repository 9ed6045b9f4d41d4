// POST /api/vault/{vault_id}/deposit: the transaction it builds, and the errors it answers with
// (whole bodies), against the local chain.
import { Keypair, VersionedTransaction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { depositResponse } from "../../../lib/api/schemas/deposit";
import { TOKEN_ACCOUNT_SIZE } from "../../../lib/chain/spl-token";
import { deposit } from "../../../lib/vault/operations/deposit";
import { rentExemptMinimum } from "../../../lib/vault/model/vault-state";
import { USDC, dataOf } from "../harness";
import { endpointSuite, errorBody, expectError } from "./setup";

const api = endpointSuite();

describe("POST /api/vault/{vault_id}/deposit", () => {
  it("builds a v0 transaction for the wallet to sign, with the spec's details", async () => {
    const wallet = await api.harness.fundedWallet(500n * USDC);
    const result = await api.harness.request("POST", api.depositPath(), {
      key: api.writeKey,
      body: { wallet: wallet.publicKey.toBase58(), amount: "250000000" },
    });
    expect(result.status).toBe(200);
    expect(result.headers.get("x-ratelimit-limit")).toBe("100000");
    const body = depositResponse.parse(result.body);
    expect(body.data.details).toMatchObject({
      vaultId: api.harness.vaultId,
      vaultName: "USDC Prime",
      depositAmount: { amount: "250000000", decimals: 6, uiAmount: 250, symbol: "USDC" },
      depositAmountHuman: "250.00 USDC",
      assetDecimals: 6,
      // A fresh vault: 1,000 raw share units per raw USDC unit, in a mint of 9 decimals.
      estimatedSharesReceived: { amount: "250000000000", decimals: 9, uiAmount: 250, symbol: "vUSDC" },
    });
    expect(body.data.message).toBe("Deposit 250.00 USDC into USDC Prime for about 250.00 vUSDC");
    expect(Date.parse(body.data.expiresAt)).toBeGreaterThan(Date.now());
    const transaction = VersionedTransaction.deserialize(Buffer.from(body.data.transaction, "base64"));
    expect(transaction.version).toBe(0);
    expect(transaction.message.staticAccountKeys[0]?.equals(wallet.publicKey)).toBe(true);
    const simulation = await api.harness.connection.simulateTransaction(transaction, { sigVerify: false });
    expect(simulation.value.err).toBeNull();
    expect(simulation.value.unitsConsumed).toBeLessThanOrEqual(deposit.computeUnits);
    // What it does, derived at build time (no simulation): 250 USDC out, 250,000,000,000 raw shares in, and SOL for
    // the fee and the share account's rent (2,039,280 lamports for 165 bytes).
    const changes = body.data.expectedBalanceChanges;
    expect(changes).toMatchObject({
      asset: { amount: "-250000000", uiAmount: -250, symbol: "USDC" },
      shares: { amount: "250000000000", uiAmount: 250, symbol: "vUSDC" },
    });
    const spent = BigInt(changes?.networkFeeLamports ?? "0") + rentExemptMinimum(TOKEN_ACCOUNT_SIZE);
    expect(BigInt(changes?.networkFeeLamports ?? "0")).toBeGreaterThanOrEqual(5_000n);
    expect(changes?.sol.lamports).toBe((-spent).toString());
    expect(changes?.unitsConsumed).toBeNull();
  });

  it("takes amount over uiAmount, and converts uiAmount with the asset's decimals", async () => {
    const wallet = (await api.harness.fundedWallet(10n * USDC)).publicKey.toBase58();
    const both = dataOf(
      await api.harness.request("POST", api.depositPath(), {
        key: api.writeKey,
        body: { wallet, amount: 1_000_000, uiAmount: 7 },
      }),
    );
    expect(both.details).toMatchObject({ depositAmount: { amount: "1000000" } });
    const ui = dataOf(
      await api.harness.request("POST", api.depositPath(), {
        key: api.writeKey,
        body: { wallet, uiAmount: 2.5 },
      }),
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
    const wallet = (await api.harness.fundedWallet(10n * USDC)).publicKey.toBase58();
    expectError(
      await api.harness.request("POST", api.depositPath(), {
        key: api.writeKey,
        body: { wallet, ...fields },
      }),
      expected,
    );
  });

  it("answers 404 for an address that is no vault and 400 for one that is no address", async () => {
    const wallet = (await api.harness.fundedWallet(10n * USDC)).publicKey.toBase58();
    const nobody = Keypair.generate().publicKey.toBase58();
    expectError(
      await api.harness.request("POST", api.depositPath(nobody), {
        key: api.writeKey,
        body: { wallet, amount: 1 },
      }),
      errorBody(404, "VAULT_NOT_FOUND", `No vault exists at ${nobody}`),
    );
    expectError(
      await api.harness.request("POST", api.depositPath("not-a-key"), {
        key: api.writeKey,
        body: { wallet, amount: 1 },
      }),
      errorBody(400, "INVALID_REQUEST", "vault_id: must be a base58 public key"),
    );
  });

  it("answers 405 with Allow for other methods, 415 and 400 for bad bodies", async () => {
    const wrongMethod = await api.harness.request("GET", api.depositPath(), { key: api.writeKey });
    expectError(wrongMethod, errorBody(405, "METHOD_NOT_ALLOWED", "Method GET is not allowed here"));
    expect(wrongMethod.headers.get("allow")).toBe("POST, OPTIONS");
    expectError(
      await api.harness.request("POST", api.depositPath(), {
        key: api.writeKey,
        rawBody: "{}",
        headers: { "Content-Type": "text/plain" },
      }),
      errorBody(415, "UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json"),
    );
    expectError(
      await api.harness.request("POST", api.depositPath(), {
        key: api.writeKey,
        rawBody: "{wallet:",
        headers: { "Content-Type": "application/json" },
      }),
      errorBody(400, "INVALID_JSON", "The body is not valid JSON"),
    );
  });
});
