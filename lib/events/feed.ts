// The live partner-event feed behind the pages' event stream (GET /api/events/stream): one reader per
// context follows the partner_events table with a cursor and hands each new row to the subscribers
// whose vault (and wallet) it concerns. The indexer wakes it when it commits events in this process,
// and over PostgreSQL announces them to the other instances' feeds (LISTEN/NOTIFY,
// lib/store/notify.ts), so a page connected to any instance gets them at once; it also reads every
// `pollMs` while anyone listens, which covers a notification lost while the listener reconnects. A
// subscriber may start after a seq it already has (Last-Event-ID): it is first sent what it missed,
// in order, and then the live rows, with nothing lost or repeated in between.
import type { Queryable } from "../store/db";
import { listPartnerEvents, type StoredPartnerEvent } from "../store/partner-events";

export interface FeedFilter {
  vault: string;
  /** Null: the vault-wide events only (a page without a connected wallet). */
  wallet: string | null;
}

/** An event concerns a subscriber when it is of its vault and either vault-wide or of its wallet. */
export function concerns(filter: FeedFilter, entry: StoredPartnerEvent): boolean {
  const { event } = entry;
  return event.vault === filter.vault && (event.wallet === null || event.wallet === filter.wallet);
}

export interface FeedOptions {
  /** Milliseconds between reads while someone listens (other instances' events). */
  pollMs?: number;
  /** Rows read per query. */
  pageSize?: number;
  onError?: (error: unknown) => void;
  /**
   * Hears other instances announce new events while anyone listens (PostgreSQL LISTEN): called with
   * the feed's wake when the first subscriber comes, its result when the last one leaves.
   */
  listen?: (wake: () => void) => () => void;
  /** Tells the other instances' feeds that this process committed events (PostgreSQL NOTIFY). */
  announce?: () => void;
}

interface Subscriber {
  filter: FeedFilter;
  deliver(entry: StoredPartnerEvent): void;
  /** The last seq this subscriber has (or is owed from); null: from whatever is newest when it joins. */
  after: bigint | null;
  caughtUp: boolean;
}

export class PartnerEventFeed {
  private readonly subscribers = new Set<Subscriber>();
  private cursor: bigint | null = null;
  private pass: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopListening: (() => void) | null = null;
  private readonly pollMs: number;
  private readonly pageSize: number;

  constructor(
    private readonly db: Queryable,
    private readonly options: FeedOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 1_000;
    this.pageSize = options.pageSize ?? 500;
  }

  get listeners(): number {
    return this.subscribers.size;
  }

  /**
   * Sends `deliver` every event after `after` (null: from now on) that concerns `filter`, oldest
   * first; returns the function that stops it.
   */
  subscribe(
    filter: FeedFilter,
    after: bigint | null,
    deliver: (entry: StoredPartnerEvent) => void,
  ): () => void {
    const subscriber: Subscriber = { filter, deliver, after, caughtUp: false };
    this.subscribers.add(subscriber);
    this.stopListening ??= this.options.listen?.(() => this.wake()) ?? null;
    this.wake();
    return () => {
      this.subscribers.delete(subscriber);
      if (this.subscribers.size === 0) {
        this.stopTimer();
        this.unlisten();
        // Nobody listens: the next subscriber starts from the table's newest row again.
        this.cursor = null;
      }
    };
  }

  /** This process's indexer committed events: read now, and tell the other instances. */
  recorded(): void {
    this.wake();
    this.options.announce?.();
  }

  /** Reads now (events were committed); a read under way is followed by one more. */
  wake(): void {
    if (this.subscribers.size === 0) {
      return;
    }
    if (this.pass !== null) {
      this.again = true;
      return;
    }
    this.stopTimer();
    this.pass = this.read()
      .catch((error: unknown) => this.options.onError?.(error))
      .finally(() => {
        this.pass = null;
        if (this.again) {
          this.again = false;
          this.wake();
        } else if (this.subscribers.size > 0) {
          this.timer = setTimeout(() => {
            this.timer = null;
            this.wake();
          }, this.pollMs);
          this.timer.unref();
        }
      });
  }

  /** Resolves when no read is under way (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pass !== null) {
      await this.pass;
    }
  }

  close(): void {
    this.subscribers.clear();
    this.stopTimer();
    this.unlisten();
    this.cursor = null;
  }

  private unlisten(): void {
    this.stopListening?.();
    this.stopListening = null;
  }

  private stopTimer(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
  }

  private async newestSeq(): Promise<bigint> {
    const [row] = await this.db.query<{ seq: string | null }>(
      "SELECT max(seq)::text AS seq FROM partner_events",
    );
    return row?.seq === null || row?.seq === undefined ? 0n : BigInt(row.seq);
  }

  private async read(): Promise<void> {
    this.cursor ??= await this.newestSeq();
    const cursor = this.cursor;
    // Newcomers first: what they are owed up to the cursor, read for their vault alone.
    for (const subscriber of [...this.subscribers]) {
      if (!subscriber.caughtUp) {
        await this.catchUp(subscriber, cursor);
      }
    }
    for (;;) {
      const page = await listPartnerEvents(this.db, {
        after: this.cursor,
        limit: this.pageSize,
        // The pages see no partner's own events (partner.fee_paid).
        audience: { vaults: null, wallet: null, partner: null },
        types: null,
      });
      for (const entry of page) {
        for (const subscriber of this.subscribers) {
          // A subscriber past the cursor (it named a later id) gets only what follows that id.
          const owed = subscriber.after === null || entry.seq > subscriber.after;
          if (subscriber.caughtUp && owed && concerns(subscriber.filter, entry)) {
            subscriber.deliver(entry);
          }
        }
        this.cursor = entry.seq;
      }
      if (page.length < this.pageSize) {
        return;
      }
    }
  }

  private async catchUp(subscriber: Subscriber, cursor: bigint): Promise<void> {
    let after = subscriber.after ?? cursor;
    while (after < cursor && this.subscribers.has(subscriber)) {
      const page = await listPartnerEvents(this.db, {
        after,
        limit: this.pageSize,
        audience: { vaults: [subscriber.filter.vault], wallet: null, partner: null },
        types: null,
      });
      for (const entry of page) {
        if (entry.seq > cursor) {
          break;
        }
        if (concerns(subscriber.filter, entry)) {
          subscriber.deliver(entry);
        }
      }
      after = page.at(-1)?.seq ?? cursor;
      if (page.length < this.pageSize) {
        break;
      }
    }
    subscriber.caughtUp = true;
  }
}
