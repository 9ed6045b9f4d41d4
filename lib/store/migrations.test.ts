// Migration 0005 on a database that already holds history: old rows stay readable, unnumbered (-1),
// and a transaction's further events can be stored beside them.
import { afterEach, describe, expect, it } from "vitest";

import { openPgliteInMemory, type Database } from "./db";
import { SqlHistoryStore } from "./history";
import { MIGRATIONS, migrate } from "./migrations";

let db: Database | null = null;

afterEach(async () => {
  await db?.close();
  db = null;
});

const SIGNATURE = "5".repeat(88);
const WALLET = "Wallet1111111111111111111111111111111111111";
const VAULT = "Vault11111111111111111111111111111111111111";

describe("0005_history_events", () => {
  it("keeps rows stored before it, unnumbered, and keys rows by signature and event index", async () => {
    db = await openPgliteInMemory();
    const before = MIGRATIONS.findIndex((migration) => migration.id === "0005_history_events");
    expect(before).toBeGreaterThan(0);
    await migrate(db, MIGRATIONS.slice(0, before));
    await db.query(
      `INSERT INTO history (signature, wallet, vault, kind, assets, shares, asset_mint, share_mint, decimals, slot)
       VALUES ($1, $2, $3, 'deposit', 5000000, 5000000000, 'mint', 'shares', 6, 42)`,
      [SIGNATURE, WALLET, VAULT],
    );
    expect(await migrate(db)).toEqual(MIGRATIONS.slice(before).map((migration) => migration.id));

    const store = new SqlHistoryStore(db);
    const [legacy] = await store.findBySignature(SIGNATURE);
    expect(legacy).toMatchObject({ eventIndex: -1, kind: "deposit", assets: 5_000_000n, slot: 42 });

    const common = {
      signature: SIGNATURE,
      wallet: WALLET,
      vault: VAULT,
      assetMint: "mint",
      shareMint: "shares",
      decimals: 6,
      slot: 42,
      blockTime: null,
      requestId: null,
      fee: null,
    };
    const stored = await store.insertEvents([
      { ...common, eventIndex: 2, kind: "deposit", assets: 5_000_000n, shares: 5_000_000_000n },
      { ...common, eventIndex: 3, kind: "deposit", assets: 7n, shares: 7_000n },
    ]);
    expect(stored.inserted).toBe(true);
    expect(stored.records.map((record) => [record.eventIndex, record.assets])).toEqual([
      [2, 5_000_000n],
      [3, 7n],
    ]);
    await expect(
      db.query(
        `INSERT INTO history (signature, event_index, wallet, vault, kind, assets, shares, asset_mint, share_mint,
           decimals, slot) VALUES ($1, 3, $2, $3, 'deposit', 1, 1, 'mint', 'shares', 6, 42)`,
        [SIGNATURE, WALLET, VAULT],
      ),
    ).rejects.toThrow(/duplicate key/);
  });
});
