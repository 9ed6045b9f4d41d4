// History rows, unique by signature. Inserting twice, even concurrently, leaves one row: the insert
// does nothing on conflict and the loser reads the winner's row.
import type { ActivityKind, ActivityRecord, HistoryStore, NewActivityRecord } from "../vault/history";
import type { RequestTimeSource } from "../vault/withdrawal-status";
import type { Queryable } from "./db";

interface HistoryRow {
  signature: string;
  wallet: string;
  vault: string;
  kind: ActivityKind;
  request_id: string | null;
  assets: string;
  shares: string;
  fee: string | null;
  asset_mint: string;
  share_mint: string;
  decimals: number;
  slot: string;
  block_time: Date | null;
  recorded_at: Date;
}

// Numeric and bigint columns as text: pg and PGlite map them to JavaScript differently.
const COLUMNS = `signature, wallet, vault, kind, request_id::text AS request_id, assets::text AS assets,
  shares::text AS shares, fee::text AS fee, asset_mint, share_mint, decimals, slot::text AS slot,
  block_time, recorded_at`;

function fromRow(row: HistoryRow): ActivityRecord {
  return {
    signature: row.signature,
    wallet: row.wallet,
    vault: row.vault,
    kind: row.kind,
    requestId: row.request_id === null ? null : BigInt(row.request_id),
    assets: BigInt(row.assets),
    shares: BigInt(row.shares),
    fee: row.fee === null ? null : BigInt(row.fee),
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

  async findBySignature(signature: string): Promise<ActivityRecord | null> {
    const [row] = await this.db.query<HistoryRow>(`SELECT ${COLUMNS} FROM history WHERE signature = $1`, [
      signature,
    ]);
    return row === undefined ? null : fromRow(row);
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

  async insertOnce(record: NewActivityRecord): Promise<{ inserted: boolean; record: ActivityRecord }> {
    const [inserted] = await this.db.query<HistoryRow>(
      `INSERT INTO history (signature, wallet, vault, kind, request_id, assets, shares, fee, asset_mint,
         share_mint, decimals, slot, block_time)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (signature) DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        record.signature,
        record.wallet,
        record.vault,
        record.kind,
        record.requestId?.toString() ?? null,
        record.assets.toString(),
        record.shares.toString(),
        record.fee?.toString() ?? null,
        record.assetMint,
        record.shareMint,
        record.decimals,
        record.slot,
        record.blockTime,
      ],
    );
    if (inserted !== undefined) {
      return { inserted: true, record: fromRow(inserted) };
    }
    const existing = await this.findBySignature(record.signature);
    if (existing === null) {
      throw new Error(`History row ${record.signature} conflicted but cannot be read`);
    }
    return { inserted: false, record: existing };
  }

  async list(
    vault: string,
    wallet: string,
    limit: number,
    before?: { slot: number; signature: string },
  ): Promise<ActivityRecord[]> {
    // The feed's order is (slot DESC, signature ASC); a cursor resumes strictly after its entry.
    const rows = await this.db.query<HistoryRow>(
      `SELECT ${COLUMNS} FROM history WHERE vault = $1 AND wallet = $2
         AND ($4::bigint IS NULL OR history.slot < $4 OR (history.slot = $4 AND history.signature > $5))
       ORDER BY history.slot DESC, history.signature LIMIT $3`,
      [vault, wallet, limit, before?.slot ?? null, before?.signature ?? null],
    );
    return rows.map(fromRow);
  }
}
