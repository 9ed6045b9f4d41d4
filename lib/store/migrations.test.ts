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
      deliveredBy: null,
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

describe("0009_delivery_errors_in_words", () => {
  it("rewrites the socket's words of earlier deliveries and disable reasons, and keeps HTTP statuses", async () => {
    db = await openPgliteInMemory();
    const before = MIGRATIONS.findIndex((migration) => migration.id === "0009_delivery_errors_in_words");
    expect(before).toBeGreaterThan(0);
    await migrate(db, MIGRATIONS.slice(0, before));
    await db.query(
      `INSERT INTO api_keys (id, name, key_prefix, key_hash, scope, rpm) VALUES ('key_m', 'm', 'vk_test_m', $1, 'write', 1)`,
      ["0".repeat(64)],
    );
    const reasons: [string, string][] = [
      ["wh_a", "Every delivery failed since 2026-01-01T00:00:00Z; the last: socket hang up"],
      ["wh_b", "Every delivery failed since 2026-01-01T00:00:00Z; the last: HTTP 503"],
      ["wh_c", "Every delivery failed since 2026-01-01T00:00:00Z; the last: No response within 10 s"],
    ];
    for (const [id, reason] of reasons) {
      await db.query(
        `INSERT INTO webhook_endpoints (id, key_id, url, events, secret, disabled_at, disabled_reason)
         VALUES ($1, 'key_m', 'https://hooks.example/', ARRAY['deposit.confirmed'], 's', now(), $2)`,
        [id, reason],
      );
    }
    const errors = [
      "connect ECONNREFUSED 10.0.0.7:6379",
      "socket hang up",
      "HTTP 500",
      "No response within 10 s",
      "Refused target: url's host redis.internal resolves to 10.0.0.7 is a loopback, private, link-local or reserved address",
      "timeout",
    ];
    for (const [index, error] of errors.entries()) {
      await db.query(
        `INSERT INTO partner_events (id, type, vault, occurred_at, payload) VALUES ($1, 'vault.paused', 'v', now(), '{}')`,
        [`evt_${index}`],
      );
      await db.query(
        `INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, status, last_error)
         SELECT $1, 'wh_a', seq, 'failed', $2 FROM partner_events WHERE id = $3`,
        [`dlv_${index}`, error, `evt_${index}`],
      );
    }
    await migrate(db);
    const deliveries = await db.query<{ last_error: string }>(
      "SELECT last_error FROM webhook_deliveries ORDER BY id",
    );
    expect(deliveries.map((row) => row.last_error)).toEqual([
      "connection refused",
      "connection refused",
      "HTTP 500",
      "timeout",
      "Refused target: url's host redis.internal resolves to a loopback, private, link-local or reserved address",
      "timeout",
    ]);
    const endpoints = await db.query<{ disabled_reason: string }>(
      "SELECT disabled_reason FROM webhook_endpoints ORDER BY id",
    );
    expect(endpoints.map((row) => row.disabled_reason.split("; the last: ")[1])).toEqual([
      "connection refused",
      "HTTP 503",
      "timeout",
    ]);
  });
});

describe("0014_history_delivered_by", () => {
  it("reads rows stored before it as the owners' own, and stores who delivered a claim", async () => {
    db = await openPgliteInMemory();
    const before = MIGRATIONS.findIndex((migration) => migration.id === "0014_history_delivered_by");
    expect(before).toBeGreaterThan(0);
    await migrate(db, MIGRATIONS.slice(0, before));
    await db.query(
      `INSERT INTO history (signature, event_index, wallet, vault, kind, request_id, assets, shares, fee,
         asset_mint, share_mint, decimals, slot)
       VALUES ($1, 0, $2, $3, 'claim', 7, 99900000, 100000000000, 100000, 'mint', 'shares', 6, 42)`,
      [SIGNATURE, WALLET, VAULT],
    );
    expect(await migrate(db)).toEqual(MIGRATIONS.slice(before).map((migration) => migration.id));

    const store = new SqlHistoryStore(db);
    expect((await store.findBySignature(SIGNATURE))[0]).toMatchObject({ kind: "claim", deliveredBy: null });
    const keeper = "Keeper1111111111111111111111111111111111111";
    const delivered = await store.insertEvents([
      {
        signature: "6".repeat(88),
        eventIndex: 0,
        wallet: WALLET,
        vault: VAULT,
        kind: "claim",
        requestId: 8n,
        assets: 49_950_000n,
        shares: 50_000_000_000n,
        fee: 50_000n,
        deliveredBy: keeper,
        assetMint: "mint",
        shareMint: "shares",
        decimals: 6,
        slot: 43,
        blockTime: null,
      },
    ]);
    expect(delivered.records[0]).toMatchObject({ deliveredBy: keeper, assets: 49_950_000n, fee: 50_000n });
    expect((await store.list(VAULT, WALLET, 10)).map((row) => row.deliveredBy)).toEqual([keeper, null]);
  });
});

describe("0015_key_partner", () => {
  it("keeps keys made before it partnerless, and takes a partner only whole and within 1 to 500 bps", async () => {
    db = await openPgliteInMemory();
    const before = MIGRATIONS.findIndex((migration) => migration.id === "0015_key_partner");
    expect(before).toBeGreaterThan(0);
    await migrate(db, MIGRATIONS.slice(0, before));
    await db.query(
      `INSERT INTO api_keys (id, name, key_prefix, key_hash, scope, rpm) VALUES ('key_old', 'old', 'vk_test_x', 'h0', 'write', 60)`,
    );
    expect(await migrate(db)).toEqual(MIGRATIONS.slice(before).map((migration) => migration.id));
    expect(
      await db.query("SELECT partner_wallet, partner_fee_bps FROM api_keys WHERE id = 'key_old'"),
    ).toEqual([{ partner_wallet: null, partner_fee_bps: null }]);
    const insert = (id: string, wallet: string | null, bps: number | null) =>
      db?.query(
        `INSERT INTO api_keys (id, name, key_prefix, key_hash, scope, rpm, partner_wallet, partner_fee_bps)
         VALUES ($1, $1, 'vk_test_x', $1, 'write', 60, $2, $3)`,
        [id, wallet, bps],
      );
    await insert("key_partner", WALLET, 25);
    await insert("key_ceiling", WALLET, 500);
    await expect(insert("key_no_bps", WALLET, null)).rejects.toThrow(/api_keys_partner_check/);
    await expect(insert("key_no_wallet", null, 25)).rejects.toThrow(/api_keys_partner_check/);
    await expect(insert("key_zero", WALLET, 0)).rejects.toThrow(/api_keys_partner_check/);
    await expect(insert("key_above", WALLET, 501)).rejects.toThrow(/api_keys_partner_check/);
  });
});
