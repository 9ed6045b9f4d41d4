// The indexer's rows: vault accounts as last read, NAV/supply/queue snapshots, program events and the
// per-vault cursor, and the history rows of claims delivered to their owners. Every write is idempotent
// (primary keys plus ON CONFLICT DO NOTHING), and a transaction's rows are stored together with the
// cursor that passes it, so a restart at any point neither duplicates nor skips.
import type { IndexedVaultRow, StoredEvent, VaultSnapshot } from "../vault/model/indexed-records";
import type { WithdrawalMilestoneEvents } from "../vault/model/withdrawal-milestones";
import type { NewActivityRecord } from "../vault/reads/history";
import type { Database, Queryable } from "./db";
import { SqlHistoryStore } from "./history";

export type { IndexedVaultRow, StoredEvent, VaultSnapshot };

export interface IndexerCursor {
  signature: string;
  slot: number;
}

interface SnapshotRow {
  vault: string;
  source: "schedule" | "event";
  slot: string;
  taken_at: Date;
  nav_sequence: string;
  nav_updated_at: Date | null;
  total_assets: string;
  total_shares: string;
  queue_tail: string | null;
  queue_funded: string | null;
  queue_claimed: string | null;
  reserve_balance: string | null;
}

const SNAPSHOT_COLUMNS = `vault, source, slot::text AS slot, taken_at, nav_sequence::text AS nav_sequence,
  nav_updated_at, total_assets::text AS total_assets, total_shares::text AS total_shares,
  queue_tail::text AS queue_tail, queue_funded::text AS queue_funded, queue_claimed::text AS queue_claimed,
  reserve_balance::text AS reserve_balance`;

const optionalBigInt = (value: string | null): bigint | null => (value === null ? null : BigInt(value));

function snapshotFromRow(row: SnapshotRow): VaultSnapshot {
  return {
    vault: row.vault,
    source: row.source,
    slot: Number(row.slot),
    takenAt: new Date(row.taken_at),
    navSequence: BigInt(row.nav_sequence),
    navUpdatedAt: row.nav_updated_at === null ? null : new Date(row.nav_updated_at),
    totalAssets: BigInt(row.total_assets),
    totalShares: BigInt(row.total_shares),
    queueTail: optionalBigInt(row.queue_tail),
    queueFunded: optionalBigInt(row.queue_funded),
    queueClaimed: optionalBigInt(row.queue_claimed),
    reserveBalance: optionalBigInt(row.reserve_balance),
  };
}

export interface EventRow {
  signature: string;
  event_index: number;
  vault: string;
  name: string;
  owner: string | null;
  request_id: string | null;
  slot: string;
  block_time: Date | null;
  data: Record<string, unknown> | string;
}

export const EVENT_COLUMNS = `signature, event_index, vault, name, owner, request_id::text AS request_id,
  slot::text AS slot, block_time, data`;

export function eventFromRow(row: EventRow): StoredEvent {
  return {
    signature: row.signature,
    eventIndex: Number(row.event_index),
    vault: row.vault,
    name: row.name,
    owner: row.owner,
    requestId: optionalBigInt(row.request_id),
    slot: Number(row.slot),
    blockTime: row.block_time === null ? null : new Date(row.block_time),
    data: typeof row.data === "string" ? (JSON.parse(row.data) as Record<string, unknown>) : row.data,
  };
}

function insertSnapshot(db: Queryable, snapshot: VaultSnapshot): Promise<unknown> {
  return db.query(
    `INSERT INTO vault_snapshots (vault, source, slot, taken_at, nav_sequence, nav_updated_at, total_assets,
       total_shares, queue_tail, queue_funded, queue_claimed, reserve_balance)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (vault, source, slot) DO NOTHING`,
    [
      snapshot.vault,
      snapshot.source,
      snapshot.slot,
      snapshot.takenAt,
      snapshot.navSequence.toString(),
      snapshot.navUpdatedAt,
      snapshot.totalAssets.toString(),
      snapshot.totalShares.toString(),
      snapshot.queueTail?.toString() ?? null,
      snapshot.queueFunded?.toString() ?? null,
      snapshot.queueClaimed?.toString() ?? null,
      snapshot.reserveBalance?.toString() ?? null,
    ],
  );
}

export interface IndexerDatabase extends Queryable {
  ready(): Promise<Database>;
}

export class SqlIndexerStore {
  constructor(private readonly db: IndexerDatabase) {}

  /** The genesis hash of the chain the rows were read from; null before the first run records one. */
  async indexedGenesis(): Promise<string | null> {
    const [row] = await this.db.query<{ genesis_hash: string }>("SELECT genesis_hash FROM indexed_chain");
    return row?.genesis_hash ?? null;
  }

  /**
   * Records that the rows are read from the chain with this genesis hash. When another chain's hash was
   * recorded, the rows read from that chain are deleted first, in the same transaction, and its hash
   * is returned; otherwise null. Deleted: the indexer's rows (vault accounts, snapshots, program events,
   * cursors), the partner events derived from them with their webhook deliveries (pending ones would
   * announce transactions of a chain that is gone, and the claimability check reads them), and the
   * history records (their signatures do not exist on the new chain). Kept: keys, webhook endpoints and
   * their test events, which belong to partners, not to a chain.
   */
  async startChain(genesisHash: string): Promise<string | null> {
    const database = await this.db.ready();
    return database.transaction(async (tx) => {
      const [row] = await tx.query<{ genesis_hash: string }>(
        "SELECT genesis_hash FROM indexed_chain FOR UPDATE",
      );
      if (row?.genesis_hash === genesisHash) {
        return null;
      }
      if (row !== undefined) {
        await tx.query(
          `DELETE FROM webhook_deliveries WHERE event_seq IN
             (SELECT seq FROM partner_events WHERE test_endpoint IS NULL)`,
        );
        for (const table of [
          "partner_events WHERE test_endpoint IS NULL",
          "vault_events",
          "vault_snapshots",
          "indexer_cursors",
          "indexed_vaults",
          "history",
        ]) {
          await tx.query(`DELETE FROM ${table}`);
        }
      }
      await tx.query(
        `INSERT INTO indexed_chain (singleton, genesis_hash, recorded_at) VALUES (true, $1, now())
         ON CONFLICT (singleton) DO UPDATE SET genesis_hash = EXCLUDED.genesis_hash, recorded_at = now()`,
        [genesisHash],
      );
      return row?.genesis_hash ?? null;
    });
  }

  async upsertVault(row: Omit<IndexedVaultRow, "updatedAt">): Promise<void> {
    await this.db.query(
      `INSERT INTO indexed_vaults (vault, slot, account_data, reserve_balance, holders, updated_at)
       VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (vault) DO UPDATE SET slot = EXCLUDED.slot, account_data = EXCLUDED.account_data,
         reserve_balance = EXCLUDED.reserve_balance, holders = EXCLUDED.holders, updated_at = now()
       WHERE indexed_vaults.slot <= EXCLUDED.slot`,
      [row.vault, row.slot, row.accountData.toString("base64"), row.reserveBalance.toString(), row.holders],
    );
  }

  async vaults(): Promise<IndexedVaultRow[]> {
    const rows = await this.db.query<{
      vault: string;
      slot: string;
      account_data: string;
      reserve_balance: string;
      holders: number;
      updated_at: Date;
    }>(
      `SELECT vault, slot::text AS slot, account_data, reserve_balance::text AS reserve_balance, holders, updated_at
       FROM indexed_vaults ORDER BY vault`,
    );
    return rows.map((row) => ({
      vault: row.vault,
      slot: Number(row.slot),
      accountData: Buffer.from(row.account_data, "base64"),
      reserveBalance: BigInt(row.reserve_balance),
      holders: Number(row.holders),
      updatedAt: new Date(row.updated_at),
    }));
  }

  async vault(vault: string): Promise<IndexedVaultRow | null> {
    return (await this.vaults()).find((row) => row.vault === vault) ?? null;
  }

  async addSnapshot(snapshot: VaultSnapshot): Promise<void> {
    await insertSnapshot(this.db, snapshot);
  }

  /** Snapshots of one source taken at or after `since`, oldest first. */
  async snapshots(vault: string, source: VaultSnapshot["source"], since: Date): Promise<VaultSnapshot[]> {
    const rows = await this.db.query<SnapshotRow>(
      `SELECT ${SNAPSHOT_COLUMNS} FROM vault_snapshots WHERE vault = $1 AND source = $2 AND taken_at >= $3
       ORDER BY vault_snapshots.slot`,
      [vault, source, since],
    );
    return rows.map(snapshotFromRow);
  }

  async latestSnapshot(vault: string, source: VaultSnapshot["source"]): Promise<VaultSnapshot | null> {
    const [row] = await this.db.query<SnapshotRow>(
      `SELECT ${SNAPSHOT_COLUMNS} FROM vault_snapshots WHERE vault = $1 AND source = $2 ORDER BY vault_snapshots.slot DESC LIMIT 1`,
      [vault, source],
    );
    return row === undefined ? null : snapshotFromRow(row);
  }

  /** The oldest snapshot of a source at or after `since` with shares outstanding (an APY window's start). */
  async firstSnapshotSince(
    vault: string,
    source: VaultSnapshot["source"],
    since: Date,
  ): Promise<VaultSnapshot | null> {
    const [row] = await this.db.query<SnapshotRow>(
      `SELECT ${SNAPSHOT_COLUMNS} FROM vault_snapshots
       WHERE vault = $1 AND source = $2 AND taken_at >= $3 AND vault_snapshots.total_shares > 0
       ORDER BY vault_snapshots.slot LIMIT 1`,
      [vault, source, since],
    );
    return row === undefined ? null : snapshotFromRow(row);
  }

  /**
   * The vault's first NAV strike with shares outstanding: where its share price series starts. Ordered
   * by taken_at, as navAt matches strikes, so a series from its takenAt has a price at its first point.
   */
  async firstNavStrike(vault: string): Promise<VaultSnapshot | null> {
    const [row] = await this.db.query<SnapshotRow>(
      `SELECT ${SNAPSHOT_COLUMNS} FROM vault_snapshots
       WHERE vault = $1 AND source = 'event' AND vault_snapshots.total_shares > 0
       ORDER BY vault_snapshots.taken_at, vault_snapshots.slot LIMIT 1`,
      [vault],
    );
    return row === undefined ? null : snapshotFromRow(row);
  }

  /**
   * For each instant of `at`, the newest NAV strike (an event snapshot) at or before it, or null: one
   * index lookup per instant in one round trip, however long the vault's NAV history is.
   */
  async navAt(vault: string, at: readonly Date[]): Promise<(VaultSnapshot | null)[]> {
    const rows = await this.db.query<
      { position: string } & (SnapshotRow | { [K in keyof SnapshotRow]: null })
    >(
      `SELECT wanted.position::text AS position, strike.*
       FROM unnest($2::text[]) WITH ORDINALITY AS wanted(at, position)
       LEFT JOIN LATERAL (
         SELECT ${SNAPSHOT_COLUMNS} FROM vault_snapshots
         WHERE vault_snapshots.vault = $1 AND vault_snapshots.source = 'event'
           AND vault_snapshots.taken_at <= wanted.at::timestamptz
         ORDER BY vault_snapshots.taken_at DESC, vault_snapshots.slot DESC LIMIT 1
       ) AS strike ON true
       ORDER BY wanted.position`,
      [vault, at.map((instant) => instant.toISOString())],
    );
    return rows.map((row) => (row.vault === null ? null : snapshotFromRow(row)));
  }

  async cursor(vault: string): Promise<IndexerCursor | null> {
    const [row] = await this.db.query<{ signature: string; slot: string }>(
      "SELECT signature, slot::text AS slot FROM indexer_cursors WHERE vault = $1",
      [vault],
    );
    return row === undefined ? null : { signature: row.signature, slot: Number(row.slot) };
  }

  /**
   * One transaction's events of `vault`, its NAV strikes as event snapshots, the history rows the
   * indexer records (claims delivered to their owners, and their requests when no one posted them),
   * what `alsoWithin` writes from them (the partner events' outbox), and the cursor moved past it, all
   * in one database transaction.
   */
  async recordTransaction<T = void>(
    vault: string,
    cursor: IndexerCursor,
    events: readonly StoredEvent[],
    history: readonly NewActivityRecord[],
    alsoWithin?: (tx: Queryable) => Promise<T>,
  ): Promise<T | undefined> {
    const database = await this.db.ready();
    return database.transaction(async (tx) => {
      for (const event of events) {
        await tx.query(
          `INSERT INTO vault_events (signature, event_index, vault, name, owner, request_id, slot, block_time, data)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
           ON CONFLICT (signature, event_index) DO NOTHING`,
          [
            event.signature,
            event.eventIndex,
            event.vault,
            event.name,
            event.owner,
            event.requestId?.toString() ?? null,
            event.slot,
            event.blockTime,
            JSON.stringify(event.data),
          ],
        );
        if (event.name === "NavUpdated") {
          const field = (name: string): bigint => BigInt(String(event.data[name] ?? "0"));
          const struckAt = new Date(Number(field("timestamp")) * 1000);
          await insertSnapshot(tx, {
            vault: event.vault,
            source: "event",
            slot: event.slot,
            takenAt: struckAt,
            navSequence: field("navSequence"),
            navUpdatedAt: struckAt,
            totalAssets: field("totalAssets"),
            totalShares: field("totalShares"),
            queueTail: null,
            queueFunded: null,
            queueClaimed: null,
            reserveBalance: null,
          });
        }
      }
      // One insert per transaction and wallet, as the history store takes them.
      const groups = new Map<string, NewActivityRecord[]>();
      for (const record of history) {
        const key = `${record.signature}:${record.wallet}`;
        groups.set(key, [...(groups.get(key) ?? []), record]);
      }
      const rows = new SqlHistoryStore(tx);
      for (const group of groups.values()) {
        await rows.insertEvents(group);
      }
      const derived = await alsoWithin?.(tx);
      await tx.query(
        `INSERT INTO indexer_cursors (vault, signature, slot, updated_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (vault) DO UPDATE SET signature = EXCLUDED.signature, slot = EXCLUDED.slot, updated_at = now()`,
        [vault, cursor.signature, cursor.slot],
      );
      return derived;
    });
  }

  async events(
    vault: string,
    options: { owner?: string; names?: readonly string[]; since?: Date } = {},
  ): Promise<StoredEvent[]> {
    const rows = await this.db.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM vault_events
       WHERE vault = $1 AND ($2::text IS NULL OR owner = $2) AND ($3::text[] IS NULL OR name = ANY($3::text[]))
         AND ($4::timestamptz IS NULL OR vault_events.block_time >= $4)
       ORDER BY vault_events.slot, vault_events.signature, vault_events.event_index`,
      [
        vault,
        options.owner ?? null,
        options.names === undefined ? null : [...options.names],
        options.since ?? null,
      ],
    );
    return rows.map(eventFromRow);
  }

  /** One wallet's events in any of `vaults`, in one query (the portfolio reads every vault at once). */
  async walletEvents(owner: string, vaults: readonly string[]): Promise<StoredEvent[]> {
    const rows = await this.db.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM vault_events
       WHERE vault_events.vault = ANY($2::text[]) AND vault_events.owner = $1
       ORDER BY vault_events.vault, vault_events.slot, vault_events.signature, vault_events.event_index`,
      [owner, [...vaults]],
    );
    return rows.map(eventFromRow);
  }

  /**
   * Mean seconds from a withdrawal request made at or after `sinceSeconds` to the moment it became
   * claimable — the first NAV struck past its floor and the first staging that funded the queue past
   * its end, whichever came later — over the requests that have; null when none has. The same rule
   * as averageSecondsToClaimable in lib/vault/reads/directory.ts, done by the database over its indexes
   * instead of loading every event of the window.
   */
  async averageSecondsToClaimable(vault: string, sinceSeconds: number): Promise<number | null> {
    const [row] = await this.db.query<{ average: number | string | null }>(
      `SELECT avg(GREATEST(0, GREATEST(nav.at, staged.at) - (request.data->>'timestamp')::bigint))::float8 AS average
       FROM vault_events AS request
       JOIN LATERAL (
         SELECT (later.data->>'timestamp')::bigint AS at FROM vault_events AS later
         WHERE later.vault = request.vault AND later.slot >= request.slot AND later.name = 'NavUpdated'
           AND (later.data->>'navSequence')::numeric > (request.data->>'navFloor')::numeric
         ORDER BY later.slot, later.signature, later.event_index LIMIT 1
       ) AS nav ON true
       JOIN LATERAL (
         SELECT (later.data->>'timestamp')::bigint AS at FROM vault_events AS later
         WHERE later.vault = request.vault AND later.slot >= request.slot AND later.name = 'WithdrawalsStaged'
           AND (later.data->>'queueFunded')::numeric >= (request.data->>'queueEnd')::numeric
         ORDER BY later.slot, later.signature, later.event_index LIMIT 1
       ) AS staged ON true
       WHERE request.vault = $1 AND request.name = 'WithdrawalRequested'
         AND (request.data->>'timestamp')::bigint >= $2`,
      [vault, sinceSeconds],
    );
    return row?.average === null || row?.average === undefined ? null : Number(row.average);
  }

  /**
   * The indexed events that date one withdrawal of `owner` (request `requestId`, or the owner's latest
   * request when null): the request, the first NAV struck past its floor, the first staging that funded
   * the queue past its end (averageSecondsToClaimable's rule) and its claim; null when no request is
   * indexed.
   */
  async withdrawalMilestoneEvents(
    vault: string,
    owner: string,
    requestId: bigint | null,
  ): Promise<WithdrawalMilestoneEvents | null> {
    const [requestRow] = await this.db.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM vault_events
       WHERE vault = $1 AND owner = $2 AND name = 'WithdrawalRequested'
         AND ($3::numeric IS NULL OR request_id = $3::numeric)
       ORDER BY slot DESC, signature DESC, event_index DESC LIMIT 1`,
      [vault, owner, requestId?.toString() ?? null],
    );
    if (requestRow === undefined) {
      return null;
    }
    const request = eventFromRow(requestRow);
    const first = async (name: string, field: string, operator: ">" | ">=", bound: string) => {
      const [row] = await this.db.query<EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM vault_events
         WHERE vault = $1 AND name = $2 AND slot >= $3 AND (data->>'${field}')::numeric ${operator} $4::numeric
         ORDER BY slot, signature, event_index LIMIT 1`,
        [vault, name, request.slot, bound],
      );
      return row === undefined ? null : eventFromRow(row);
    };
    const [nav, staged, claimedRows] = await Promise.all([
      first("NavUpdated", "navSequence", ">", String(request.data.navFloor ?? "0")),
      first("WithdrawalsStaged", "queueFunded", ">=", String(request.data.queueEnd ?? "0")),
      this.db.query<EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM vault_events
         WHERE vault = $1 AND owner = $2 AND name = 'WithdrawalClaimed' AND request_id = $3::numeric
         ORDER BY slot LIMIT 1`,
        [vault, owner, request.requestId?.toString() ?? "-1"],
      ),
    ]);
    const claimedRow = claimedRows[0];
    return { request, nav, staged, claimed: claimedRow === undefined ? null : eventFromRow(claimedRow) };
  }

  /**
   * The signature of the indexed request `requestId` of `owner` when its history has no row for it
   * (no one posted it); null when it has one, or the request is not indexed.
   */
  async unrecordedRequest(vault: string, owner: string, requestId: bigint): Promise<string | null> {
    const [row] = await this.db.query<{ signature: string }>(
      `SELECT request.signature FROM vault_events AS request
       WHERE request.vault = $1 AND request.owner = $2 AND request.name = 'WithdrawalRequested'
         AND request.request_id = $3::numeric
         AND NOT EXISTS (SELECT 1 FROM history WHERE history.vault = request.vault
           AND history.wallet = request.owner AND history.kind = 'initiate' AND history.request_id = request.request_id)
       ORDER BY request.slot DESC LIMIT 1`,
      [vault, owner, requestId.toString()],
    );
    return row?.signature ?? null;
  }

  async countEvents(vault: string): Promise<number> {
    const [row] = await this.db.query<{ count: string }>(
      "SELECT count(*)::text AS count FROM vault_events WHERE vault = $1",
      [vault],
    );
    return Number(row?.count ?? 0);
  }
}
