// POST and GET /api/history: recording a transaction once, the transactions it refuses, and its
// fields' validation (whole bodies), against the local chain; and a claim the keeper delivered, which
// the owner cannot post, recorded by the indexer with who sent it.
import { randomBytes } from "node:crypto";

import bs58 from "bs58";
import { Keypair, VersionedTransaction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { waitFor } from "../../../localnet/testing";
import { historyFeedResponse, historyRecordResponse } from "../../../lib/api/schemas/history";
import { eventsResponse } from "../../../lib/api/schemas/webhooks";
import { createIndexer } from "../../../lib/server/indexer";
import { decodeVaultEvents } from "../../../lib/vault/program/events";
import { requestStates } from "../../../lib/web/open-requests";
import { USDC, dataOf } from "../harness";
import { endpointSuite, errorBody, expectError } from "./setup";

const api = endpointSuite();

describe("POST and GET /api/history", () => {
  it("records a deposit once; repeats, even concurrent ones, are duplicates of the one row", async () => {
    const wallet = await api.harness.fundedWallet(20n * USDC);
    const signature = await api.deposit(wallet, 5n * USDC);
    const body = { wallet: wallet.publicKey.toBase58(), vault_id: api.harness.vaultId, signature };
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        api.harness.request("POST", "/api/history", { key: api.writeKey, body }),
      ),
    );
    expect(results.map((result) => result.status)).toEqual(Array(12).fill(200));
    const flags = results.map((result) => dataOf(result).duplicate);
    expect(flags.filter((flag) => flag === false)).toHaveLength(1);
    const activity = dataOf(results[0] ?? results[1] ?? ({} as never)).activity;
    expect(activity).toMatchObject({ kind: "deposit", assets: { amount: "5000000" }, signature });
    const rows = await api.harness.context.store.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM history WHERE signature = $1",
      [signature],
    );
    expect(rows[0]?.n).toBe("1");
    const feed = dataOf(
      await api.harness.request("GET", `/api/history?wallet=${body.wallet}&vault_id=${api.harness.vaultId}`, {
        key: api.readKey,
      }),
    );
    expect(feed.activity).toEqual([activity]);
  });

  it("answers 409 for a claim recorded before its initiate", async () => {
    const wallet = await api.harness.fundedWallet(50n * USDC);
    const address = wallet.publicKey.toBase58();
    await api.deposit(wallet, 20n * USDC);
    const initiate = dataOf(
      await api.harness.request("POST", api.withdrawPath(), {
        key: api.writeKey,
        body: { wallet: address, sharesAmount: "5000000000" },
      }),
    );
    await api.harness.signAndSend(String(initiate.transaction), wallet);
    await api.keeper().strikeNav(api.primeVault().vault);
    await api.keeper().stageWithdrawals(api.primeVault().vault);
    const claim = dataOf(
      await api.harness.request("POST", api.withdrawPath(), { key: api.writeKey, body: { wallet: address } }),
    );
    const signature = await api.harness.signAndSend(String(claim.transaction), wallet);
    const result = await api.harness.request("POST", "/api/history", {
      key: api.writeKey,
      body: { wallet: address, vault_id: api.harness.vaultId, signature },
    });
    expectError(
      result,
      errorBody(409, "INITIATE_NOT_RECORDED", /^The initiate of withdrawal request \d+ is not recorded/),
    );
  });

  describe("a claim the keeper delivered", () => {
    /**
     * A wallet's withdrawal request (posted to its history when `post`), made claimable and delivered
     * by the keeper, then indexed: the delivery's signature and event, and the wallet's feed.
     */
    async function delivered(post: boolean) {
      const wallet = await api.harness.fundedWallet(50n * USDC);
      const address = wallet.publicKey.toBase58();
      await api.deposit(wallet, 20n * USDC);
      const initiate = dataOf(
        await api.harness.request("POST", api.withdrawPath(), {
          key: api.writeKey,
          body: { wallet: address, sharesAmount: "5000000000" },
        }),
      );
      const initiateSignature = await api.harness.signAndSend(String(initiate.transaction), wallet);
      if (post) {
        const recorded = await api.harness.request("POST", "/api/history", {
          key: api.writeKey,
          body: { wallet: address, vault_id: api.harness.vaultId, signature: initiateSignature },
        });
        expect(recorded.status).toBe(200);
      }
      await api.keeper().strikeNav(api.primeVault().vault);
      await api.keeper().stageWithdrawals(api.primeVault().vault);
      // The keeper claims for the owner, who signs nothing.
      const delivery = (await api.keeper().deliverWithdrawals(api.primeVault().vault)).find(
        (report) => report.owner === address,
      );
      expect(delivery).toMatchObject({ outcome: "delivered" });
      const signature = delivery?.signature ?? "";
      const transaction = await api.harness.connection.getTransaction(signature, {
        commitment: "confirmed",
        maxSupportedTransactionVersion: 0,
      });
      const claimed = decodeVaultEvents(transaction?.meta?.logMessages ?? []).find(
        (event) => event.name === "WithdrawalClaimed",
      );
      if (claimed?.name !== "WithdrawalClaimed") {
        throw new Error(`no WithdrawalClaimed in the delivery ${signature}`);
      }
      const indexer = createIndexer(api.harness.context, { intervalMs: 60_000, schema: api.harness.schema });
      try {
        await indexer.runOnce();
      } finally {
        await indexer.stop();
      }
      const feed = historyFeedResponse.parse(
        (
          await api.harness.request("GET", `/api/history?wallet=${address}&vault_id=${api.harness.vaultId}`, {
            key: api.readKey,
          })
        ).body,
      ).data.activity;
      return { address, initiateSignature, signature, claimed: claimed.data, feed };
    }

    it("is in GET /api/history with who delivered it, its net and its fee, and ends the request", async () => {
      const { address, initiateSignature, signature, claimed, feed } = await delivered(true);
      const keeper = api.harness.localnet.addresses.manager.toBase58();
      expect(claimed.net).toBe(claimed.gross - claimed.fee);
      expect(feed.map((entry) => [entry.kind, entry.deliveredBy])).toEqual([
        ["claim", keeper],
        ["initiate", null],
      ]);
      expect(feed[0]).toMatchObject({
        signature,
        wallet: address,
        vaultId: api.harness.vaultId,
        requestId: claimed.requestId.toString(),
        assets: { amount: claimed.net.toString(), symbol: "USDC", decimals: 6 },
        shares: { amount: claimed.shares.toString(), symbol: "vUSDC" },
        fee: { amount: claimed.fee.toString(), symbol: "USDC" },
        deliveredBy: keeper,
      });
      expect(claimed.fee).toBeGreaterThan(0n);
      expect(feed[1]).toMatchObject({
        signature: initiateSignature,
        requestId: claimed.requestId.toString(),
      });
      // The request reads as done, not pending, on the pages that list this feed.
      expect(requestStates(feed).size).toBe(0);

      // The owner posting the delivery (which it did not sign) gets the indexer's row, as a duplicate.
      const posted = await api.harness.request("POST", "/api/history", {
        key: api.writeKey,
        body: { wallet: address, vault_id: api.harness.vaultId, signature },
      });
      expect(historyRecordResponse.parse(posted.body).data).toEqual({
        duplicate: true,
        activity: feed[0],
        activities: [feed[0]],
      });

      // A partner hears who delivered it in withdrawal.claimed too.
      const partner = (await api.harness.createKey({ scope: "read", wallet: address })).secret;
      const events = eventsResponse.parse(
        (await api.harness.request("GET", "/api/events?types=withdrawal.claimed", { key: partner })).body,
      ).data.events;
      expect(events.map((event) => [event.signature, event.data.deliveredBy])).toEqual([[signature, keeper]]);
    });

    it("brings its request with it when no one posted the request", async () => {
      const { initiateSignature, signature, claimed, feed } = await delivered(false);
      expect(feed.map((entry) => [entry.kind, entry.signature])).toEqual([
        ["claim", signature],
        ["initiate", initiateSignature],
      ]);
      expect(feed[1]).toMatchObject({ requestId: claimed.requestId.toString(), deliveredBy: null });
      expect(requestStates(feed).size).toBe(0);
    });
  });

  it("refuses unknown, failed and foreign transactions with 422", async () => {
    const wallet = await api.harness.fundedWallet(10n * USDC);
    const address = wallet.publicKey.toBase58();
    const unknown = bs58.encode(randomBytes(64));
    expectError(
      await api.harness.request("POST", "/api/history", {
        key: api.writeKey,
        body: { wallet: address, vault_id: api.harness.vaultId, signature: unknown },
      }),
      errorBody(422, "TRANSACTION_NOT_CONFIRMED", /^signature: no confirmed transaction has this signature/),
    );
    const other = await api.harness.fundedWallet(10n * USDC);
    const foreign = await api.deposit(other, 1n * USDC);
    expectError(
      await api.harness.request("POST", "/api/history", {
        key: api.writeKey,
        body: { wallet: address, vault_id: api.harness.vaultId, signature: foreign },
      }),
      errorBody(422, "NOT_A_VAULT_TRANSACTION", "signature: the transaction is not signed by the wallet"),
    );
    // A deposit built for 8 USDC, sent after the wallet spent 9 of its 10 USDC: it lands and fails.
    const built = dataOf(
      await api.harness.request("POST", api.depositPath(), {
        key: api.writeKey,
        body: { wallet: address, amount: "8000000" },
      }),
    );
    await api.deposit(wallet, 9n * USDC);
    const failing = VersionedTransaction.deserialize(Buffer.from(String(built.transaction), "base64"));
    failing.sign([wallet]);
    const failedSignature = await api.harness.connection.sendTransaction(failing, { skipPreflight: true });
    await waitFor(async () => {
      const { value } = await api.harness.connection.getSignatureStatus(failedSignature);
      return value?.confirmationStatus === "confirmed" || value?.confirmationStatus === "finalized"
        ? true
        : undefined;
    });
    expectError(
      await api.harness.request("POST", "/api/history", {
        key: api.writeKey,
        body: { wallet: address, vault_id: api.harness.vaultId, signature: failedSignature },
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
      await api.harness.request("POST", "/api/history", {
        key: api.writeKey,
        body: { wallet: Keypair.generate().publicKey.toBase58() },
      }),
      errorBody(400, "INVALID_REQUEST", "vault_id: is required"),
    );
    expectError(
      await api.harness.request(
        "GET",
        `/api/history?wallet=${Keypair.generate().publicKey.toBase58()}&vault_id=${api.harness.vaultId}&limit=0`,
        {
          key: api.readKey,
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
    const result = await api.harness.request("POST", "/api/history", {
      key: api.writeKey,
      body: { wallet: Keypair.generate().publicKey.toBase58(), vault_id: api.harness.vaultId, signature },
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
      const result = await api.harness.request(
        "GET",
        `/api/history?wallet=${Keypair.generate().publicKey.toBase58()}&vault_id=${api.harness.vaultId}&cursor=${cursor}`,
        { key: api.readKey },
      );
      expectError(
        result,
        errorBody(400, "INVALID_REQUEST", "cursor: must be a nextCursor this endpoint returned"),
      );
    },
  );
});
