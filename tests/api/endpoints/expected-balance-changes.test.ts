// expectedBalanceChanges, derived at build time without a round trip, held to a simulation of the same
// built transaction on the local chain (simulateExpectedBalanceChanges, the oracle): asset, shares and
// lamports equal to the unit, for every operation and the accounts it may open or close — a deposit
// with and without the wallet's share account, one whose share account's address was sent lamports
// before it was opened, a request (and one whose receipt address was sent lamports), a cancel that
// leaves a hole (opening the hole list and re-opening a closed share account), a cancel of the queue's
// tail (no hole list), and a claim into a closed asset account.
import {
  ComputeBudgetProgram,
  type Keypair,
  PublicKey,
  SystemProgram,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { TOKEN_PROGRAM_ID, findAssociatedTokenAddress } from "../../../lib/chain/spl-token";
import { depositResponse } from "../../../lib/api/schemas/deposit";
import { withdrawResponse } from "../../../lib/api/schemas/withdraw";
import { loadVault } from "../../../lib/vault/model/vault-state";
import { findReceipt, findShareMint } from "../../../lib/vault/program/addresses";
import {
  simulateExpectedBalanceChanges,
  type ExpectedBalanceChanges,
} from "../../../lib/vault/operations/expected-balance-changes";
import { USDC } from "../harness";
import { endpointSuite } from "./setup";

const api = endpointSuite();

const vault = () => new PublicKey(api.harness.vaultId);

/** The compute-unit limit and price the built transaction carries (what its fee is charged on). */
function computeBudgetOf(base64: string): { limit: number; price: number } {
  const { message } = VersionedTransaction.deserialize(Buffer.from(base64, "base64"));
  let limit: number | null = null;
  let price: number | null = null;
  for (const instruction of message.compiledInstructions) {
    const program = message.staticAccountKeys[instruction.programIdIndex];
    if (!program?.equals(ComputeBudgetProgram.programId)) continue;
    const data = Buffer.from(instruction.data);
    if (data[0] === 2) limit = data.readUInt32LE(1);
    if (data[0] === 3) price = Number(data.readBigUInt64LE(1));
  }
  if (limit === null || price === null) throw new Error("no compute budget in the transaction");
  return { limit, price };
}

/**
 * A build reads the vault and the wallet through the account cache (entries a few seconds old); the
 * test makes the cache current first, so the build and the simulation see the same state.
 */
async function currentCache(wallet: Keypair): Promise<void> {
  const { deps } = api.harness.context;
  const loaded = await loadVault(deps, vault(), "fresh");
  await deps.chain.getAccounts(
    [
      wallet.publicKey,
      findAssociatedTokenAddress(wallet.publicKey, loaded.asset.mint),
      findAssociatedTokenAddress(wallet.publicKey, loaded.shares.mint),
    ],
    "fresh",
  );
}

/** The derived changes equal the simulation's (but unitsConsumed, which only a simulation knows). */
async function expectSimulationAgrees(
  wallet: Keypair,
  transaction: string,
  derived: ExpectedBalanceChanges,
): Promise<void> {
  const { deps } = api.harness.context;
  const { limit, price } = computeBudgetOf(transaction);
  const simulated = await simulateExpectedBalanceChanges(
    deps,
    await loadVault(deps, vault(), "fresh"),
    wallet.publicKey,
    { transaction, computeUnitLimit: limit, computeUnitPriceMicroLamports: price },
  );
  expect(simulated, "the simulation ran").not.toBeNull();
  expect(simulated?.unitsConsumed).toBeGreaterThan(0);
  expect(derived?.unitsConsumed).toBeNull();
  expect({ ...derived, unitsConsumed: null }).toEqual({ ...simulated, unitsConsumed: null });
}

async function buildDeposit(wallet: Keypair, amount: bigint) {
  await currentCache(wallet);
  const result = await api.harness.request("POST", api.depositPath(), {
    key: api.writeKey,
    body: { wallet: wallet.publicKey.toBase58(), amount: amount.toString() },
  });
  expect(result.status, result.text).toBe(200);
  const { data } = depositResponse.parse(result.body);
  await expectSimulationAgrees(wallet, data.transaction, data.expectedBalanceChanges);
  return data;
}

async function buildWithdraw(wallet: Keypair, body: Record<string, unknown>) {
  const result = await api.harness.request("POST", api.withdrawPath(), {
    key: api.writeKey,
    body: { wallet: wallet.publicKey.toBase58(), ...body },
  });
  expect(result.status, result.text).toBe(200);
  const { data } = withdrawResponse.parse(result.body);
  await expectSimulationAgrees(wallet, data.transaction, data.expectedBalanceChanges);
  return data;
}

async function send(wallet: Keypair, instructions: TransactionInstruction[]): Promise<void> {
  const latest = await api.harness.connection.getLatestBlockhash();
  const message = new TransactionMessage({
    payerKey: wallet.publicKey,
    recentBlockhash: latest.blockhash,
    instructions,
  }).compileToV0Message();
  await api.harness.signAndSend(
    Buffer.from(new VersionedTransaction(message).serialize()).toString("base64"),
    wallet,
  );
}

/** Closes the wallet's empty token account (Token CloseAccount, tag 9), its rent to the wallet. */
async function closeTokenAccount(wallet: Keypair, account: PublicKey): Promise<void> {
  await send(wallet, [
    new TransactionInstruction({
      programId: TOKEN_PROGRAM_ID,
      keys: [
        { pubkey: account, isSigner: false, isWritable: true },
        { pubkey: wallet.publicKey, isSigner: false, isWritable: true },
        { pubkey: wallet.publicKey, isSigner: true, isWritable: false },
      ],
      data: Buffer.from([9]),
    }),
  ]);
  expect(await api.harness.connection.getAccountInfo(account, "confirmed")).toBeNull();
}

/** Sends lamports (at least a bare account's rent) to an address nothing has opened yet: anyone can. */
async function gift(from: Keypair, to: PublicKey, lamports: number): Promise<void> {
  await send(from, [SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports })]);
}

const shareAccountOf = (wallet: Keypair) =>
  findAssociatedTokenAddress(wallet.publicKey, findShareMint(vault()));

describe("expectedBalanceChanges: derived at build time, equal to a simulation of the same transaction", () => {
  it("a deposit opening the share account, one into an open one, and one whose share account's address holds a gift", async () => {
    const wallet = await api.harness.fundedWallet(1_000n * USDC);
    const first = await buildDeposit(wallet, 250n * USDC);
    expect(first.expectedBalanceChanges).toMatchObject({ asset: { amount: "-250000000" } });
    await api.harness.signAndSend(first.transaction, wallet);
    const second = await buildDeposit(wallet, 100n * USDC);
    // No rent this time: only the fee.
    expect(second.expectedBalanceChanges?.sol.lamports).toBe(
      `-${second.expectedBalanceChanges?.networkFeeLamports ?? ""}`,
    );

    const gifted = await api.harness.fundedWallet(100n * USDC);
    await gift(wallet, shareAccountOf(gifted), 1_000_000);
    await buildDeposit(gifted, 10n * USDC);
  });

  it("a request, one whose receipt address holds a gift, a cancel leaving a hole (hole list opened, share account re-opened) and a cancel of the queue's tail", async () => {
    const [gifted, hole, tail] = await Promise.all([
      api.harness.fundedWallet(1_000n * USDC),
      api.harness.fundedWallet(1_000n * USDC),
      api.harness.fundedWallet(1_000n * USDC),
    ]);
    const received = new Map<Keypair, string>();
    for (const wallet of [gifted, hole, tail]) {
      const deposit = await buildDeposit(wallet, 500n * USDC);
      await api.harness.signAndSend(deposit.transaction, wallet);
      received.set(wallet, deposit.details.estimatedSharesReceived.amount);
    }
    // Three requests one behind the other: the first's receipt address was sent lamports; the middle
    // one asks for all its shares and closes its empty share account (its cancel re-opens it).
    await gift(gifted, findReceipt(vault(), gifted.publicKey), 1_000_000);
    const giftedRequest = await buildWithdraw(gifted, { sharesAmount: "100000000000", action: "initiate" });
    await api.harness.signAndSend(giftedRequest.transaction, gifted);
    const request = await buildWithdraw(hole, { sharesAmount: received.get(hole), action: "initiate" });
    await api.harness.signAndSend(request.transaction, hole);
    await closeTokenAccount(hole, shareAccountOf(hole));
    await api.harness.signAndSend(
      (await buildWithdraw(tail, { sharesAmount: "100000000000", action: "initiate" })).transaction,
      tail,
    );

    // Inside the queue (behind the first) and unfunded: a hole; the vault has no hole list yet.
    const cancel = await buildWithdraw(hole, { action: "cancel" });
    expect(BigInt(cancel.expectedBalanceChanges?.shares.amount ?? "0")).toBeGreaterThan(0n);
    await api.harness.signAndSend(cancel.transaction, hole);
    // The tail shrinks: no hole, no hole list to pay for.
    const tailCancel = await buildWithdraw(tail, { action: "cancel" });
    await api.harness.signAndSend(tailCancel.transaction, tail);
  });

  it("a claim into a closed asset account, the receipt's lamports coming back", async () => {
    const wallet = await api.harness.fundedWallet(200n * USDC);
    // Everything deposited, the empty asset account closed: the claim opens it again.
    const deposit = await buildDeposit(wallet, 200n * USDC);
    await api.harness.signAndSend(deposit.transaction, wallet);
    await closeTokenAccount(
      wallet,
      findAssociatedTokenAddress(wallet.publicKey, new PublicKey(deposit.details.depositAmount.mint)),
    );
    const shares = deposit.details.estimatedSharesReceived.amount;
    await api.harness.signAndSend(
      (await buildWithdraw(wallet, { sharesAmount: shares, action: "initiate" })).transaction,
      wallet,
    );
    await api.keeper().strikeNav(api.primeVault().vault);
    await api.keeper().stageWithdrawals(api.primeVault().vault);
    const claim = await buildWithdraw(wallet, { action: "claim" });
    expect(BigInt(claim.expectedBalanceChanges?.asset.amount ?? "0")).toBeGreaterThan(0n);
    await api.harness.signAndSend(claim.transaction, wallet);
  });
});
