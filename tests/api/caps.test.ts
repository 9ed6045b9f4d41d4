// The net-withdrawal caps: preparation checks capacity without reserving it, so two withdrawals
// prepared against the same capacity both build, and the one executed second fails on chain with
// 6020 (hourly) or 6021 (daily); preparing again then refuses with 422 and the remaining capacity.
import { VersionedTransaction, type Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { decodeVaultState } from "../../lib/vault/program/accounts";
import type { ConfigUpdate } from "../../lib/vault/program/instructions";
import { vaultErrorCode } from "../../lib/vault/program/program-errors";
import { devRoles } from "../../localnet/genesis";
import { waitFor } from "../../localnet/testing";
import { updateConfigPastNotice } from "./config-notice";
import { USDC, dataOf, startApiHarness, type ApiHarness } from "./harness";
import { withRoomInWindow, withRoomTimeout } from "./window-room";

/** Each cap case may first wait for room before its window rolls over. */
const CAP_CASE_TIMEOUT = withRoomTimeout(60_000);

let harness: ApiHarness;
let key: string;

beforeAll(async () => {
  harness = await startApiHarness();
  key = (await harness.createKey({ scope: "write" })).secret;
});

afterAll(async () => {
  await harness?.close();
});

function flexVault() {
  const vault = harness.localnet.addresses.vaults[1];
  if (vault === undefined) {
    throw new Error("no flex vault");
  }
  return vault;
}

/** The manager sets the flex vault's caps through the program, as they stand once the notice has run out. */
async function setCaps(update: ConfigUpdate): Promise<void> {
  await updateConfigPastNotice(harness.localnet.chain, devRoles().manager, flexVault().vault, update);
}

function dailyUsed(): bigint {
  const account = harness.localnet.chain.getAccount(flexVault().vault.toBase58());
  return account === null ? 0n : decodeVaultState(account.data).dailyUsed;
}

async function depositedWallet(amount: bigint): Promise<Keypair> {
  const wallet = await harness.fundedWallet(amount);
  const built = dataOf(
    await harness.request("POST", `/api/vault/${harness.flexVaultId}/deposit`, {
      key,
      body: { wallet: wallet.publicKey.toBase58(), amount: amount.toString() },
    }),
  );
  await harness.signAndSend(String(built.transaction), wallet);
  return wallet;
}

/** One whole share: the share mint has the asset's 6 decimals plus the program's offset of 3. */
const SHARE = 1_000n * USDC;

async function prepareInitiate(wallet: Keypair, shares: bigint) {
  return harness.request("POST", `/api/vault/${harness.flexVaultId}/withdraw`, {
    key,
    body: { wallet: wallet.publicKey.toBase58(), sharesAmount: shares.toString(), action: "initiate" },
  });
}

/** Sends without preflight so the program's own refusal lands on chain; returns its custom error code. */
async function execute(base64: string, wallet: Keypair): Promise<number | null> {
  const transaction = VersionedTransaction.deserialize(Buffer.from(base64, "base64"));
  transaction.sign([wallet]);
  const signature = await harness.connection.sendTransaction(transaction, { skipPreflight: true });
  const landed = await waitFor(async () => {
    const found = await harness.connection.getTransaction(signature, {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    return found ?? undefined;
  });
  const err = landed.meta?.err;
  if (err === null || err === undefined) {
    return null;
  }
  const instructionError = (err as { InstructionError?: [number, { Custom?: number }] }).InstructionError;
  return instructionError?.[1].Custom ?? -1;
}

describe("cap capacity consumed between preparation and execution", () => {
  it(
    "fails the second initiate on chain with 6020 HourlyWithdrawalCapExceeded, then refuses at preparation",
    async () => {
      await withRoomInWindow("hourly");
      const [first, second] = await Promise.all([depositedWallet(700n * USDC), depositedWallet(700n * USDC)]);
      if (first === undefined || second === undefined) {
        throw new Error("wallets");
      }
      await setCaps({ hourlyCap: 1_000n * USDC, dailyCap: 0n });
      const preparedFirst = dataOf(await prepareInitiate(first, 600n * SHARE));
      const preparedSecond = dataOf(await prepareInitiate(second, 600n * SHARE));
      expect(await execute(String(preparedFirst.transaction), first)).toBeNull();
      expect(await execute(String(preparedSecond.transaction), second)).toBe(
        vaultErrorCode("HourlyWithdrawalCapExceeded"),
      );
      expect(vaultErrorCode("HourlyWithdrawalCapExceeded")).toBe(6020);

      const refused = await prepareInitiate(second, 600n * SHARE);
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({
        success: false,
        code: "CAPACITY_EXCEEDED",
        error:
          "The hourly net-withdrawal cap leaves 400.00 USDC; this withdrawal is worth 600.00 USDC. Reduce the amount or wait for capacity",
      });
      expect((refused.body as { details: string }).details).toMatch(
        /^hourly cap 1000000000, used 600000000, remaining 400000000/,
      );
      expect(refused.body).toMatchObject({
        context: {
          window: "hourly",
          remaining: { amount: (400n * USDC).toString(), symbol: "USDC", decimals: 6 },
          requested: { amount: (600n * USDC).toString() },
          cap: { amount: (1_000n * USDC).toString() },
          used: { amount: (600n * USDC).toString() },
        },
      });
      expect(
        Date.parse(String((refused.body as { context: { resetsAt: string } }).context.resetsAt)),
      ).not.toBeNaN();
      expect(dataOf(await prepareInitiate(second, 400n * SHARE)).action).toBe("initiate");
    },
    CAP_CASE_TIMEOUT,
  );

  it(
    "fails the second initiate on chain with 6021 DailyWithdrawalCapExceeded",
    async () => {
      await withRoomInWindow("daily");
      const [first, second] = await Promise.all([depositedWallet(500n * USDC), depositedWallet(500n * USDC)]);
      if (first === undefined || second === undefined) {
        throw new Error("wallets");
      }
      // Deposits give capacity back to the windows, so the cap is set from what the day has used now.
      await setCaps({ hourlyCap: 0n, dailyCap: dailyUsed() + 700n * USDC });
      const preparedFirst = dataOf(await prepareInitiate(first, 400n * SHARE));
      const preparedSecond = dataOf(await prepareInitiate(second, 400n * SHARE));
      expect(await execute(String(preparedFirst.transaction), first)).toBeNull();
      expect(await execute(String(preparedSecond.transaction), second)).toBe(6021);
      const refused = await prepareInitiate(second, 400n * SHARE);
      expect(refused.body).toMatchObject({
        code: "CAPACITY_EXCEEDED",
        error: /^The daily net-withdrawal cap leaves 300\.00 USDC/,
        context: { window: "daily", remaining: { amount: (300n * USDC).toString() } },
      });
    },
    CAP_CASE_TIMEOUT,
  );
});
