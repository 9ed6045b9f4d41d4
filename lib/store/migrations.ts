// The schema, as ordered SQL migrations. Each runs once, in a transaction, under an advisory lock so
// instances booting together do not race; applied ids are kept in schema_migrations.
import { quoteIdentifier, type Database } from "./db";

export interface Migration {
  id: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    id: "0001_api_keys",
    sql: `
      CREATE TABLE api_keys (
        id            text PRIMARY KEY,
        name          text NOT NULL,
        key_prefix    text NOT NULL,
        key_hash      text NOT NULL UNIQUE,
        scope         text NOT NULL CHECK (scope IN ('read', 'write')),
        vaults        text[],
        wallet        text,
        rpm           integer NOT NULL CHECK (rpm > 0),
        created_at    timestamptz NOT NULL DEFAULT now(),
        revoked_at    timestamptz,
        last_used_at  timestamptz
      );
    `,
  },
  {
    id: "0002_history",
    sql: `
      CREATE TABLE history (
        signature    text PRIMARY KEY,
        wallet       text NOT NULL,
        vault        text NOT NULL,
        kind         text NOT NULL CHECK (kind IN ('deposit', 'initiate', 'claim')),
        request_id   numeric(20, 0),
        assets       numeric(20, 0) NOT NULL,
        shares       numeric(20, 0) NOT NULL,
        fee          numeric(20, 0),
        asset_mint   text NOT NULL,
        share_mint   text NOT NULL,
        decimals     integer NOT NULL,
        slot         bigint NOT NULL,
        block_time   timestamptz,
        recorded_at  timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX history_wallet_vault ON history (vault, wallet, slot DESC);
      CREATE INDEX history_initiates ON history (vault, wallet, request_id) WHERE kind = 'initiate';
    `,
  },
  {
    // The indexer's tables (lib/indexer): each vault account as last read, NAV/supply/queue snapshots
    // (scheduled, and one per NavUpdated event so a NAV series survives downtime), every program event
    // once, and per vault the newest signature whose events are stored.
    id: "0003_indexer",
    sql: `
      CREATE TABLE indexed_vaults (
        vault           text PRIMARY KEY,
        slot            bigint NOT NULL,
        account_data    text NOT NULL,
        reserve_balance numeric(20, 0) NOT NULL,
        holders         integer NOT NULL,
        updated_at      timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE vault_snapshots (
        vault           text NOT NULL,
        source          text NOT NULL CHECK (source IN ('schedule', 'event')),
        slot            bigint NOT NULL,
        taken_at        timestamptz NOT NULL,
        nav_sequence    numeric(20, 0) NOT NULL,
        nav_updated_at  timestamptz,
        total_assets    numeric(20, 0) NOT NULL,
        total_shares    numeric(20, 0) NOT NULL,
        queue_tail      numeric(20, 0),
        queue_funded    numeric(20, 0),
        queue_claimed   numeric(20, 0),
        reserve_balance numeric(20, 0),
        PRIMARY KEY (vault, source, slot)
      );
      CREATE INDEX vault_snapshots_time ON vault_snapshots (vault, taken_at DESC);
      CREATE TABLE vault_events (
        signature    text NOT NULL,
        event_index  integer NOT NULL,
        vault        text NOT NULL,
        name         text NOT NULL,
        owner        text,
        request_id   numeric(20, 0),
        slot         bigint NOT NULL,
        block_time   timestamptz,
        data         jsonb NOT NULL,
        PRIMARY KEY (signature, event_index)
      );
      CREATE INDEX vault_events_vault ON vault_events (vault, slot DESC);
      CREATE INDEX vault_events_owner ON vault_events (vault, owner, slot DESC) WHERE owner IS NOT NULL;
      CREATE TABLE indexer_cursors (
        vault       text PRIMARY KEY,
        signature   text NOT NULL,
        slot        bigint NOT NULL,
        updated_at  timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    // The series and statistics reads look up one source's snapshots by time (nav-history and the
    // position histories want the NAV strike before each point, which the scheduled snapshots every
    // few seconds would otherwise bury) and one kind of event by slot (the time to claimable).
    id: "0004_read_indexes",
    sql: `
      CREATE INDEX vault_snapshots_source_time ON vault_snapshots (vault, source, taken_at DESC);
      CREATE INDEX vault_events_name ON vault_events (vault, name, slot);
    `,
  },
  {
    // One row per vault event of a transaction (a claim and a new request can share one), numbered as
    // the indexer numbers them. Rows stored before get -1: each was its wallet's first event on its
    // vault in that transaction, and is renumbered when the signature is posted again.
    id: "0005_history_events",
    sql: `
      ALTER TABLE history ADD COLUMN event_index integer NOT NULL DEFAULT -1;
      ALTER TABLE history ALTER COLUMN event_index DROP DEFAULT;
      ALTER TABLE history DROP CONSTRAINT history_pkey;
      ALTER TABLE history ADD PRIMARY KEY (signature, event_index);
      `,
  },
  {
    // The chain the indexer's rows were read from, by its genesis hash: a chain with another genesis (a
    // local chain restarted with a fresh ledger) is a new chain, and the rows of the previous one are
    // deleted before it is indexed (SqlIndexerStore.startChain).
    id: "0006_indexed_chain",
    sql: `
      CREATE TABLE indexed_chain (
        singleton    boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        genesis_hash text NOT NULL,
        recorded_at  timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    // Partner events (lib/events) written by the indexer in the transaction of the rows they come
    // from; webhook endpoints under a partner key; and one delivery row per (event, endpoint), which is
    // both the outbox the worker claims (FOR UPDATE SKIP LOCKED) and the log partners read.
    id: "0008_events_webhooks",
    sql: `
      CREATE TABLE partner_events (
        seq          bigserial PRIMARY KEY,
        id           text NOT NULL UNIQUE,
        type         text NOT NULL,
        vault        text NOT NULL,
        wallet       text,
        request_id   numeric(20, 0),
        signature    text,
        slot         bigint,
        occurred_at  timestamptz NOT NULL,
        payload      text NOT NULL,
        test_endpoint text,
        created_at   timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX partner_events_vault ON partner_events (vault, seq);
      CREATE INDEX partner_events_claimable ON partner_events (vault, request_id) WHERE type = 'withdrawal.claimable';
      CREATE TABLE webhook_endpoints (
        id                    text PRIMARY KEY,
        key_id                text NOT NULL REFERENCES api_keys (id),
        url                   text NOT NULL,
        events                text[] NOT NULL,
        description           text,
        secret                text NOT NULL,
        previous_secret       text,
        previous_secret_until timestamptz,
        failing_since         timestamptz,
        disabled_at           timestamptz,
        disabled_reason       text,
        created_at            timestamptz NOT NULL DEFAULT now(),
        updated_at            timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX webhook_endpoints_key ON webhook_endpoints (key_id);
      CREATE TABLE webhook_deliveries (
        id               text PRIMARY KEY,
        endpoint_id      text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        event_seq        bigint NOT NULL REFERENCES partner_events (seq),
        status           text NOT NULL CHECK (status IN ('pending', 'delivering', 'succeeded', 'failed')),
        attempts         integer NOT NULL DEFAULT 0,
        last_status_code integer,
        last_error       text,
        next_attempt_at  timestamptz,
        locked_until     timestamptz,
        last_attempt_at  timestamptz,
        delivered_at     timestamptz,
        created_at       timestamptz NOT NULL DEFAULT now(),
        UNIQUE (endpoint_id, event_seq)
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (locked_until) WHERE status = 'delivering';
      CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC);
    `,
  },
  {
    // The delivery log and disable reasons say why an attempt failed in four words (or the HTTP
    // status, or a refused target without the addresses a name resolved to): rows written before say
    // so too, instead of the socket's message.
    id: "0009_delivery_errors_in_words",
    sql: `
  UPDATE webhook_deliveries SET last_error = CASE
      WHEN last_error LIKE 'No response within%' THEN 'timeout'
      WHEN last_error LIKE 'Refused target:%' THEN regexp_replace(last_error, ' resolves to .* is a ', ' resolves to a ')
      ELSE 'connection refused' END
    WHERE last_error IS NOT NULL AND last_error NOT LIKE 'HTTP %'
      AND last_error NOT IN ('connection refused', 'timeout', 'TLS error', 'DNS error');
  UPDATE webhook_endpoints SET disabled_reason = regexp_replace(disabled_reason, '; the last: .*$', '; the last: '
      || CASE WHEN disabled_reason ~ '; the last: No response within' THEN 'timeout'
        WHEN disabled_reason ~ '; the last: Refused target:' THEN 'Refused target'
        ELSE 'connection refused' END)
    WHERE disabled_reason ~ '; the last: '
      AND disabled_reason !~ '; the last: (HTTP [0-9]+.*|connection refused|timeout|TLS error|DNS error)$';
`,
  },
  {
    // Per-endpoint back-off: a failing endpoint is left alone until retry_at (its consecutive
    // failures double the wait), so a dead or slow one costs the worker one attempt per wait. The
    // claim ranks due deliveries per endpoint and per key, and the pruning reads finished rows by age.
    id: "0010_webhook_fairness",
    sql: `
      ALTER TABLE webhook_endpoints ADD COLUMN failures integer NOT NULL DEFAULT 0;
      ALTER TABLE webhook_endpoints ADD COLUMN retry_at timestamptz;
      CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (created_at) WHERE status IN ('succeeded', 'failed');
    `,
  },
  {
    // The claim reads each endpoint's oldest open deliveries through this index, never its log.
    id: "0011_webhook_open_deliveries",
    sql: `
      CREATE INDEX webhook_deliveries_open ON webhook_deliveries (endpoint_id, event_seq)
        WHERE status IN ('pending', 'delivering');
    `,
  },
  {
    // Secrets every instance over this database must agree on without an operator setting them: the
    // page sessions' HMAC key when neither SESSION_SECRET nor FIRST_PARTY_API_KEY is set (the first
    // instance to boot writes it, the others read it), so a session issued by one is accepted by all.
    id: "0012_shared_secrets",
    sql: `
      CREATE TABLE shared_secrets (
        name        text PRIMARY KEY,
        value       text NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    // A pending request cancelled by its owner is recorded as history too (issue 21 item 3).
    id: "0013_history_cancel",
    sql: `
      ALTER TABLE history DROP CONSTRAINT history_kind_check;
      ALTER TABLE history ADD CONSTRAINT history_kind_check
        CHECK (kind IN ('deposit', 'initiate', 'claim', 'cancel'));
    `,
  },
  {
    // A claim its owner did not send (the keeper, or anyone: the program's claim is permissionless)
    // is recorded by the indexer, with who sent it: the transaction's fee payer (issue 29 item 4).
    // Rows before it are the owners' own: null.
    id: "0014_history_delivered_by",
    sql: `
      ALTER TABLE history ADD COLUMN delivered_by text;
    `,
  },
  {
    // A key may carry a partner: the wallet its deposits' partner fee is paid to and the fee in bps
    // (both or neither; 1 to the program's ceiling of 500 bps, the protocol's own maximum checked when
    // the key is made). A partner event that names a partner (partner.fee_paid) is that partner's
    // alone; earnings are read from the indexed PartnerFeePaid events by partner (issue 32).
    id: "0015_key_partner",
    sql: `
      ALTER TABLE api_keys ADD COLUMN partner_wallet text;
      ALTER TABLE api_keys ADD COLUMN partner_fee_bps integer;
      ALTER TABLE api_keys ADD CONSTRAINT api_keys_partner_check CHECK (
        (partner_wallet IS NULL) = (partner_fee_bps IS NULL)
        AND (partner_fee_bps IS NULL OR partner_fee_bps BETWEEN 1 AND 500)
      );
      ALTER TABLE partner_events ADD COLUMN partner text;
      CREATE INDEX vault_events_partner_fee ON vault_events ((data->>'partner'), block_time)
        WHERE name = 'PartnerFeePaid';
    `,
  },
];

const LOCK_ID = 726_351_001;

/** Applies the migrations not applied yet (`migrations`: all of them, or a prefix in tests). */
export async function migrate(
  db: Database,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<string[]> {
  if (db.schema !== undefined) {
    await db.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(db.schema)}`);
  }
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [LOCK_ID]);
    await tx.query(
      "CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    const applied = new Set(
      (await tx.query<{ id: string }>("SELECT id FROM schema_migrations")).map((row) => row.id),
    );
    const ran: string[] = [];
    for (const migration of migrations) {
      if (!applied.has(migration.id)) {
        for (const statement of migration.sql.split(/;\s*$/m).map((part) => part.trim())) {
          if (statement !== "") {
            await tx.query(statement);
          }
        }
        await tx.query("INSERT INTO schema_migrations (id) VALUES ($1)", [migration.id]);
        ran.push(migration.id);
      }
    }
    return ran;
  });
}
