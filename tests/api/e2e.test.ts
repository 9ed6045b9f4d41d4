// End to end over real HTTP: a fresh wallet goes deposit → initiate → pending (progress, estimate) →
// the keeper strikes a NAV and stages the queue → claim (auto-detected) → history, each transaction
// deserialized, signed, sent and confirmed with @solana/web3.js. The store is the PostgreSQL at
// DATABASE_URL, else the local one on 127.0.0.1:5432 when it answers, else PGlite.
import pg from "pg";
import { VersionedTransaction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { waitFor } from "../../localnet/testing";
import { DATABASE_URL, USDC, dataOf, startApiHarness, type ApiHarness } from "./harness";

const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/test";

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

let harness: ApiHarness;

beforeAll(async () => {
  const databaseUrl = DATABASE_URL ?? ((await reachable(LOCAL_POSTGRES)) ? LOCAL_POSTGRES : null);
  if (databaseUrl === null) {
    console.warn("e2e: no PostgreSQL at DATABASE_URL or 127.0.0.1:5432; running on PGlite");
  }
  harness = await startApiHarness({
    localnet: { keeper: { enabled: true, navIntervalSeconds: 2, stageIntervalSeconds: 1 } },
    env: databaseUrl === null ? {} : { DATABASE_URL: databaseUrl },
  });
});

afterAll(async () => {
  await harness?.close();
});

describe("a partner's whole flow", () => {
  it("deposits, initiates, waits, claims and records each step", async () => {
    const { secret } = await harness.createKey({ scope: "write" });
    const wallet = await harness.fundedWallet(1_000n * USDC);
    const address = wallet.publicKey.toBase58();
    const vaultPath = `/api/vault/${harness.vaultId}`;

    async function signSendConfirm(base64: string): Promise<string> {
      const transaction = VersionedTransaction.deserialize(Buffer.from(base64, "base64"));
      expect(transaction.message.staticAccountKeys[0]?.toBase58()).toBe(address);
      const simulation = await harness.connection.simulateTransaction(transaction, { sigVerify: false });
      expect(simulation.value.err).toBeNull();
      transaction.sign([wallet]);
      const signature = await harness.connection.sendTransaction(transaction);
      const { blockhash, lastValidBlockHeight } = {
        blockhash: transaction.message.recentBlockhash,
        lastValidBlockHeight: Number.MAX_SAFE_INTEGER,
      };
      const confirmation = await harness.connection.confirmTransaction(
        { signature, blockhash, lastValidBlockHeight },
        "confirmed",
      );
      expect(confirmation.value.err).toBeNull();
      return signature;
    }

    async function record(signature: string): Promise<Record<string, unknown>> {
      const result = await harness.request("POST", "/api/history", {
        key: secret,
        body: { wallet: address, vault_id: harness.vaultId, signature },
      });
      return dataOf(result);
    }

    const deposit = dataOf(
      await harness.request("POST", `${vaultPath}/deposit`, {
        key: secret,
        body: { wallet: address, uiAmount: 250 },
      }),
    );
    expect(deposit.lastValidBlockHeight).toEqual(expect.any(Number));
    const depositRecord = await record(await signSendConfirm(String(deposit.transaction)));
    expect(depositRecord).toMatchObject({ duplicate: false, activity: { kind: "deposit" } });

    const initiate = dataOf(
      await harness.request("POST", `${vaultPath}/withdraw`, {
        key: secret,
        body: { wallet: address, sharesAmount: "100000000000" },
      }),
    );
    expect(initiate.action).toBe("initiate");
    const initiateRecord = await record(await signSendConfirm(String(initiate.transaction)));
    expect(initiateRecord).toMatchObject({
      activity: { kind: "initiate", shares: { amount: "100000000000" } },
    });

    const pending = dataOf(
      await harness.request("GET", `${vaultPath}/withdraw?wallet=${address}`, { key: secret }),
    );
    expect(pending).toMatchObject({ hasPendingWithdrawal: true, pendingShares: "100000000000" });
    expect(pending.progress).toMatchObject({ totalShares: "100000000000" });
    expect(pending.estimate).toMatchObject({ kind: expect.stringMatching(/^(nav|staging|ready)$/) });
    expect(pending.createdAt).toBe((initiateRecord.activity as { blockTime: string }).blockTime);

    const claimable = await waitFor(async () => {
      const status = dataOf(
        await harness.request("GET", `${vaultPath}/withdraw?wallet=${address}`, { key: secret }),
      );
      return status.canClaimNow === true ? status : undefined;
    }, 30_000);
    expect(claimable.estimate).toEqual({ kind: "ready", band: null, awaiting: [] });

    const claim = dataOf(
      await harness.request("POST", `${vaultPath}/withdraw`, { key: secret, body: { wallet: address } }),
    );
    expect(claim.action).toBe("claim");
    expect(String(claim.message)).toMatch(/^Claim about \d+\.\d+ USDC/);
    const claimRecord = await record(await signSendConfirm(String(claim.transaction)));
    expect(claimRecord).toMatchObject({ activity: { kind: "claim", shares: { amount: "100000000000" } } });

    const after = dataOf(
      await harness.request("GET", `${vaultPath}/withdraw?wallet=${address}`, { key: secret }),
    );
    expect(after).toMatchObject({ hasPendingWithdrawal: false, pendingShares: "0" });
    const feed = dataOf(
      await harness.request("GET", `/api/history?wallet=${address}&vault_id=${harness.vaultId}`, {
        key: secret,
      }),
    );
    expect((feed.activity as { kind: string }[]).map((entry) => entry.kind)).toEqual([
      "claim",
      "initiate",
      "deposit",
    ]);
  });
});
