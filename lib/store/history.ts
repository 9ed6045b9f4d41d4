// History rows, unique by (signature, event index). Inserting a transaction's rows twice, even
// concurrently, leaves one of each: the insert does nothing on conflict and the loser reads the
// winner's rows.
import type {
  ActivityKind,
  ActivityRecord,
  HistoryPosition,
  HistoryStore,
  NewActivityRecord,
} from "../vault/reads/history";
import type { RequestTimeSource } from "../vault/reads/withdrawal-status";
import type { Queryable } from "./db";

interface HistoryRow {
  signature: string;
  event_index: number;
  wallet: string;
  vault: string;
  kind: ActivityKind;
  request_id: string | null;
  assets: string;
  shares: string;
  fee: string | null;
  delivered_by: string | null;
  asset_mint: string;
  share_mint: string;
  decimals: number;
  slot: string;
  block_time: Date | null;
  recorded_at: Date;
}

// Numeric and bigint columns as text: pg and PGlite map them to JavaScript differently.
const COLUMNS = `signature, event_index, wallet, vault, kind, request_id::text AS request_id, assets::text AS assets,
  shares::text AS shares, fee::text AS fee, delivered_by, asset_mint, share_mint, decimals, slot::text AS slot,
  block_time, recorded_at`;

function fromRow(row: HistoryRow): ActivityRecord {
  return {
    signature: row.signature,
    eventIndex: Number(row.event_index),
    wallet: row.wallet,
    vault: row.vault,
    kind: row.kind,
    requestId: row.request_id === null ? null : BigInt(row.request_id),
    assets: BigInt(row.assets),
    shares: BigInt(row.shares),
    fee: row.fee === null ? null : BigInt(row.fee),
    deliveredBy: row.delivered_by,
    assetMint: row.asset_mint,
    shareMint: row.share_mint,
    decimals: Number(row.decimals),
    slot: Number(row.slot),
    blockTime: row.block_time === null ? null : new Date(row.block_time),
    recordedAt: new Date(row.recorded_at),
  };
}

export class SqlHistoryStore implements HistoryStore, RequestTimeSource {
  constructor(private readonly db: Queryable) {}

  async findBySignature(signature: string): Promise<ActivityRecord[]> {
    const rows = await this.db.query<HistoryRow>(
      `SELECT ${COLUMNS} FROM history WHERE signature = $1 ORDER BY event_index`,
      [signature],
    );
    return rows.map(fromRow);
  }

  async hasInitiate(vault: string, wallet: string, requestId: bigint): Promise<boolean> {
    const rows = await this.db.query<{ one: number }>(
      "SELECT 1 AS one FROM history WHERE vault = $1 AND wallet = $2 AND kind = 'initiate' AND request_id = $3 LIMIT 1",
      [vault, wallet, requestId.toString()],
    );
    return rows.length > 0;
  }

  async initiateBlockTime(vault: string, wallet: string, requestId: bigint): Promise<Date | null> {
    const [row] = await this.db.query<{ block_time: Date | null }>(
      "SELECT block_time FROM history WHERE vault = $1 AND wallet = $2 AND kind = 'initiate' AND request_id = $3 LIMIT 1",
      [vault, wallet, requestId.toString()],
    );
    return row?.block_time === null || row === undefined ? null : new Date(row.block_time);
  }

  async insertEvents(
    records: readonly NewActivityRecord[],
  ): Promise<{ inserted: boolean; records: ActivityRecord[] }> {
    const [first] = records;
    if (first === undefined) {
      return { inserted: false, records: [] };
    }
    // A row stored before events were numbered is its pair's first event in the transaction.
    await this.db.query(
      `UPDATE history SET event_index = $4
       WHERE signature = $1 AND wallet = $2 AND vault = $3 AND event_index = -1`,
      [first.signature, first.wallet, first.vault, first.eventIndex],
    );
    const FIELDS = 15;
    const placeholders = records.map(
      (_, row) =>
        `(${Array.from({ length: FIELDS }, (_unused, field) => `$${row * FIELDS + field + 1}`).join(", ")})`,
    );
    const inserted = await this.db.query<HistoryRow>(
      `INSERT INTO history (signature, event_index, wallet, vault, kind, request_id, assets, shares, fee,
         delivered_by, asset_mint, share_mint, decimals, slot, block_time)
       VALUES ${placeholders.join(", ")}
       ON CONFLICT (signature, event_index) DO NOTHING
       RETURNING ${COLUMNS}`,
      records.flatMap((record) => [
        record.signature,
        record.eventIndex,
        record.wallet,
        record.vault,
        record.kind,
        record.requestId?.toString() ?? null,
        record.assets.toString(),
        record.shares.toString(),
        record.fee?.toString() ?? null,
        record.deliveredBy,
        record.assetMint,
        record.shareMint,
        record.decimals,
        record.slot,
        record.blockTime,
      ]),
    );
    const wanted = new Set(records.map((record) => record.eventIndex));
    const stored = (await this.findBySignature(first.signature)).filter((row) => wanted.has(row.eventIndex));
    if (stored.length !== records.length) {
      throw new Error(`History rows of ${first.signature} conflicted but cannot be read`);
    }
    return { inserted: inserted.length > 0, records: stored };
  }

  async list(
    vault: string,
    wallet: string,
    limit: number,
    before?: HistoryPosition,
  ): Promise<ActivityRecord[]> {
    // The feed's order is (slot DESC, signature ASC, event_index DESC): newest first, and a
    // transaction's later events before its earlier ones. A cursor resumes strictly after its entry.
    const rows = await this.db.query<HistoryRow>(
      `SELECT ${COLUMNS} FROM history WHERE vault = $1 AND wallet = $2
         AND ($4::bigint IS NULL OR history.slot < $4 OR (history.slot = $4 AND (history.signature > $5
           OR (history.signature = $5 AND history.event_index < $6))))
       ORDER BY history.slot DESC, history.signature, history.event_index DESC LIMIT $3`,
      [vault, wallet, limit, before?.slot ?? null, before?.signature ?? null, before?.eventIndex ?? null],
    );
    return rows.map(fromRow);
  }
}
