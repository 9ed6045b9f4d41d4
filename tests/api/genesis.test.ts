// A restarted local chain is a new chain: the API's context watches the genesis hash behind RPC_URL, so
// after the chain is replaced at the same URL /api/vaults stops serving the previous chain's rows, and
// the indexer deletes them and indexes the new chain from scratch.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Indexer } from "../../lib/indexer/indexer";
import { createIndexer } from "../../lib/server/indexer";
import type { LocalnetHandle } from "../../localnet/localnet";
import { startTestLocalnet, waitFor } from "../../localnet/testing";
import { dataOf, startApiHarness, USDC, type ApiHarness } from "./harness";

let first: LocalnetHandle;
let second: LocalnetHandle | null = null;
let harness: ApiHarness;
let indexer: Indexer;
let readKey: string;

beforeAll(async () => {
  first = await startTestLocalnet();
  harness = await startApiHarness({ sharedLocalnet: first });
  indexer = createIndexer(harness.context, { intervalMs: 60_000, schema: harness.schema });
  readKey = (await harness.createKey({ scope: "read" })).secret;
});

afterAll(async () => {
  await indexer?.stop();
  await harness?.close();
  await first?.stop();
  await second?.stop();
});

/** The TVL of each vault /api/vaults lists, in raw units. */
async function listedTvl(): Promise<Record<string, string>> {
  const data = dataOf(await harness.request("GET", "/api/vaults", { key: readKey })) as {
    vaults: { id: string; tvl: { amount: string } }[];
  };
  return Object.fromEntries(data.vaults.map((vault) => [vault.id, vault.tvl.amount]));
}

async function rowsOf(
  table: "vault_events" | "partner_events" | "history",
  signature: string,
): Promise<string> {
  const [row] = await harness.context.store.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM ${table} WHERE signature = $1`,
    [signature],
  );
  return row?.n ?? "0";
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

describe("a local chain restarted with a fresh ledger", () => {
  it("is told apart by its genesis hash: the API stops serving the old chain's rows and the indexer starts over", async () => {
    const store = harness.context.store.indexer;
    await indexer.runOnce();
    const genesisTvl = await listedTvl();
    expect(genesisTvl[harness.vaultId]).toBeDefined();

    // A deposit on the first chain moves its vault's TVL.
    const amount = 250n * USDC;
    const writeKey = (await harness.createKey({ scope: "write" })).secret;
    const wallet = await harness.fundedWallet(amount);
    const built = dataOf(
      await harness.request("POST", `/api/vault/${harness.vaultId}/deposit`, {
        key: writeKey,
        body: { wallet: wallet.publicKey.toBase58(), amount: amount.toString() },
      }),
    );
    const signature = await harness.signAndSend(String(built.transaction), wallet);
    await indexer.runOnce();
    const depositedTvl = await waitFor(async () => {
      const tvl = await listedTvl();
      return tvl[harness.vaultId] === genesisTvl[harness.vaultId] ? undefined : tvl;
    });
    expect(BigInt(depositedTvl[harness.vaultId] ?? "0")).toBe(
      BigInt(genesisTvl[harness.vaultId] ?? "0") + amount,
    );
    const recorded = await harness.request("POST", "/api/history", {
      key: writeKey,
      body: { wallet: wallet.publicKey.toBase58(), vault_id: harness.vaultId, signature },
    });
    expect(recorded.status, recorded.text).toBe(200);
    expect(await rowsOf("history", signature)).toBe("1");
    expect(await rowsOf("partner_events", signature)).not.toBe("0");
    const firstGenesis = await store.indexedGenesis();
    expect(firstGenesis).toBe(first.chain.identity.genesisHash);
    expect(
      (await store.events(harness.vaultId, { owner: wallet.publicKey.toBase58() })).length,
    ).toBeGreaterThan(0);

    // The chain is replaced by a fresh one at the same URL (`npm run dev` restarted).
    await first.stop();
    second = await startTestLocalnet({ rpcPort: portOf(first.rpcUrl), wsPort: portOf(first.wsUrl) });
    expect(second.rpcUrl).toBe(first.rpcUrl);
    expect(second.chain.identity.genesisHash).not.toBe(firstGenesis);

    // Before the indexer runs again, the API's genesis watch sees the new chain: the old rows (with the
    // deposit) are not served; the directory answers what the new chain has, read from it.
    const beforeReindex = await waitFor(async () => {
      const tvl = await listedTvl();
      return tvl[harness.vaultId] === depositedTvl[harness.vaultId] ? undefined : tvl;
    }, 30_000);
    expect(beforeReindex).toEqual(genesisTvl);

    // The indexer deletes the previous chain's rows and indexes the new chain from scratch.
    await indexer.runOnce();
    expect(await store.indexedGenesis()).toBe(second.chain.identity.genesisHash);
    expect(await store.events(harness.vaultId, { owner: wallet.publicKey.toBase58() })).toEqual([]);
    for (const table of ["vault_events", "partner_events", "history"] as const) {
      expect(await rowsOf(table, signature)).toBe("0");
    }
    const freshTvl = await waitFor(async () => {
      const tvl = await listedTvl();
      return Object.keys(tvl).length > 0 ? tvl : undefined;
    });
    expect(freshTvl).toEqual(genesisTvl);
  });
});
