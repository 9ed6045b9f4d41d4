// PostgreSQL LISTEN/NOTIFY between the instances over one database: the indexer's leader announces
// that it committed partner events, and every instance's live feed reads at once instead of at its
// next poll. A listener holds a connection of its own, only while someone listens, and reconnects by
// itself (a restarted PostgreSQL); a notification lost meanwhile costs one poll interval, no event.
import pg from "pg";

import type { Queryable } from "./db";

/** The channel of one schema's partner events (tests keep theirs apart by schema). */
export function partnerEventsChannel(schema: string | undefined): string {
  return `vault_gateway_partner_events:${schema ?? "public"}`;
}

/** Tells every listener on `channel`; delivered when the statement's transaction commits. */
export async function notify(db: Queryable, channel: string): Promise<void> {
  await db.query("SELECT pg_notify($1, '')", [channel]);
}

export interface ListenOptions {
  url: string;
  channel: string;
  /** Called on each notification, and once after each (re)connection (what came meanwhile). */
  onNotify: () => void;
  onError?: (error: unknown) => void;
  /** Milliseconds between reconnection attempts (default 1000). */
  retryMs?: number;
}

/** Listens until the returned function is called. */
export function listen(options: ListenOptions): () => void {
  const retryMs = options.retryMs ?? 1_000;
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;

  const schedule = (): void => {
    if (!stopped && retry === null) {
      retry = setTimeout(() => {
        retry = null;
        void connect();
      }, retryMs);
      retry.unref();
    }
  };

  const connect = async (): Promise<void> => {
    const fresh = new pg.Client({ connectionString: options.url, connectionTimeoutMillis: 5_000 });
    client = fresh;
    const lost = (error?: unknown): void => {
      if (client === fresh) {
        client = null;
        if (error !== undefined) {
          options.onError?.(error);
        }
        fresh.end().catch(() => undefined);
        schedule();
      }
    };
    fresh.on("error", lost);
    fresh.on("end", () => lost());
    fresh.on("notification", (message) => {
      if (message.channel === options.channel) {
        options.onNotify();
      }
    });
    try {
      await fresh.connect();
      await fresh.query(`LISTEN "${options.channel.replaceAll('"', '""')}"`);
      if (stopped) {
        await fresh.end();
        return;
      }
      options.onNotify();
    } catch (error) {
      lost(error);
    }
  };

  void connect();
  return () => {
    stopped = true;
    if (retry !== null) {
      clearTimeout(retry);
      retry = null;
    }
    const closing = client;
    client = null;
    closing?.end().catch(() => undefined);
  };
}
