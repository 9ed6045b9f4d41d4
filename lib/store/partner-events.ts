// Partner events as rows: written by the indexer inside the transaction that stores the program events
// they come from (the outbox), fanned out there to one delivery per matching webhook endpoint, and read
// back a page at a time for GET /api/events. A key restricted to vaults or a wallet matches only events
// of those vaults and, when wallet-restricted, only events of that wallet (vault-wide events included
// in none of them). An event that names a partner (partner.fee_paid) is seen only by that partner's
// keys.
import type { PartnerEvent } from "../vault/model/partner-event";
import { NO_PAUSE, pauseOf, type PauseState } from "../vault/model/pause";
import type { Queryable } from "./db";
import { EVENT_COLUMNS, eventFromRow, type EventRow, type StoredEvent } from "./indexer";

/** What an API key may see: null fields mean no restriction. */
export interface EventAudience {
  vaults: readonly string[] | null;
  wallet: string | null;
  /** The key's partner wallet: events that name a partner are seen only by that partner's keys. */
  partner: string | null;
}

export interface StoredPartnerEvent {
  seq: bigint;
  event: PartnerEvent;
}

/** The partner an event is for alone (partner.fee_paid's data.partner); null for everyone's events. */
function partnerOf(event: PartnerEvent): string | null {
  return typeof event.data.partner === "string" ? event.data.partner : null;
}

/**
 * Inserts the events not yet stored (ids are deterministic, so a re-indexed transaction adds nothing)
 * and queues a delivery of each new one to every enabled endpoint subscribed to its type whose key may
 * see it. Returns how many deliveries were queued.
 */
export async function recordPartnerEvents(tx: Queryable, events: readonly PartnerEvent[]): Promise<number> {
  let queued = 0;
  for (const event of events) {
    const [inserted] = await tx.query<{ seq: string }>(
      `INSERT INTO partner_events (id, type, vault, wallet, request_id, signature, slot, occurred_at, payload, partner)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (id) DO NOTHING RETURNING seq::text AS seq`,
      [
        event.id,
        event.type,
        event.vault,
        event.wallet,
        typeof event.data.requestId === "string" ? event.data.requestId : null,
        event.signature,
        event.slot,
        event.timestamp,
        JSON.stringify(event),
        partnerOf(event),
      ],
    );
    if (inserted === undefined) {
      continue;
    }
    const deliveries = await tx.query<{ id: string }>(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, status, next_attempt_at)
       SELECT 'dlv_' || replace(gen_random_uuid()::text, '-', ''), endpoint.id, $1, 'pending', now()
       FROM webhook_endpoints AS endpoint JOIN api_keys AS key ON key.id = endpoint.key_id
       WHERE endpoint.disabled_at IS NULL AND key.revoked_at IS NULL AND $2 = ANY(endpoint.events)
         AND (key.vaults IS NULL OR $3 = ANY(key.vaults))
         AND (key.wallet IS NULL OR key.wallet = $4)
         AND ($5::text IS NULL OR key.partner_wallet = $5)
       ON CONFLICT (endpoint_id, event_seq) DO NOTHING
       RETURNING id`,
      [inserted.seq, event.type, event.vault, event.wallet, partnerOf(event)],
    );
    queued += deliveries.length;
  }
  return queued;
}

/** The vault's pause as its newest ConfigUpdated before `signature` left it (none if none). */
export async function pauseBefore(tx: Queryable, vault: string, signature: string): Promise<PauseState> {
  const [row] = await tx.query<{ data: Record<string, unknown> }>(
    `SELECT data FROM vault_events
     WHERE vault = $1 AND name = 'ConfigUpdated' AND signature <> $2
     ORDER BY slot DESC, signature DESC, event_index DESC LIMIT 1`,
    [vault, signature],
  );
  return row === undefined ? NO_PAUSE : pauseOf(row.data);
}

/**
 * Requests of `vault` that are claimable by the events stored so far — a NAV struck past the request's
 * floor and the queue funded past its end — not claimed, not cancelled, and not yet announced as
 * claimable.
 */
export async function newlyClaimableRequests(tx: Queryable, vault: string): Promise<StoredEvent[]> {
  const rows = await tx.query<EventRow>(
    `WITH nav AS (
       SELECT max((data->>'navSequence')::numeric) AS sequence FROM vault_events WHERE vault = $1 AND name = 'NavUpdated'
     ), funded AS (
       SELECT max((data->>'queueFunded')::numeric) AS queue_funded FROM vault_events
       WHERE vault = $1 AND name = 'WithdrawalsStaged'
     )
     SELECT ${EVENT_COLUMNS} FROM vault_events, nav, funded
     WHERE vault_events.vault = $1 AND vault_events.name = 'WithdrawalRequested'
       AND (vault_events.data->>'navFloor')::numeric < nav.sequence
       AND (vault_events.data->>'queueEnd')::numeric <= funded.queue_funded
       AND NOT EXISTS (
         SELECT 1 FROM vault_events AS ended WHERE ended.vault = $1
           AND ended.name IN ('WithdrawalClaimed', 'WithdrawalCancelled')
           AND ended.request_id = vault_events.request_id
       )
       AND NOT EXISTS (
         SELECT 1 FROM partner_events WHERE partner_events.vault = $1 AND partner_events.type = 'withdrawal.claimable'
           AND partner_events.request_id = vault_events.request_id
       )
     ORDER BY vault_events.request_id`,
    [vault],
  );
  return rows.map(eventFromRow);
}

function audienceFilter(first: number): string {
  return `($${first}::text[] IS NULL OR vault = ANY($${first}::text[]))
    AND ($${first + 1}::text IS NULL OR wallet = $${first + 1})
    AND (partner IS NULL OR partner = $${first + 2}::text)`;
}

function parsePayload(payload: PartnerEvent | string): PartnerEvent {
  return typeof payload === "string" ? (JSON.parse(payload) as PartnerEvent) : payload;
}

/** Events after `after` (a seq), oldest first, that `audience` may see; test events excluded. */
export async function listPartnerEvents(
  db: Queryable,
  options: { after: bigint; limit: number; audience: EventAudience; types: readonly string[] | null },
): Promise<StoredPartnerEvent[]> {
  const rows = await db.query<{ seq: string; payload: PartnerEvent | string }>(
    `SELECT seq::text AS seq, payload FROM partner_events
     WHERE seq > $1 AND test_endpoint IS NULL AND ${audienceFilter(2)}
       AND ($5::text[] IS NULL OR type = ANY($5::text[]))
     ORDER BY partner_events.seq LIMIT $6`,
    [
      options.after.toString(),
      options.audience.vaults === null ? null : [...options.audience.vaults],
      options.audience.wallet,
      options.audience.partner,
      options.types === null ? null : [...options.types],
      options.limit,
    ],
  );
  return rows.map((row) => ({ seq: BigInt(row.seq), event: parsePayload(row.payload) }));
}
