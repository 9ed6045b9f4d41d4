// The per-action compute-unit budgets of lib/vault/transaction.ts against what the built transactions
// consume on the local chain, in their worst case (token accounts created by the transaction).
import {
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
  type Keypair,
} from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { TOKEN_PROGRAM_ID, findAssociatedTokenAddress } from "../../lib/chain/spl-token";

import { COMPUTE_UNIT_BUDGETS } from "../../lib/vault/transaction";
import { waitFor } from "../../localnet/testing";
import { USDC, dataOf, startApiHarness, type ApiHarness } from "./harness";

const CLOSE_ACCOUNT = 9;

let harness: ApiHarness;

beforeAll(async () => {
  harness = await startApiHarness({
    localnet: { keeper: { enabled: true, navIntervalSeconds: 1, stageIntervalSeconds: 1 } },
  });
});

afterAll(async () => {
  await harness?.close();
});

async function closeAssetAccount(wallet: Keypair): Promise<void> {
  const mint = harness.localnet.addresses.usdcMint;
  const account = findAssociatedTokenAddress(wallet.publicKey, mint);
  const close = new TransactionInstruction({
    programId: TOKEN_PROGRAM_ID,
    keys: [
      { pubkey: account, isSigner: false, isWritable: true },
      { pubkey: wallet.publicKey, isSigner: false, isWritable: true },
      { pubkey: wallet.publicKey, isSigner: true, isWritable: false },
    ],
    data: Buffer.from([CLOSE_ACCOUNT]),
  });
  const latest = await harness.connection.getLatestBlockhash();
  const message = new TransactionMessage({
    payerKey: wallet.publicKey,
    recentBlockhash: latest.blockhash,
    instructions: [close],
  }).compileToV0Message();
  const transaction = new VersionedTransaction(message);
  await harness.signAndSend(Buffer.from(transaction.serialize()).toString("base64"), wallet);
  expect(await harness.connection.getAccountInfo(account)).toBeNull();
}

async function consumed(signature: string): Promise<number> {
  const transaction = await harness.connection.getTransaction(signature, {
    commitment: "confirmed",
    maxSupportedTransactionVersion: 0,
  });
  return transaction?.meta?.computeUnitsConsumed ?? Number.NaN;
}

describe("compute-unit budgets", () => {
  it("cover deposit, initiate and claim with room to spare, and are not wildly above them", async () => {
    const { secret } = await harness.createKey();
    const wallet = await harness.fundedWallet(300n * USDC);
    const address = wallet.publicKey.toBase58();
    const path = `/api/vault/${harness.flexVaultId}`;

    const deposit = dataOf(
      await harness.request("POST", `${path}/deposit`, {
        key: secret,
        body: { wallet: address, amount: "300000000" },
      }),
    );
    const depositUnits = await consumed(await harness.signAndSend(String(deposit.transaction), wallet));

    const initiate = dataOf(
      await harness.request("POST", `${path}/withdraw`, {
        key: secret,
        body: { wallet: address, sharesAmount: "100000000000" },
      }),
    );
    const initiateUnits = await consumed(await harness.signAndSend(String(initiate.transaction), wallet));

    // Worst case for the claim: the wallet's (now empty) asset account is closed, so the claim creates it.
    await closeAssetAccount(wallet);
    await waitFor(async () => {
      const status = dataOf(
        await harness.request("GET", `${path}/withdraw?wallet=${address}`, { key: secret }),
      );
      return status.canClaimNow === true ? true : undefined;
    }, 20_000);
    const claim = dataOf(
      await harness.request("POST", `${path}/withdraw`, { key: secret, body: { wallet: address } }),
    );
    expect(claim.action).toBe("claim");
    const claimUnits = await consumed(await harness.signAndSend(String(claim.transaction), wallet));

    const measured = { deposit: depositUnits, initiate: initiateUnits, claim: claimUnits };
    console.log("compute units consumed", measured, "budgets", COMPUTE_UNIT_BUDGETS);
    for (const action of ["deposit", "initiate", "claim"] as const) {
      expect(measured[action]).toBeLessThanOrEqual(COMPUTE_UNIT_BUDGETS[action] * 0.85);
      expect(measured[action]).toBeGreaterThan(COMPUTE_UNIT_BUDGETS[action] / 4);
    }
  });
});
