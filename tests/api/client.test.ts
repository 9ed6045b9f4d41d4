// The typed partner client (lib/client) against a real API on the local chain, through the client
// alone: deposit → withdraw → (the keeper stages the queue) → claim, each built, signed, sent,
// confirmed and recorded; a 429 waited out by its Retry-After; an expired blockhash rebuilt and signed
// again; two withdrawals racing for one cap's capacity, the loser a CapacityExceededError (6020) with
// the limits the chain has right after the refusal, while the indexer (60 s between runs, as a slow
// deployment's) still serves the old ones; and the generated types equal to what the served document
// generates. tests/api/hosts.ts runs the flow test on `npm run dev`'s host too.
import { readFile } from "node:fs/promises";

import { Keypair, PublicKey, type VersionedTransaction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  ApiRequestError,
  CapacityExceededError,
  createVaultClient,
  type ClientEvent,
  type TransactionSigner,
} from "../../lib/client";
import { SCHEMA_FILE, generateSchemaSource } from "../../lib/client/generate";
import { findAssociatedTokenAddress } from "../../lib/chain/spl-token";
import type { Indexer } from "../../lib/indexer/indexer";
import { createIndexer } from "../../lib/server/indexer";
import { decodeVaultState } from "../../lib/vault/program/accounts";
import { findShareMint } from "../../lib/vault/program/addresses";
import { withdrawalWindows } from "../../lib/vault/model/vault-state";
import { devRoles } from "../../localnet/genesis";
import { sleep, waitFor } from "../../localnet/testing";
import { updateConfigPastNotice } from "./config-notice";
import { API_HOST, USDC, startApiHarness, type ApiHarness } from "./harness";
import { withRoomInWindow, withRoomTimeout } from "./window-room";

let harness: ApiHarness;
// A real server runs the indexer (GET /api/vault/{id} serves its rows); this one waits a minute between
// runs, so the directory's copy of a vault trails the chain as a slow deployment's would.
let indexer: Indexer;
const INDEXER_INTERVAL_MS = 60_000;
// `npm run dev` compiles each route on its first request.
const FLOW_TIMEOUT_MS = API_HOST === "dev" ? 300_000 : 90_000;

beforeAll(async () => {
  harness = await startApiHarness({
    localnet: { keeper: { enabled: true, navIntervalSeconds: 2, stageIntervalSeconds: 1 } },
  });
  indexer = createIndexer(harness.context, { intervalMs: INDEXER_INTERVAL_MS, schema: harness.schema });
  indexer.start();
}, 180_000);

afterAll(async () => {
  await indexer?.stop();
  await harness?.close();
});

function signerOf(
  wallet: Keypair,
  before?: (transaction: VersionedTransaction) => Promise<void>,
): TransactionSigner {
  return {
    publicKey: wallet.publicKey,
    async signTransaction(transaction) {
      await before?.(transaction);
      transaction.sign([wallet]);
      return transaction;
    },
  };
}

async function clientFor(vaultId: string, rpm = 100_000) {
  const events: ClientEvent[] = [];
  const { secret } = await harness.createKey({ scope: "write", rpm });
  const client = createVaultClient({
    baseUrl: harness.url,
    apiKey: secret,
    vaultId,
    rpc: harness.connection,
    onEvent: (event) => events.push(event),
  });
  return { client, events };
}

/** The capacity case may first wait for room before the hourly window rolls over. */
const CAPACITY_CASE_TIMEOUT = withRoomTimeout(90_000);

describe("the partner flow through the client", () => {
  it(
    "deposits, withdraws and claims, each confirmed and recorded",
    async () => {
      const { client } = await clientFor(harness.vaultId);
      const wallet = await harness.fundedWallet(1_000n * USDC);
      const owner = wallet.publicKey.toBase58();
      const signer = signerOf(wallet);

      const deposit = await client.deposit({ wallet: owner, uiAmount: 250 }, signer);
      expect(deposit.recorded).toMatchObject({
        duplicate: false,
        activity: { kind: "deposit", signature: deposit.signature },
      });
      expect(deposit.prepared.details.depositAmount.amount).toBe((250n * USDC).toString());

      const shares = deposit.recorded.activity.shares.amount;
      const withdrawal = await client.withdraw({ wallet: owner, sharesAmount: shares }, signer);
      expect(withdrawal.recorded.activity).toMatchObject({ kind: "initiate", shares: { amount: shares } });

      await waitFor(
        async () => ((await client.withdrawalStatus(owner)).canClaimNow ? true : undefined),
        30_000,
      );
      const claim = await client.claim({ wallet: owner }, signer);
      expect(claim.prepared.action).toBe("claim");
      expect(claim.recorded.activity).toMatchObject({ kind: "claim", shares: { amount: shares } });
      expect((await client.withdrawalStatus(owner)).hasPendingWithdrawal).toBe(false);
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    "cancels a pending withdrawal: the shares come back, the status says none, a second cancel is a 409",
    async () => {
      const { client } = await clientFor(harness.vaultId);
      const wallet = await harness.fundedWallet(1_000n * USDC);
      const owner = wallet.publicKey.toBase58();
      const signer = signerOf(wallet);
      const deposit = await client.deposit({ wallet: owner, uiAmount: 40 }, signer);
      const held = BigInt(deposit.recorded.activity.shares.amount);
      const requested = held / 4n;
      const withdrawal = await client.withdraw({ wallet: owner, sharesAmount: requested.toString() }, signer);
      expect((await client.withdrawalStatus(owner)).pendingShares).toBe(requested.toString());

      const cancel = await client.cancelWithdrawal({ wallet: owner }, signer);
      expect(cancel.prepared.action).toBe("cancel");
      // Back: the request less the prime vault's 10 bps exit fee in shares, rounded up and burned.
      const back = requested - (requested * 10n + 9_999n) / 10_000n;
      expect(cancel.preview.changes).toMatchObject({ asset: 0n, shares: back });
      expect(cancel.recorded.activity).toMatchObject({
        kind: "cancel",
        requestId: withdrawal.recorded.activity.requestId,
        shares: { amount: back.toString() },
      });
      const shareAccount = await harness.connection.getTokenAccountBalance(
        findAssociatedTokenAddress(wallet.publicKey, findShareMint(new PublicKey(harness.vaultId))),
        "confirmed",
      );
      expect(BigInt(shareAccount.value.amount)).toBe(held - requested + back);
      expect(await client.withdrawalStatus(owner)).toMatchObject({
        hasPendingWithdrawal: false,
        pendingShares: "0",
        canClaimNow: false,
      });
      const again = await client.cancelWithdrawal({ wallet: owner }, signer).catch((error: unknown) => error);
      expect(again).toBeInstanceOf(ApiRequestError);
      expect(again).toMatchObject({ status: 409, code: "NO_PENDING_WITHDRAWAL" });
    },
    FLOW_TIMEOUT_MS,
  );

  it("waits out a 429 by its Retry-After and then answers", async () => {
    const { client, events } = await clientFor(harness.vaultId, 2);
    const owner = Keypair.generate().publicKey.toBase58();
    for (let call = 0; call < 3; call += 1) {
      expect((await client.withdrawalStatus(owner)).hasPendingWithdrawal).toBe(false);
    }
    const waits = events.filter((event) => event.type === "rate-limited");
    expect(waits).toHaveLength(1);
    expect(waits[0]).toMatchObject({ retryAfterSeconds: expect.any(Number) });
  }, 90_000);

  it("rebuilds a transaction whose blockhash expired before it was signed, and signs again", async () => {
    const { client, events } = await clientFor(harness.vaultId);
    const wallet = await harness.fundedWallet(100n * USDC);
    let asked = 0;
    const signer = signerOf(wallet, async (transaction) => {
      asked += 1;
      if (asked === 1) {
        // A person slow to approve: the blockhash is past its last valid block height before the signature.
        await waitFor(async () => {
          const valid = await harness.connection.isBlockhashValid(transaction.message.recentBlockhash);
          return valid.value ? undefined : true;
        }, 60_000);
      }
    });
    const deposit = await client.deposit({ wallet: wallet.publicKey.toBase58(), uiAmount: 10 }, signer);
    expect(asked).toBe(2);
    expect(events).toContainEqual({ type: "rebuilt" });
    expect(deposit.recorded.activity.kind).toBe("deposit");
  }, 90_000);

  it(
    "surfaces 6020 as a CapacityExceededError with the chain's capacity right after the refusal",
    async () => {
      // Both withdrawals and the read after the refusal in one hourly window.
      await withRoomInWindow("hourly");
      const flex = harness.localnet.addresses.vaults[1];
      if (flex === undefined) {
        throw new Error("no flex vault");
      }
      const { client } = await clientFor(harness.flexVaultId);
      // The directory has the vault from the indexer's first run; its next is up to a minute away, and
      // is stopped here so that the comparison below cannot race it.
      await waitFor(
        async () =>
          (
            await client.api.GET("/api/vault/{vault_id}", {
              params: { path: { vault_id: harness.flexVaultId } },
            })
          ).data,
      );
      await indexer.stop();
      const wallets = [await harness.fundedWallet(700n * USDC), await harness.fundedWallet(700n * USDC)];
      for (const wallet of wallets) {
        await client.deposit({ wallet: wallet.publicKey.toBase58(), uiAmount: 700 }, signerOf(wallet));
      }
      const { manager } = devRoles();
      // A cap set where there was none waits the vault's notice; here it has run out.
      await updateConfigPastNotice(harness.localnet.chain, manager, flex.vault, {
        hourlyCap: 1_000n * USDC,
        dailyCap: 0n,
      });
      // Shares have 9 decimals: 600 whole shares are worth about 600 USDC each, 1,200 against a 1,000 cap.
      const WHOLE_SHARE = 1_000_000_000n;
      // Both are prepared (and simulated) against the same capacity before either is signed.
      let waiting = 0;
      const barrier = async () => {
        waiting += 1;
        while (waiting < 2) {
          await sleep(20);
        }
      };
      const results = await Promise.allSettled(
        wallets.map((wallet) =>
          client.withdraw(
            { wallet: wallet.publicKey.toBase58(), sharesAmount: (600n * WHOLE_SHARE).toString() },
            signerOf(wallet, barrier),
          ),
        ),
      );
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
      const refused = results.find((result) => result.status === "rejected");
      const error: unknown = refused?.status === "rejected" ? refused.reason : null;
      expect(error).toBeInstanceOf(CapacityExceededError);
      if (!(error instanceof CapacityExceededError)) {
        throw new Error("unreachable");
      }
      expect(error.programErrorCode).toBe(6020);
      // What the chain has now, read straight from the vault account: the winner's withdrawal used part
      // of the 1,000 USDC, and what is left is less than the loser's ~600.
      const account = await harness.connection.getAccountInfo(flex.vault, "confirmed");
      const windows = withdrawalWindows(
        decodeVaultState(account?.data ?? new Uint8Array()),
        Date.now() / 1000,
      );
      expect(windows.hourly.cap).toBe(1_000n * USDC);
      expect(windows.hourly.used).toBeGreaterThan(0n);
      expect(error.limits.hourly).toMatchObject({
        cap: { amount: (1_000n * USDC).toString() },
        used: { amount: windows.hourly.used.toString() },
        remaining: { amount: String(windows.hourly.remaining) },
      });
      expect(windows.hourly.remaining ?? 0n).toBeLessThan(600n * USDC);
      // The indexer's copy (GET /api/vault/{id}, which the client used to read) still has the caps from
      // before the change.
      const directory = await client.withdrawalLimits();
      expect(directory.hourly.used.amount).not.toBe(windows.hourly.used.toString());
    },
    CAPACITY_CASE_TIMEOUT,
  );
});

describe("lib/client/schema.ts", () => {
  it("is what the document this server serves generates", async () => {
    const served = await harness.request("GET", "/api/openapi.json");
    expect(await generateSchemaSource(served.text)).toBe(await readFile(SCHEMA_FILE, "utf8"));
  });
});
