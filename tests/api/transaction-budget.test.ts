// The per-action compute-unit budgets of lib/vault/operations/transaction.ts against what the built transactions
// consume on the local chain, in their worst case (token accounts created by the transaction).
import {
  ComputeBudgetProgram,
  Keypair,
  PublicKey,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  TOKEN_PROGRAM_ID,
  findAssociatedTokenAddress,
  findAssociatedTokenAddressAndBump,
} from "../../lib/chain/spl-token";

import { findReceiptAndBump } from "../../lib/vault/program/addresses";
import { BUMP_TRY_UNITS } from "../../lib/vault/operations/transaction";
import { OPERATIONS } from "../../lib/vault/operations/operations";
import { deposit as depositOperation } from "../../lib/vault/operations/deposit";
import { depositWithPartnerFee } from "../../lib/vault/operations/deposit-with-partner-fee";
import { requestWithdrawal } from "../../lib/vault/operations/request-withdrawal";
import { claimWithdrawal } from "../../lib/vault/operations/claim-withdrawal";
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

/**
 * A wallet whose associated accounts for both mints, and whose withdrawal receipt in the vault, are
 * found only after several bump tries (255, 254, … each refused): the associated token program's
 * search and request_withdrawal's each cost 1,500 CU a try, so a budget fixed for bump 255 would refuse
 * this wallet's deposit, initiate and claim.
 */
function unluckyWallet(mints: readonly PublicKey[], vault: PublicKey, maxBump: number): Keypair {
  for (;;) {
    const wallet = Keypair.generate();
    if (
      mints.every((mint) => findAssociatedTokenAddressAndBump(wallet.publicKey, mint).bump <= maxBump) &&
      findReceiptAndBump(vault, wallet.publicKey).bump <= maxBump
    ) {
      return wallet;
    }
  }
}

/** The SetComputeUnitLimit of a built transaction (instruction tag 2, then the limit as a u32). */
function limitOf(base64: string): number {
  const message = VersionedTransaction.deserialize(Buffer.from(base64, "base64")).message;
  for (const instruction of message.compiledInstructions) {
    const data = Buffer.from(instruction.data);
    if (
      message.staticAccountKeys[instruction.programIdIndex]?.equals(ComputeBudgetProgram.programId) &&
      data[0] === 2
    ) {
      return data.readUInt32LE(1);
    }
  }
  throw new Error("no compute-unit limit in the transaction");
}

async function consumed(signature: string): Promise<number> {
  const transaction = await harness.connection.getTransaction(signature, {
    commitment: "confirmed",
    maxSupportedTransactionVersion: 0,
  });
  return transaction?.meta?.computeUnitsConsumed ?? Number.NaN;
}

describe("compute-unit budgets", () => {
  it("cover deposit, initiate, claim and a deposit with a partner fee with room to spare, and are not wildly above them", async () => {
    const { secret } = await harness.createKey();
    const flex = harness.localnet.addresses.vaults.find(
      (vault) => vault.vault.toBase58() === harness.flexVaultId,
    );
    if (flex === undefined) {
      throw new Error("no Flex vault");
    }
    // Bumps of 251 or lower for both accounts and the receipt: four refused tries or more each (1 wallet
    // in 4,096).
    const wallet = unluckyWallet([flex.shareMint, harness.localnet.addresses.usdcMint], flex.vault, 251);
    harness.localnet.faucet.dispenseUsdc(wallet.publicKey, 300n * USDC);
    const address = wallet.publicKey.toBase58();
    const path = `/api/vault/${harness.flexVaultId}`;

    const deposit = dataOf(
      await harness.request("POST", `${path}/deposit`, {
        key: secret,
        body: { wallet: address, amount: "300000000" },
      }),
    );
    // The limit the API set pays for the share account's bump search on top of the base budget.
    expect(limitOf(String(deposit.transaction))).toBeGreaterThanOrEqual(
      depositOperation.computeUnits + 4 * BUMP_TRY_UNITS,
    );
    const depositUnits = await consumed(await harness.signAndSend(String(deposit.transaction), wallet));

    const initiate = dataOf(
      await harness.request("POST", `${path}/withdraw`, {
        key: secret,
        body: { wallet: address, sharesAmount: "100000000000" },
      }),
    );
    // And for the receipt's bump search in request_withdrawal.
    expect(limitOf(String(initiate.transaction))).toBeGreaterThanOrEqual(
      requestWithdrawal.computeUnits + 4 * BUMP_TRY_UNITS,
    );
    const initiateUnits = await consumed(await harness.signAndSend(String(initiate.transaction), wallet));

    // Worst case for the claim: the wallet's (now empty) asset account is closed, so the claim creates it.
    await closeAssetAccount(wallet);
    await waitFor(async () => {
      const status = dataOf(
        await harness.request("GET", `${path}/withdraw?wallet=${address}`, { key: secret }),
      );
      return status.canClaimNow === true ? true : undefined;
    });
    const claim = dataOf(
      await harness.request("POST", `${path}/withdraw`, { key: secret, body: { wallet: address } }),
    );
    expect(claim.action).toBe("claim");
    expect(limitOf(String(claim.transaction))).toBeGreaterThanOrEqual(
      claimWithdrawal.computeUnits + 4 * BUMP_TRY_UNITS,
    );
    const claimUnits = await consumed(await harness.signAndSend(String(claim.transaction), wallet));

    // A deposit with a partner fee, its share account created, to a partner whose asset account's bump
    // is 251 or lower: the program is passed that bump (no search), so only the share account's bump
    // search is added to the base budget.
    const payer = unluckyWallet([flex.shareMint], flex.vault, 251);
    harness.localnet.faucet.dispenseUsdc(payer.publicKey, 300n * USDC);
    let partner = Keypair.generate().publicKey;
    while (findAssociatedTokenAddressAndBump(partner, harness.localnet.addresses.usdcMint).bump > 251) {
      partner = Keypair.generate().publicKey;
    }
    harness.localnet.faucet.dispenseUsdc(partner, 0n);
    const partnerKey = await harness.createKey({ partner: { wallet: partner.toBase58(), feeBps: 25 } });
    const partnerDeposit = dataOf(
      await harness.request("POST", `${path}/deposit`, {
        key: partnerKey.secret,
        body: { wallet: payer.publicKey.toBase58(), amount: "300000000" },
      }),
    );
    expect(limitOf(String(partnerDeposit.transaction))).toBe(
      depositWithPartnerFee.computeUnits +
        (255 - findAssociatedTokenAddressAndBump(payer.publicKey, flex.shareMint).bump) * BUMP_TRY_UNITS,
    );
    const partnerDepositUnits = await consumed(
      await harness.signAndSend(String(partnerDeposit.transaction), payer),
    );
    expect(
      await harness.connection.getTokenAccountBalance(
        findAssociatedTokenAddress(partner, harness.localnet.addresses.usdcMint),
      ),
    ).toMatchObject({ value: { amount: "750000" } });

    const measured = {
      deposit: depositUnits,
      initiate: initiateUnits,
      claim: claimUnits,
      depositWithPartnerFee: partnerDepositUnits,
    };
    const limits = {
      deposit: limitOf(String(deposit.transaction)),
      initiate: limitOf(String(initiate.transaction)),
      claim: limitOf(String(claim.transaction)),
      depositWithPartnerFee: limitOf(String(partnerDeposit.transaction)),
    };
    console.log(
      "compute units consumed",
      measured,
      "limits",
      limits,
      "base budgets",
      Object.fromEntries(OPERATIONS.map((operation) => [operation.instruction.name, operation.computeUnits])),
    );
    for (const action of ["deposit", "initiate", "claim", "depositWithPartnerFee"] as const) {
      expect(measured[action]).toBeLessThanOrEqual(limits[action] * 0.85);
      expect(measured[action]).toBeGreaterThan(limits[action] / 4);
    }
  });
});
