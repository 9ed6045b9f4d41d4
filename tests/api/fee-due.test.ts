// A fee raise whose notice has run out but that no transaction has applied yet (the program applies a
// due config lazily, before the next request reads it; nobody has to send apply_config). The next
// request pays the new fee, so whatever shows or checks the fee must use the one in force at its
// clock. Before: the check the typed client and the pages run read the stored 0 bps and refused the
// builder's honest request ("accepts a fee of up to 1000 bps; the vault charges 0"), and the pages
// showed a 0.00 % fee for a withdrawal that pays 10 %.
import { PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createVaultClient, type TransactionSigner } from "../../lib/client";
import { findAssociatedTokenAddress } from "../../lib/chain/spl-token";
import { readVaultTokens } from "../../lib/vault/operations/verify-transaction";
import { devRoles } from "../../localnet/genesis";
import { waitFor } from "../../localnet/testing";
import { scheduleConfigDue } from "./config-notice";
import { API_HOST, USDC, dataOf, startApiHarness, type ApiHarness } from "./harness";

let harness: ApiHarness;
const FLOW_TIMEOUT_MS = API_HOST === "dev" ? 300_000 : 90_000;

beforeAll(async () => {
  harness = await startApiHarness({
    localnet: { keeper: { enabled: true, navIntervalSeconds: 2, stageIntervalSeconds: 1 } },
  });
}, 180_000);

afterAll(async () => {
  await harness?.close();
});

describe("a fee raise past its notice, not yet applied", () => {
  it(
    "is the fee shown, checked and paid: a 100 USDC position leaves with 90",
    async () => {
      const vault = new PublicKey(harness.flexVaultId);
      const { secret } = await harness.createKey({ scope: "write", rpm: 100_000 });
      const client = createVaultClient({
        baseUrl: harness.url,
        apiKey: secret,
        vaultId: harness.flexVaultId,
        rpc: harness.connection,
      });
      const wallet = await harness.fundedWallet(100n * USDC);
      const owner = wallet.publicKey.toBase58();
      const signer: TransactionSigner = {
        publicKey: wallet.publicKey,
        async signTransaction(transaction) {
          transaction.sign([wallet]);
          return transaction;
        },
      };
      const deposit = await client.deposit({ wallet: owner, uiAmount: 100 }, signer);
      const shares = deposit.recorded.activity.shares.amount;

      expect(
        await scheduleConfigDue(harness.localnet.chain, devRoles().manager, vault, { feeBps: 1_000 }),
      ).toBe(true);
      expect((await readVaultTokens(harness.connection, vault)).feeBps).toBe(1_000);
      const detail = dataOf(
        await harness.request("GET", `/api/vault/${harness.flexVaultId}`, { key: secret }),
      );
      expect(detail.vault).toMatchObject({ withdrawalPolicy: { feeBps: 1_000 }, pendingConfig: null });

      const withdrawal = await client.withdraw({ wallet: owner, sharesAmount: shares }, signer);
      expect(withdrawal.recorded.activity).toMatchObject({ kind: "initiate", shares: { amount: shares } });
      await waitFor(
        async () => ((await client.withdrawalStatus(owner)).canClaimNow ? true : undefined),
        30_000,
      );
      const usdc = findAssociatedTokenAddress(
        wallet.publicKey,
        new PublicKey(deposit.prepared.details.depositAmount.mint),
      );
      const before = BigInt(
        (await harness.connection.getTokenAccountBalance(usdc, "confirmed")).value.amount,
      );
      await client.claim({ wallet: owner }, signer);
      const received =
        BigInt((await harness.connection.getTokenAccountBalance(usdc, "confirmed")).value.amount) - before;
      // 100 USDC of shares (a few seconds of the keeper's yield aside) less 10 %.
      expect(received).toBeGreaterThanOrEqual(89_990_000n);
      expect(received).toBeLessThanOrEqual(90_010_000n);
    },
    FLOW_TIMEOUT_MS,
  );
});
