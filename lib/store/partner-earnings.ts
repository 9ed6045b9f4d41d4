// A partner's earnings from the indexer's rows: the PartnerFeePaid events that name it (what the
// program paid, so the figures match the chain), each with the Deposited event of the same deposit
// (the shares it minted), summed per vault and UTC day and per vault over the whole window.
import type { Queryable } from "./db";

export interface PartnerEarningsQuery {
  partner: string;
  vault: string | null;
  /** Epoch milliseconds, inclusive; null: from the first. */
  fromMs: number | null;
  /** Epoch milliseconds, exclusive. */
  toMs: number;
}

/** One vault's sums for one UTC day, or (day null) over the whole window. */
export interface PartnerEarningsRow {
  vault: string;
  /** YYYY-MM-DD (UTC); null for the vault's totals. */
  day: string | null;
  deposits: number;
  /** What the depositors paid in (the fee included). */
  assets: bigint;
  fees: bigint;
  /** Distinct depositors. */
  holders: number;
  /** The shares the attributed deposits minted. */
  shares: bigint;
}

interface Row {
  vault: string;
  day: string | null;
  deposits: string;
  assets: string;
  fees: string;
  holders: string;
  shares: string;
}

export async function partnerEarnings(
  db: Queryable,
  query: PartnerEarningsQuery,
): Promise<PartnerEarningsRow[]> {
  const rows = await db.query<Row>(
    `WITH paid AS (
       SELECT fee.vault, fee.owner, fee.block_time,
         (fee.data->>'assets')::numeric AS assets, (fee.data->>'fee')::numeric AS fee,
         coalesce((
           SELECT (deposited.data->>'shares')::numeric FROM vault_events AS deposited
           WHERE deposited.signature = fee.signature AND deposited.vault = fee.vault
             AND deposited.name = 'Deposited' AND deposited.owner = fee.owner
           ORDER BY abs(deposited.event_index - fee.event_index) LIMIT 1
         ), 0) AS shares
       FROM vault_events AS fee
       WHERE fee.name = 'PartnerFeePaid' AND fee.data->>'partner' = $1
         AND ($2::text IS NULL OR fee.vault = $2)
         AND ($3::timestamptz IS NULL OR fee.block_time >= $3) AND fee.block_time < $4
     )
     SELECT vault, to_char(block_time AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
       count(*)::text AS deposits, sum(assets)::text AS assets, sum(fee)::text AS fees,
       count(DISTINCT owner)::text AS holders, sum(shares)::text AS shares
     FROM paid
     GROUP BY GROUPING SETS ((vault, to_char(block_time AT TIME ZONE 'UTC', 'YYYY-MM-DD')), (vault))
     ORDER BY vault, day NULLS FIRST`,
    [query.partner, query.vault, query.fromMs === null ? null : new Date(query.fromMs), new Date(query.toMs)],
  );
  return rows.map((row) => ({
    vault: row.vault,
    day: row.day,
    deposits: Number(row.deposits),
    assets: BigInt(row.assets),
    fees: BigInt(row.fees),
    holders: Number(row.holders),
    shares: BigInt(row.shares),
  }));
}
