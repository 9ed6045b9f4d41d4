// POST /api/history with a hand-built transaction holding two vault actions of one wallet (a claim,
// then a new withdrawal request): both are recorded, in order, so the second request's own claim can
// be recorded later; the feed pages through them one event at a time. Also a row stored before
// events were numbered (migration 0005) is renumbered when its signature is posted again.
import {
  ComputeBudgetProgram,
  Keypair,
  TransactionMessage,
  VersionedTransaction,
  type PublicKey,
} from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { historyRecordResponse } from "../../lib/api/schemas/history";
import { findAssociatedTokenAddress } from "../../lib/chain/spl-token";
import { findReceipt } from "../../lib/vault/program/addresses";
import {
  buildClaimWithdrawalInstruction,
  buildRequestWithdrawalInstruction,
} from "../../lib/vault/program/instructions";
import type { LocalnetVault } from "../../localnet/genesis";
import { USDC, dataOf, startApiHarness, type ApiHarness } from "./harness";

let harness: ApiHarness;
let key: string;

beforeAll(async () => {
  harness = await startApiHarness({
    localnet: { keeper: { enabled: true, scheduled: false } },
  });
  key = (await harness.createKey({ scope: "write" })).secret;
});

afterAll(async () => {
  await harness?.close();
});

function prime(): LocalnetVault {
  const vault = harness.localnet.addresses.vaults[0];
  if (vault === undefined) {
    throw new Error("no demo vault");
  }
  return vault;
}

/** The keeper strikes a NAV and funds the queue, so pending requests become claimable. */
async function makeClaimable(): Promise<void> {
  const keeper = harness.localnet.keeper;
  if (keeper === null) {
    throw new Error("the keeper is not running");
  }
  await keeper.strikeNav(prime().vault);
  await keeper.stageWithdrawals(prime().vault);
}

async function shareBalance(owner: PublicKey): Promise<bigint> {
  const account = findAssociatedTokenAddress(owner, prime().shareMint);
  return BigInt((await harness.connection.getTokenAccountBalance(account)).value.amount);
}

async function record(wallet: Keypair, signature: string) {
  const result = await harness.request("POST", "/api/history", {
    key,
    body: { wallet: wallet.publicKey.toBase58(), vault_id: harness.vaultId, signature },
  });
  expect(result.status, result.text).toBe(200);
  return historyRecordResponse.parse(result.body).data;
}

async function buildAndSend(wallet: Keypair, path: string, body: Record<string, unknown>): Promise<string> {
  const built = dataOf(
    await harness.request("POST", path, { key, body: { wallet: wallet.publicKey.toBase58(), ...body } }),
  );
  return harness.signAndSend(String(built.transaction), wallet);
}

/** One transaction: claim the pending withdrawal, then request a new one of `shares`. */
async function claimThenRequest(wallet: Keypair, shares: bigint): Promise<string> {
  const vault = prime();
  const owner = wallet.publicKey;
  const receipt = findReceipt(vault.vault, owner);
  const { blockhash } = await harness.connection.getLatestBlockhash();
  const message = new TransactionMessage({
    payerKey: owner,
    recentBlockhash: blockhash,
    instructions: [
      ComputeBudgetProgram.setComputeUnitLimit({ units: 400_000 }),
      buildClaimWithdrawalInstruction({
        owner,
        vault: vault.vault,
        authority: vault.authority,
        receipt,
        shareMint: vault.shareMint,
        escrow: vault.escrow,
        reserve: vault.reserve,
        ownerAsset: findAssociatedTokenAddress(owner, harness.localnet.addresses.usdcMint),
      }),
      buildRequestWithdrawalInstruction(
        {
          owner,
          vault: vault.vault,
          receipt,
          ownerShares: findAssociatedTokenAddress(owner, vault.shareMint),
          escrow: vault.escrow,
        },
        { shares, maxFeeBps: vault.spec.feeBps },
      ),
    ],
  }).compileToV0Message();
  return harness.signAndSend(
    Buffer.from(new VersionedTransaction(message).serialize()).toString("base64"),
    wallet,
  );
}

describe("POST /api/history with several vault actions in one transaction", () => {
  let wallet: Keypair;
  let twoActions: string;
  let firstRequestId: string;

  it("records the claim and the new request of one transaction, in order", async () => {
    wallet = await harness.fundedWallet(100n * USDC);
    const vaultPath = `/api/vault/${harness.vaultId}`;
    expect(
      (await record(wallet, await buildAndSend(wallet, `${vaultPath}/deposit`, { amount: "50000000" })))
        .activity.kind,
    ).toBe("deposit");
    const shares = await shareBalance(wallet.publicKey);
    const initiate = await record(
      wallet,
      await buildAndSend(wallet, `${vaultPath}/withdraw`, { sharesAmount: (shares / 5n).toString() }),
    );
    expect(initiate.activities.map((activity) => activity.kind)).toEqual(["initiate"]);
    firstRequestId = initiate.activity.requestId ?? "";
    await makeClaimable();

    twoActions = await claimThenRequest(wallet, shares / 4n);
    const recorded = await record(wallet, twoActions);
    expect(recorded.duplicate).toBe(false);
    expect(
      recorded.activities.map(({ kind, requestId, eventIndex, signature }) => ({
        kind,
        requestId,
        eventIndex,
        signature,
      })),
    ).toEqual([
      { kind: "claim", requestId: firstRequestId, eventIndex: 0, signature: twoActions },
      {
        kind: "initiate",
        requestId: String(BigInt(firstRequestId) + 1n),
        eventIndex: 1,
        signature: twoActions,
      },
    ]);
    expect(recorded.activities[1]?.shares.amount).toBe((shares / 4n).toString());
    expect(recorded.activity).toEqual(recorded.activities[0]);
  });

  it("answers a repeat as a duplicate with the same rows, even concurrently", async () => {
    const first = await record(wallet, twoActions);
    const repeats = await Promise.all(Array.from({ length: 6 }, () => record(wallet, twoActions)));
    for (const repeat of [first, ...repeats]) {
      expect(repeat.duplicate).toBe(true);
      expect(repeat.activities.map((activity) => activity.kind)).toEqual(["claim", "initiate"]);
    }
    const rows = await harness.context.store.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM history WHERE signature = $1",
      [twoActions],
    );
    expect(rows[0]?.n).toBe("2");
  });

  it("records the second request's own claim later (its initiate came from the shared transaction)", async () => {
    await makeClaimable();
    const claim = await record(
      wallet,
      await buildAndSend(wallet, `/api/vault/${harness.vaultId}/withdraw`, { action: "claim" }),
    );
    expect(claim).toMatchObject({
      duplicate: false,
      activity: { kind: "claim", requestId: String(BigInt(firstRequestId) + 1n) },
    });
  });

  it("pages the feed one event at a time, a transaction's later event first", async () => {
    const address = wallet.publicKey.toBase58();
    const seen: { kind: string; signature: string; eventIndex: number }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `wallet=${address}&vault_id=${harness.vaultId}&limit=1${cursor === null ? "" : `&cursor=${cursor}`}`;
      const page = dataOf(await harness.request("GET", `/api/history?${query}`, { key })) as {
        activity: { kind: string; signature: string; eventIndex: number }[];
        nextCursor: string | null;
      };
      seen.push(...page.activity.map(({ kind, signature, eventIndex }) => ({ kind, signature, eventIndex })));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(seen.map((entry) => entry.kind)).toEqual(["claim", "initiate", "claim", "initiate", "deposit"]);
    expect(seen.slice(1, 3)).toEqual([
      { kind: "initiate", signature: twoActions, eventIndex: 1 },
      { kind: "claim", signature: twoActions, eventIndex: 0 },
    ]);
  });

  it("renumbers a row stored before events were numbered, and adds the events it missed", async () => {
    // What migration 0005 leaves of a transaction the old code recorded: its first event, unnumbered.
    await harness.context.store.query("DELETE FROM history WHERE signature = $1 AND event_index = 1", [
      twoActions,
    ]);
    await harness.context.store.query("UPDATE history SET event_index = -1 WHERE signature = $1", [
      twoActions,
    ]);
    const recorded = await record(wallet, twoActions);
    expect(recorded.duplicate).toBe(false);
    expect(recorded.activities.map(({ kind, eventIndex }) => [kind, eventIndex])).toEqual([
      ["claim", 0],
      ["initiate", 1],
    ]);
    expect((await record(wallet, twoActions)).duplicate).toBe(true);
  });

  it("answers 409 for the transaction posted for a wallet or vault with no action in it", async () => {
    for (const body of [
      { wallet: Keypair.generate().publicKey.toBase58(), vault_id: harness.vaultId },
      { wallet: wallet.publicKey.toBase58(), vault_id: harness.flexVaultId },
    ]) {
      const result = await harness.request("POST", "/api/history", {
        key,
        body: { ...body, signature: twoActions },
      });
      expect(result.status).toBe(409);
      expect(result.body).toMatchObject({
        code: "SIGNATURE_CONFLICT",
        error: "signature: this transaction is recorded for another wallet or vault",
      });
    }
  });
});
