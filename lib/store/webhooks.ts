// Webhook endpoints and their deliveries. Endpoints belong to the API key that created them and are
// only ever found through it. The worker's operations are single statements (a claim is one
// UPDATE … FROM (SELECT … FOR UPDATE SKIP LOCKED)), so they hold on PostgreSQL with any number of
// workers and on PGlite, whose owner serves every process over the Postgres protocol.
import type { PartnerEvent } from "../vault/model/partner-event";
import type { Database } from "./db";

export interface WebhookEndpoint {
  id: string;
  keyId: string;
  url: string;
  events: string[];
  description: string | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type DeliveryStatus = "pending" | "delivering" | "succeeded" | "failed";

export interface WebhookDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

/** A delivery the worker has claimed: everything one attempt needs. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  keyId: string;
  /** The endpoint's consecutive failed attempts before this one (its back-off). */
  endpointFailures: number;
  attempts: number;
  createdAt: Date;
  url: string;
  secrets: string[];
  eventId: string;
  body: string;
}

interface EndpointRow {
  id: string;
  key_id: string;
  url: string;
  events: string[];
  description: string | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

const ENDPOINT_COLUMNS = `id, key_id, url, events, description, disabled_at, disabled_reason, failing_since,
  created_at, updated_at`;

/** A delivery (`due`) the worker may attempt now: pending and due, or leased by a worker whose lease ran out. */
const DUE = `((due.status = 'pending' AND due.next_attempt_at <= now())
  OR (due.status = 'delivering' AND due.locked_until < now()))`;

const dateOrNull = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

function endpointFromRow(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    keyId: row.key_id,
    url: row.url,
    events: [...row.events],
    description: row.description,
    disabledAt: dateOrNull(row.disabled_at),
    disabledReason: row.disabled_reason,
    failingSince: dateOrNull(row.failing_since),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
}

const DELIVERY_COLUMNS = `delivery.id, delivery.endpoint_id, event.id AS event_id, event.type AS event_type,
  delivery.status, delivery.attempts, delivery.last_status_code, delivery.last_error, delivery.next_attempt_at,
  delivery.last_attempt_at, delivery.delivered_at, delivery.created_at`;

function deliveryFromRow(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: Number(row.attempts),
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error,
    nextAttemptAt: dateOrNull(row.next_attempt_at),
    lastAttemptAt: dateOrNull(row.last_attempt_at),
    deliveredAt: dateOrNull(row.delivered_at),
    createdAt: new Date(row.created_at),
  };
}

export interface EndpointChanges {
  url?: string;
  events?: readonly string[];
  description?: string | null;
  /** true re-enables a disabled endpoint (and forgets its failures); false disables it by hand. */
  enabled?: boolean;
}

/**
 * How signing secrets are kept in their columns (lib/webhooks/secret-box.ts seals them with a key from
 * the environment): sealed on write, opened when a delivery needs them.
 */
export interface SecretCodec {
  seal(secret: string): string;
  /** The secret of a stored value (a value written before sealing began is read as it is). */
  open(stored: string): string;
  /** The SQL LIKE pattern of values sealed under the current key. */
  readonly currentPattern: string;
}

export class WebhookStore {
  constructor(
    private readonly db: Pick<Database, "query" | "transaction">,
    private readonly secrets: SecretCodec,
  ) {}

  /**
   * Creates the endpoint unless its key already has `limit` of them (null then). Creations for one key
   * take a transaction lock on it first, so two racing for the last place cannot both pass: the second
   * counts after the first commits.
   */
  async createEndpoint(
    endpoint: {
      id: string;
      keyId: string;
      url: string;
      events: readonly string[];
      description: string | null;
      secret: string;
    },
    limit: number = Number.MAX_SAFE_INTEGER,
  ): Promise<WebhookEndpoint | null> {
    const [row] = await this.db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(hashtext('webhook_endpoints'), hashtext($1))", [
        endpoint.keyId,
      ]);
      return tx.query<EndpointRow>(
        `INSERT INTO webhook_endpoints (id, key_id, url, events, description, secret)
       SELECT $1, $2, $3, $4, $5, $6
       WHERE (SELECT count(*) FROM webhook_endpoints WHERE key_id = $2) < $7
       RETURNING ${ENDPOINT_COLUMNS}`,
        [
          endpoint.id,
          endpoint.keyId,
          endpoint.url,
          [...endpoint.events],
          endpoint.description,
          this.secrets.seal(endpoint.secret),
          limit,
        ],
      );
    });
    return row === undefined ? null : endpointFromRow(row);
  }

  async endpoints(keyId: string): Promise<WebhookEndpoint[]> {
    const rows = await this.db.query<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE key_id = $1 ORDER BY created_at, id`,
      [keyId],
    );
    return rows.map(endpointFromRow);
  }

  async endpoint(keyId: string, id: string): Promise<WebhookEndpoint | null> {
    const [row] = await this.db.query<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE key_id = $1 AND id = $2`,
      [keyId, id],
    );
    return row === undefined ? null : endpointFromRow(row);
  }

  async updateEndpoint(keyId: string, id: string, changes: EndpointChanges): Promise<WebhookEndpoint | null> {
    const [row] = await this.db.query<EndpointRow>(
      `UPDATE webhook_endpoints SET
         url = COALESCE($3, url),
         events = COALESCE($4::text[], events),
         description = CASE WHEN $5 THEN $6 ELSE description END,
         disabled_at = CASE WHEN $7::boolean IS NULL THEN disabled_at WHEN $7 THEN NULL ELSE COALESCE(disabled_at, now()) END,
         disabled_reason = CASE WHEN $7::boolean IS NULL THEN disabled_reason WHEN $7 THEN NULL
           ELSE COALESCE(disabled_reason, 'Disabled by its owner') END,
         failing_since = CASE WHEN $7 THEN NULL ELSE failing_since END,
         failures = CASE WHEN $7 THEN 0 ELSE failures END,
         retry_at = CASE WHEN $7 THEN NULL ELSE retry_at END,
         updated_at = now()
       WHERE key_id = $1 AND id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
      [
        keyId,
        id,
        changes.url ?? null,
        changes.events === undefined ? null : [...changes.events],
        changes.description !== undefined,
        changes.description ?? null,
        changes.enabled ?? null,
      ],
    );
    return row === undefined ? null : endpointFromRow(row);
  }

  async deleteEndpoint(keyId: string, id: string): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      "DELETE FROM webhook_endpoints WHERE key_id = $1 AND id = $2 RETURNING id",
      [keyId, id],
    );
    return rows.length > 0;
  }

  /** The new secret signs from now on; the old one is also used until `previousUntil`. */
  async rotateSecret(keyId: string, id: string, secret: string, previousUntil: Date): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = $4, secret = $3, updated_at = now()
       WHERE key_id = $1 AND id = $2 RETURNING id`,
      [keyId, id, this.secrets.seal(secret), previousUntil],
    );
    return rows.length > 0;
  }

  /** Stores a test event for one endpoint (never listed by GET /api/events) and queues its delivery. */
  async queueTestEvent(endpointId: string, event: PartnerEvent): Promise<string> {
    const [row] = await this.db.query<{ id: string }>(
      `WITH event AS (
         INSERT INTO partner_events (id, type, vault, wallet, signature, slot, occurred_at, payload, test_endpoint)
         VALUES ($1, $2, $3, NULL, NULL, NULL, $4, $5, $6) RETURNING seq
       )
       INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, status, next_attempt_at)
       SELECT 'dlv_' || replace(gen_random_uuid()::text, '-', ''), $6, event.seq, 'pending', now() FROM event
       RETURNING id`,
      [event.id, event.type, event.vault, event.timestamp, JSON.stringify(event), endpointId],
    );
    if (row === undefined) {
      throw new Error("INSERT … RETURNING returned no row");
    }
    return row.id;
  }

  /**
   * Tells the key of a disabled endpoint: one `webhook.disabled` event (never listed by
   * GET /api/events, like a test event) queued to each of the key's other enabled endpoints. The
   * number of deliveries queued (0 when the key has no other).
   */
  async queueDisabledNotice(
    endpointId: string,
    notice: { id: string; timestamp: string; payload: string },
  ): Promise<number> {
    const rows = await this.db.query<{ id: string }>(
      `WITH event AS (
         INSERT INTO partner_events (id, type, vault, occurred_at, payload, test_endpoint)
         VALUES ($2, 'webhook.disabled', '', $3, $4, $1)
         ON CONFLICT (id) DO NOTHING RETURNING seq
       )
       INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, status, next_attempt_at)
       SELECT 'dlv_' || replace(gen_random_uuid()::text, '-', ''), recipient.id, event.seq, 'pending', now()
       FROM event, webhook_endpoints AS recipient
       JOIN webhook_endpoints AS disabled ON disabled.key_id = recipient.key_id
       WHERE disabled.id = $1 AND recipient.id <> $1 AND recipient.disabled_at IS NULL
       RETURNING id`,
      [endpointId, notice.id, notice.timestamp, notice.payload],
    );
    return rows.length;
  }

  /** The endpoint's deliveries, newest first, before the delivery `before` (a page cursor) when given. */
  async deliveries(
    endpointId: string,
    options: { limit: number; before: { createdAt: Date; id: string } | null; status: DeliveryStatus | null },
  ): Promise<WebhookDelivery[]> {
    const rows = await this.db.query<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries AS delivery
       JOIN partner_events AS event ON event.seq = delivery.event_seq
       WHERE delivery.endpoint_id = $1 AND ($2::text IS NULL OR delivery.status = $2)
         AND ($3::timestamptz IS NULL OR (delivery.created_at, delivery.id) < ($3::timestamptz, $4::text))
       ORDER BY delivery.created_at DESC, delivery.id DESC LIMIT $5`,
      [
        endpointId,
        options.status,
        options.before?.createdAt ?? null,
        options.before?.id ?? null,
        options.limit,
      ],
    );
    return rows.map(deliveryFromRow);
  }

  async delivery(endpointId: string, id: string): Promise<WebhookDelivery | null> {
    const [row] = await this.db.query<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries AS delivery
       JOIN partner_events AS event ON event.seq = delivery.event_seq
       WHERE delivery.endpoint_id = $1 AND delivery.id = $2`,
      [endpointId, id],
    );
    return row === undefined ? null : deliveryFromRow(row);
  }

  /** Queues a delivery again now (a delivered one is sent once more; one in flight is left alone). */
  async retryDelivery(endpointId: string, id: string): Promise<WebhookDelivery | null> {
    await this.db.query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), locked_until = NULL
       WHERE endpoint_id = $1 AND id = $2 AND status <> 'delivering'`,
      [endpointId, id],
    );
    return this.delivery(endpointId, id);
  }

  /**
   * Seals every secret not sealed under the current key: rows written before encryption, and rows
   * sealed under a previous key after a rotation. Each row is rewritten only if it did not change
   * meanwhile; the number rewritten.
   */
  async sealSecrets(): Promise<number> {
    const rows = await this.db.query<{ id: string; secret: string; previous_secret: string | null }>(
      `SELECT id, secret, previous_secret FROM webhook_endpoints
       WHERE secret NOT LIKE $1 OR (previous_secret IS NOT NULL AND previous_secret NOT LIKE $1)`,
      [this.secrets.currentPattern],
    );
    let sealed = 0;
    for (const row of rows) {
      let secret: string;
      let previous: string | null;
      try {
        secret = this.secrets.seal(this.secrets.open(row.secret));
        previous =
          row.previous_secret === null ? null : this.secrets.seal(this.secrets.open(row.previous_secret));
      } catch {
        // Sealed under a key not configured: left as it is (its deliveries say so in the log).
        continue;
      }
      const updated = await this.db.query<{ id: string }>(
        `UPDATE webhook_endpoints SET secret = $2, previous_secret = $3
         WHERE id = $1 AND secret = $4 AND previous_secret IS NOT DISTINCT FROM $5 RETURNING id`,
        [row.id, secret, previous, row.secret, row.previous_secret],
      );
      sealed += updated.length;
    }
    return sealed;
  }

  /**
   * Claims up to `limit` due deliveries of enabled endpoints of unrevoked keys — pending ones whose
   * time has come, and those whose worker's lease ran out (it died mid-attempt) — counting the attempt
   * and leasing them for `leaseMs`. Fairly: an endpoint in back-off (retry_at) is skipped, an endpoint
   * has at most `perEndpoint` and a key at most `perKey` deliveries in flight (leased, across every
   * worker), and the claim goes round the keys (each key's first due delivery, then each key's
   * second, …) and, inside a key, round its endpoints, oldest event first. One key's many slow
   * endpoints therefore hold at most `perKey` attempts, and another key's due delivery is among the
   * first claimed. Its cost follows the endpoints that may take more, not the backlog: a key or an
   * endpoint at its limit is not read, and of the others only the first due delivery each, and the
   * following ones only for a key with fewer idle endpoints due than it may take (PGlite runs the claim
   * on the worker's own event loop).
   */
  async claimDue(
    limit: number,
    leaseMs: number,
    fairness: { perEndpoint: number; perKey: number } = {
      perEndpoint: Number.MAX_SAFE_INTEGER,
      perKey: Number.MAX_SAFE_INTEGER,
    },
  ): Promise<ClaimedDelivery[]> {
    if (limit <= 0) {
      return [];
    }
    const rows = await this.db.query<{
      id: string;
      endpoint_id: string;
      key_id: string;
      failures: number;
      attempts: number;
      created_at: Date;
      url: string;
      secret: string;
      previous_secret: string | null;
      event_id: string;
      payload: string;
    }>(
      `WITH leased AS (
         -- What is in flight, counted once: the leased rows are few (the workers' slots).
         SELECT leased.endpoint_id, count(*) AS n FROM webhook_deliveries AS leased
         WHERE leased.status = 'delivering' AND leased.locked_until >= now() GROUP BY leased.endpoint_id
       ), key_busy AS (
         SELECT endpoint.key_id, sum(leased.n)::bigint AS n FROM leased
         JOIN webhook_endpoints AS endpoint ON endpoint.id = leased.endpoint_id GROUP BY endpoint.key_id
       ), open_endpoint AS (
         -- Endpoints that may take more: a key or an endpoint at its limit is not read at all.
         SELECT endpoint.id, endpoint.key_id, COALESCE(leased.n, 0) AS busy, COALESCE(key_busy.n, 0) AS key_busy
         FROM webhook_endpoints AS endpoint JOIN api_keys AS key ON key.id = endpoint.key_id
         LEFT JOIN leased ON leased.endpoint_id = endpoint.id
         LEFT JOIN key_busy ON key_busy.key_id = endpoint.key_id
         WHERE endpoint.disabled_at IS NULL AND key.revoked_at IS NULL
           AND (endpoint.retry_at IS NULL OR endpoint.retry_at <= now())
           AND COALESCE(leased.n, 0) < $3::bigint AND COALESCE(key_busy.n, 0) < $4::bigint
       ), first_due AS (
         -- Each endpoint's oldest due delivery, read from the index of open rows (never the log).
         SELECT open_endpoint.id AS endpoint_id, open_endpoint.key_id, open_endpoint.busy, open_endpoint.key_busy,
           first.id, first.event_seq
         FROM open_endpoint CROSS JOIN LATERAL (
           SELECT due.id, due.event_seq FROM webhook_deliveries AS due
           WHERE due.endpoint_id = open_endpoint.id AND due.status IN ('pending', 'delivering') AND ${DUE}
           ORDER BY due.event_seq LIMIT 1
         ) AS first
       ), crowded_key AS (
         -- A key with at least as many idle endpoints with a delivery due as it (or the claim) can take:
         -- their first deliveries rank before any endpoint's second, so no second one is read.
         SELECT first_due.key_id FROM first_due GROUP BY first_due.key_id, first_due.key_busy
         HAVING count(*) FILTER (WHERE first_due.busy = 0) >= LEAST($4::bigint - first_due.key_busy, $1::bigint)
       ), candidate AS (
         SELECT first_due.endpoint_id, first_due.key_id, first_due.busy, first_due.key_busy, first_due.id,
           first_due.event_seq
         FROM first_due
         UNION ALL
         -- The following ones of the other keys' endpoints, no more than the endpoint, its key or the
         -- claim could take: a delivery past that would rank beyond the limits below.
         SELECT first_due.endpoint_id, first_due.key_id, first_due.busy, first_due.key_busy, later.id,
           later.event_seq
         FROM first_due CROSS JOIN LATERAL (
           SELECT due.id, due.event_seq FROM webhook_deliveries AS due
           WHERE due.endpoint_id = first_due.endpoint_id AND due.status IN ('pending', 'delivering') AND ${DUE}
             AND due.event_seq > first_due.event_seq
           ORDER BY due.event_seq
           LIMIT LEAST($3::bigint - first_due.busy, $4::bigint - first_due.key_busy, $1::bigint) - 1
         ) AS later
         WHERE first_due.key_id NOT IN (SELECT crowded_key.key_id FROM crowded_key)
       ), by_endpoint AS (
         SELECT candidate.id, candidate.event_seq, candidate.key_id, candidate.key_busy,
           row_number() OVER (PARTITION BY candidate.endpoint_id ORDER BY candidate.event_seq) + candidate.busy
             AS endpoint_rank
         FROM candidate
       ), by_key AS (
         SELECT by_endpoint.id, by_endpoint.event_seq, by_endpoint.endpoint_rank,
           row_number() OVER (PARTITION BY by_endpoint.key_id ORDER BY by_endpoint.endpoint_rank, by_endpoint.event_seq)
             + by_endpoint.key_busy AS key_rank
         FROM by_endpoint
       ), chosen AS (
         SELECT by_key.id FROM by_key WHERE by_key.key_rank <= $4::bigint
         ORDER BY by_key.key_rank, by_key.endpoint_rank, by_key.event_seq LIMIT $1
       ), due AS (
         SELECT due.id FROM webhook_deliveries AS due
         WHERE due.id IN (SELECT chosen.id FROM chosen) AND ${DUE}
         FOR UPDATE SKIP LOCKED
       )
       UPDATE webhook_deliveries AS delivery
       SET status = 'delivering', attempts = delivery.attempts + 1, last_attempt_at = now(),
         locked_until = now() + $2 * interval '1 millisecond'
       FROM due, webhook_endpoints AS endpoint, partner_events AS event
       WHERE delivery.id = due.id AND endpoint.id = delivery.endpoint_id AND event.seq = delivery.event_seq
       RETURNING delivery.id, delivery.endpoint_id, endpoint.key_id, endpoint.failures, delivery.attempts,
         delivery.created_at, endpoint.url, endpoint.secret,
         CASE WHEN endpoint.previous_secret_until > now() THEN endpoint.previous_secret END AS previous_secret,
         event.id AS event_id, event.payload`,
      [limit, leaseMs, fairness.perEndpoint, fairness.perKey],
    );
    return rows.map((row) => ({
      id: row.id,
      endpointId: row.endpoint_id,
      keyId: row.key_id,
      endpointFailures: Number(row.failures),
      attempts: Number(row.attempts),
      createdAt: new Date(row.created_at),
      url: row.url,
      secrets: [row.secret, ...(row.previous_secret === null ? [] : [row.previous_secret])].map((stored) =>
        this.secrets.open(stored),
      ),
      eventId: row.event_id,
      body: row.payload,
    }));
  }

  /** Records successful attempts, a batch in one statement; their endpoints are failing no more. */
  async markSucceeded(successes: readonly { id: string; statusCode: number }[]): Promise<void> {
    if (successes.length === 0) {
      return;
    }
    await this.db.query(
      `WITH done AS (
         UPDATE webhook_deliveries AS delivery SET status = 'succeeded', last_status_code = result.code,
           last_error = NULL, delivered_at = now(), next_attempt_at = NULL, locked_until = NULL
         FROM unnest($1::text[], $2::int[]) AS result(id, code)
         WHERE delivery.id = result.id RETURNING delivery.endpoint_id
       )
       UPDATE webhook_endpoints SET failing_since = NULL, failures = 0, retry_at = NULL
       WHERE webhook_endpoints.id IN (SELECT endpoint_id FROM done)
         AND (webhook_endpoints.failing_since IS NOT NULL OR webhook_endpoints.failures > 0)`,
      [successes.map((success) => success.id), successes.map((success) => success.statusCode)],
    );
  }

  /**
   * Records a failed attempt: retried at `nextAttemptAt`, or given up (failed) when null. The endpoint
   * is noted as failing since now unless it already was; when a delivery is given up and nothing was
   * delivered to the endpoint since that delivery was queued (it failed throughout the retry window),
   * the endpoint is disabled with the reason.
   */
  async markFailed(
    id: string,
    failure: {
      statusCode: number | null;
      error: string;
      nextAttemptAt: Date | null;
      /** Until when the endpoint is left alone (its back-off); null: not at all. */
      endpointRetryAt?: Date | null;
    },
  ): Promise<{
    disabled: boolean;
    endpointId: string | null;
    keyId: string | null;
    reason: string | null;
    disabledAt: Date | null;
  }> {
    const rows = await this.db.query<{
      disabled: boolean;
      disabled_now: boolean;
      endpoint_id: string;
      key_id: string;
      disabled_reason: string | null;
      disabled_at: Date | null;
    }>(
      `WITH failed AS (
         UPDATE webhook_deliveries SET status = CASE WHEN $4::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
           last_status_code = $2, last_error = $3, next_attempt_at = $4, locked_until = NULL
         WHERE id = $1 RETURNING endpoint_id, created_at
       ), verdict AS (
         SELECT failed.endpoint_id, ($4::timestamptz IS NULL AND NOT EXISTS (
           SELECT 1 FROM webhook_deliveries AS delivered
           WHERE delivered.endpoint_id = failed.endpoint_id AND delivered.delivered_at >= failed.created_at
         )) AS disable
         FROM failed
       )
       UPDATE webhook_endpoints SET
         failing_since = COALESCE(failing_since, now()),
         failures = failures + 1,
         retry_at = $5,
         disabled_at = CASE WHEN verdict.disable THEN COALESCE(disabled_at, now()) ELSE disabled_at END,
         disabled_reason = CASE WHEN verdict.disable
           THEN COALESCE(disabled_reason, 'Every delivery failed since '
             || to_char(COALESCE(failing_since, now()) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '; the last: ' || $3)
           ELSE disabled_reason END
       FROM verdict WHERE webhook_endpoints.id = verdict.endpoint_id
       RETURNING webhook_endpoints.disabled_at IS NOT NULL AS disabled,
         (verdict.disable AND webhook_endpoints.disabled_at = now()) AS disabled_now,
         webhook_endpoints.id AS endpoint_id, webhook_endpoints.key_id, webhook_endpoints.disabled_reason,
         webhook_endpoints.disabled_at`,
      [id, failure.statusCode, failure.error, failure.nextAttemptAt, failure.endpointRetryAt ?? null],
    );
    const row = rows[0];
    return {
      disabled: row?.disabled === true,
      // Only the attempt that disabled it reports the endpoint (for the log and the partner event).
      endpointId: row?.disabled_now === true ? row.endpoint_id : null,
      keyId: row?.disabled_now === true ? row.key_id : null,
      reason: row?.disabled_now === true ? row.disabled_reason : null,
      disabledAt: row?.disabled_now === true ? dateOrNull(row.disabled_at) : null,
    };
  }

  /**
   * Deletes finished deliveries (succeeded or given up) created before `before`, at most `limit` in
   * one statement, and test events left without a delivery; the number of deliveries deleted.
   */
  async pruneDeliveries(before: Date, limit: number): Promise<number> {
    const rows = await this.db.query<{ id: string }>(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries WHERE status IN ('succeeded', 'failed') AND created_at < $1 LIMIT $2
       ) RETURNING id`,
      [before, limit],
    );
    await this.db.query(
      `DELETE FROM partner_events AS event WHERE event.test_endpoint IS NOT NULL AND event.occurred_at < $1
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries AS delivery WHERE delivery.event_seq = event.seq)`,
      [before],
    );
    return rows.length;
  }
}
