// POST /api/vault/{vault_id}/withdraw with action cancel, through the real route on the local chain:
// three wallets queue requests one behind the other; the middle one cancels — built, signed, sent — and
// gets its shares back, its status says nothing is pending, the cap usage its request took is given
// back, history records the cancel and the indexer derives withdrawal.cancelled. Its request was
// inside the queue and unfunded, so it leaves a hole (the vault's hole list is created, at the
// cancelling wallet's cost), and it asked for all its shares and closed its empty share account, so the
// cancel re-opens it: the worst case of the cancel's compute budget, measured. Staging passes the hole, the requests around it are claimed as before and
// the cancelled one is never announced claimable. Refusals: nothing pending (409, as a claim), a
// cancel after the cancel.
import {
  ComputeBudgetProgram,
  Keypair,
  PublicKey,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { beforeAll, describe, expect, it } from "vitest";

import {
  TOKEN_ACCOUNT_SIZE,
  TOKEN_PROGRAM_ID,
  findAssociatedTokenAddress,
} from "../../../lib/chain/spl-token";
import { historyRecordResponse } from "../../../lib/api/schemas/history";
import { withdrawResponse, withdrawalStatusResponse } from "../../../lib/api/schemas/withdraw";
import { createIndexer } from "../../../lib/server/indexer";
import { findQueueHoles, findShareMint } from "../../../lib/vault/program/addresses";
import { QUEUE_HOLES_ACCOUNT_SIZE, WITHDRAWAL_RECEIPT_ACCOUNT_SIZE } from "../../../lib/vault/program/idl";
import type { PartnerEvent } from "../../../lib/vault/model/partner-event";
import { cancelWithdrawal } from "../../../lib/vault/operations/cancel-withdrawal";
import { readVaultTokens } from "../../../lib/vault/operations/verify-transaction";
import { rentExemptMinimum } from "../../../lib/vault/model/vault-state";
import { USDC, dataOf } from "../harness";
import { endpointSuite, errorBody, expectError } from "./setup";
import { withRoomInWindow, withRoomTimeout } from "../window-room";

/** The cap-usage case may first wait for room before the hourly window rolls over. */
const CAP_USAGE_CASE_TIMEOUT = withRoomTimeout(60_000);

const api = endpointSuite();

/** The SetComputeUnitLimit of a built transaction (Compute Budget tag 2, then the limit as a u32). */
function computeUnitLimitOf(base64: string): number {
  const { message } = VersionedTransaction.deserialize(Buffer.from(base64, "base64"));
  for (const instruction of message.compiledInstructions) {
    const program = message.staticAccountKeys[instruction.programIdIndex];
    if (program?.equals(ComputeBudgetProgram.programId) && instruction.data[0] === 2) {
      return Buffer.from(instruction.data).readUInt32LE(1);
    }
  }
  throw new Error("no compute-unit limit in the transaction");
}

describe("cancelling a pending withdrawal: POST /api/vault/{vault_id}/withdraw with action cancel", () => {
  let first: Keypair;
  let middle: Keypair;
  let last: Keypair;
  let firstRequestId: string;
  let middleRequestId: string;
  let lastRequestId: string;
  const REQUESTED = 100_000_000_000n;
  /** The middle wallet's request: all of its shares. */
  let middleShares: bigint;
  let middleFeeShares = 0n;

  const statusOf = async (wallet: Keypair) =>
    withdrawalStatusResponse.parse(
      (
        await api.harness.request("GET", `${api.withdrawPath()}?wallet=${wallet.publicKey.toBase58()}`, {
          key: api.readKey,
        })
      ).body,
    ).data;

  const shareAccountOf = (wallet: Keypair) =>
    findAssociatedTokenAddress(wallet.publicKey, findShareMint(new PublicKey(api.harness.vaultId)));

  const sharesHeld = async (wallet: Keypair): Promise<bigint> =>
    BigInt(
      (await api.harness.connection.getTokenAccountBalance(shareAccountOf(wallet), "confirmed")).value.amount,
    );

  /** Closes the wallet's empty share account (Token CloseAccount, tag 9), its rent to the wallet. */
  const closeShareAccount = async (wallet: Keypair): Promise<void> => {
    const close = new TransactionInstruction({
      programId: TOKEN_PROGRAM_ID,
      keys: [
        { pubkey: shareAccountOf(wallet), isSigner: false, isWritable: true },
        { pubkey: wallet.publicKey, isSigner: false, isWritable: true },
        { pubkey: wallet.publicKey, isSigner: true, isWritable: false },
      ],
      data: Buffer.from([9]),
    });
    const latest = await api.harness.connection.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: wallet.publicKey,
      recentBlockhash: latest.blockhash,
      instructions: [close],
    }).compileToV0Message();
    const transaction = Buffer.from(new VersionedTransaction(message).serialize()).toString("base64");
    await api.harness.signAndSend(transaction, wallet);
    expect(await api.harness.connection.getAccountInfo(shareAccountOf(wallet))).toBeNull();
  };

  const record = async (wallet: Keypair, signature: string) =>
    historyRecordResponse.parse(
      (
        await api.harness.request("POST", "/api/history", {
          key: api.writeKey,
          body: { wallet: wallet.publicKey.toBase58(), vault_id: api.harness.vaultId, signature },
        })
      ).body,
    ).data;

  const build = (wallet: Keypair, body: Record<string, unknown>) =>
    api.harness.request("POST", api.withdrawPath(), {
      key: api.writeKey,
      body: { wallet: wallet.publicKey.toBase58(), ...body },
    });

  const requestWithdrawal = async (wallet: Keypair, shares: bigint): Promise<string> => {
    const built = withdrawResponse.parse(
      (await build(wallet, { sharesAmount: shares.toString() })).body,
    ).data;
    expect(built.action).toBe("initiate");
    const recorded = await record(wallet, await api.harness.signAndSend(built.transaction, wallet));
    return recorded.activity.requestId ?? "";
  };

  const vault = () => new PublicKey(api.harness.vaultId);
  const NOTHING_TO_CANCEL = errorBody(
    409,
    "NO_PENDING_WITHDRAWAL",
    "This wallet has no pending withdrawal in this vault to cancel",
  );

  beforeAll(async () => {
    [first, middle, last] = await Promise.all([
      api.harness.fundedWallet(1_000n * USDC),
      api.harness.fundedWallet(1_000n * USDC),
      api.harness.fundedWallet(1_000n * USDC),
    ]);
    for (const wallet of [first, middle, last]) {
      await api.deposit(wallet, 500n * USDC);
    }
  });

  it(
    "refuses a cancel with nothing pending (409, as a claim)",
    async () => {
      expectError(await build(middle, { action: "cancel" }), NOTHING_TO_CANCEL);
    },
    CAP_USAGE_CASE_TIMEOUT,
  );

  it("cancels the middle of three queued requests: shares back, status none, cap usage returned, recorded", async () => {
    // The requests, the cancel and the usage read before and after it in one hourly window.
    await withRoomInWindow("hourly");
    const held = await sharesHeld(middle);
    firstRequestId = await requestWithdrawal(first, REQUESTED / 2n);
    middleShares = held;
    middleRequestId = await requestWithdrawal(middle, middleShares);
    lastRequestId = await requestWithdrawal(last, REQUESTED / 4n);
    expect(await sharesHeld(middle)).toBe(0n);
    await closeShareAccount(middle);
    const pending = await statusOf(middle);
    expect(pending).toMatchObject({ hasPendingWithdrawal: true, pendingShares: middleShares.toString() });
    const usedBefore = BigInt(pending.withdrawalLimits.hourly.used.amount);
    // No staging yet: the middle request is inside the queue and unfunded, so its cancel leaves a hole
    // and creates the vault's hole list, at the cancelling wallet's cost (before its receipt's rent
    // comes back).
    expect(await api.harness.connection.getAccountInfo(findQueueHoles(vault()))).toBeNull();

    const result = await build(middle, { action: "cancel" });
    expect(result.status, result.text).toBe(200);
    const data = withdrawResponse.parse(result.body).data;
    expect(data.action).toBe("cancel");
    if (data.action !== "cancel") {
      return;
    }
    // A cancel costs the exit fee the receipt recorded (the vault's fee at the request), in shares
    // rounded up and burned: read from the chain, not from the server's answer.
    const { feeBps } = await readVaultTokens(api.harness.connection, vault());
    const feeShares = (middleShares * BigInt(feeBps) + 9_999n) / 10_000n;
    middleFeeShares = feeShares;
    expect(feeShares).toBeGreaterThan(0n);
    const returned = middleShares - feeShares;
    expect(data.details).toMatchObject({
      requestId: middleRequestId,
      returnedShares: { amount: returned.toString(), symbol: "vUSDC", decimals: 9 },
      feeShares: { amount: feeShares.toString(), symbol: "vUSDC", decimals: 9 },
      withdrawalEstimate: null,
      withdrawalReservation: null,
    });
    expect(data.message).toMatch(/^Cancel the pending withdrawal of 500(\.0+)? vUSDC from /);
    // Derived at build time: the escrowed shares come back, no asset moves; SOL: the receipt's rent
    // back, less the fee, the hole list's rent and the re-opened share account's.
    const fee = BigInt(data.expectedBalanceChanges?.networkFeeLamports ?? "0");
    const solChange =
      rentExemptMinimum(WITHDRAWAL_RECEIPT_ACCOUNT_SIZE) -
      rentExemptMinimum(QUEUE_HOLES_ACCOUNT_SIZE) -
      rentExemptMinimum(TOKEN_ACCOUNT_SIZE) -
      fee;
    expect(data.expectedBalanceChanges).toMatchObject({
      asset: { amount: "0" },
      shares: { amount: returned.toString() },
      sol: { lamports: solChange.toString() },
    });

    const lamportsBefore = await api.harness.connection.getBalance(middle.publicKey, "confirmed");
    const signature = await api.harness.signAndSend(data.transaction, middle);
    expect(await sharesHeld(middle)).toBe(held - feeShares);
    const lamportsAfter = await api.harness.connection.getBalance(middle.publicKey, "confirmed");
    expect(BigInt(lamportsAfter - lamportsBefore)).toBe(solChange);
    expect(await api.harness.connection.getAccountInfo(findQueueHoles(vault()))).not.toBeNull();
    // The worst case (hole list created, share account re-opened) within the limit, with room.
    const landed = await api.harness.connection.getTransaction(signature, {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    const units = landed?.meta?.computeUnitsConsumed ?? Number.NaN;
    // The limit the build set: the base budget plus what this wallet's and vault's bump searches cost.
    const limit = computeUnitLimitOf(data.transaction);
    console.log(
      "cancel compute units consumed",
      units,
      "limit",
      limit,
      "base",
      cancelWithdrawal.computeUnits,
    );
    expect(limit).toBeGreaterThanOrEqual(cancelWithdrawal.computeUnits);
    expect(units).toBeLessThanOrEqual(limit * 0.85);
    const after = await statusOf(middle);
    expect(after).toMatchObject({
      hasPendingWithdrawal: false,
      pendingShares: "0",
      canClaimNow: false,
      createdAt: null,
      estimate: null,
      progress: null,
    });
    // The wallet behind the hole waits only for the first request now (the hole list read from chain).
    expect((await statusOf(last)).progress).toMatchObject({
      sharesAhead: (REQUESTED / 2n).toString(),
      stagedShares: "0",
    });
    // The request's charge against the hourly window is given back.
    const gross = BigInt(pending.estimatedUsdcAmount.amount);
    expect(BigInt(after.withdrawalLimits.hourly.used.amount)).toBe(usedBefore - gross);

    const recorded = await record(middle, signature);
    expect(recorded).toMatchObject({
      duplicate: false,
      activity: {
        kind: "cancel",
        requestId: middleRequestId,
        shares: { amount: returned.toString() },
        assets: { amount: "0" },
        fee: null,
      },
    });
    expectError(await build(middle, { action: "cancel" }), NOTHING_TO_CANCEL);
  });

  it("leaves the requests around the hole to be funded and claimed; the indexer announces the cancel, never its claimable", async () => {
    await api.keeper().strikeNav(api.primeVault().vault);
    await api.keeper().stageWithdrawals(api.primeVault().vault);
    for (const wallet of [first, last]) {
      expect(await statusOf(wallet)).toMatchObject({ canClaimNow: true, progress: { fraction: 1 } });
      const claim = withdrawResponse.parse((await build(wallet, { action: "claim" })).body).data;
      expect(claim.action).toBe("claim");
      await api.harness.signAndSend(claim.transaction, wallet);
      expect((await statusOf(wallet)).hasPendingWithdrawal).toBe(false);
    }

    const indexer = createIndexer(api.harness.context, { intervalMs: 60_000, schema: api.harness.schema });
    try {
      await indexer.runOnce();
    } finally {
      await indexer.stop();
    }
    const events = dataOf(
      await api.harness.request(
        "GET",
        "/api/events?types=withdrawal.requested,withdrawal.cancelled,withdrawal.claimable",
        { key: api.readKey },
      ),
    ).events as PartnerEvent[];
    const cancelled = events.filter((event) => event.type === "withdrawal.cancelled");
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]).toMatchObject({
      wallet: middle.publicKey.toBase58(),
      vault: api.harness.vaultId,
      // The shares that came back, and the fee burned.
      data: {
        requestId: middleRequestId,
        shares: { amount: (middleShares - middleFeeShares).toString(), symbol: "vUSDC" },
        feeShares: { amount: middleFeeShares.toString(), symbol: "vUSDC" },
      },
    });
    const claimable = events.filter((event) => event.type === "withdrawal.claimable");
    expect(claimable.map((event) => event.data.requestId).sort()).toEqual(
      [firstRequestId, lastRequestId].sort(),
    );
  });
});
