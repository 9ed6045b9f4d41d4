// The delivery worker: claims due deliveries from the outbox (lib/store/webhooks.ts), attempts each
// (deliver.ts) and records the outcome. Its state is the rows: a worker killed mid-attempt leaves its
// deliveries leased, and when the lease runs out any worker (this one restarted, or another instance's)
// attempts them again under the same webhook-id — at least once, duplicates possible. Failures are
// retried with exponential backoff and jitter until a delivery is `retryWindowMs` old (24 h); an
// endpoint that fails throughout that window is disabled with the reason.
//
// Fair and bounded: `concurrency` attempts run at once, each in a slot of its own, so a slow attempt
// holds one slot for at most `timeoutMs` and never the others; a slot that frees is refilled at once.
// The claim goes round the keys and their endpoints (claimDue), caps what one key (`keyConcurrency`, a
// quarter of the slots) and one endpoint (`endpointConcurrency`, by default its key's whole share)
// have in flight, and skips an endpoint in back-off: each failed attempt doubles the endpoint's wait
// (from `backoffBaseMs` to `backoffMaxMs`), so a dead endpoint costs one attempt per wait. Successes
// are recorded together before each claim. Finished deliveries older than `retentionMs` are deleted
// every `pruneEveryMs`.
import { createHash } from "node:crypto";

import type { WebhookStore, ClaimedDelivery } from "../store/webhooks";
import { attemptDelivery, connectionFailure, type AttemptResult } from "./deliver";
import type { TargetChecker } from "./target";

export interface WebhookWorkerOptions {
  store: WebhookStore;
  checker: TargetChecker;
  /** Per attempt; 10 s. */
  timeoutMs?: number;
  /** How long a claimed delivery stays leased to its worker; longer than an attempt. */
  leaseMs?: number;
  /** Attempts in flight at once (slots); 50. */
  concurrency?: number;
  /** Deliveries of one endpoint in flight at once, across every worker; its key's share. */
  endpointConcurrency?: number;
  /** Deliveries of one key in flight at once, across every worker; a quarter of `concurrency`. */
  keyConcurrency?: number;
  /** How often the outbox is looked at when nothing woke the worker (other instances' events). */
  pollMs?: number;
  /** The first retry's delay; each later one doubles, up to backoffMaxMs. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Retries stop when a delivery is this old; 24 h. */
  retryWindowMs?: number;
  /** Finished deliveries are deleted this long after they were queued; 7 days. */
  retentionMs?: number;
  /** How often the pruning runs; an hour. */
  pruneEveryMs?: number;
  random?: () => number;
  onError?: (error: unknown) => void;
  /** An attempt is about to be made (tests and metrics). */
  onAttempt?: (delivery: ClaimedDelivery) => void;
  /** An endpoint was disabled for failing throughout the retry window, and why. */
  onEndpointDisabled?: (endpoint: { endpointId: string; keyId: string; reason: string }) => void;
}

export const DAY_MS = 86_400_000;

/** Delay before the attempt after `attempts` failed ones: base × 2^(attempts−1), capped, half of it jittered. */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number, random: () => number): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 40));
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}

/**
 * While attempts are in flight, claims (and the successes recorded with them) are at least this far
 * apart, so completions arriving together are answered by one claim rather than one each.
 */
const CLAIM_GATHER_MS = 10;

/** At most this many finished deliveries are deleted per statement. */
const PRUNE_BATCH = 10_000;

export class WebhookWorker {
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private woken = false;
  private inFlight = new Set<Promise<void>>();
  /** Successes not yet recorded: written in one statement before the next claim. */
  private successes: { id: string; statusCode: number }[] = [];
  private nextPruneAt = 0;
  private lastClaimAt = 0;
  /** Attempts made, for tests and benchmarks. */
  attempts = 0;

  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly fairness: { perEndpoint: number; perKey: number };
  private readonly pollMs: number;
  private readonly backoffBaseMs: number;
  private readonly backoffMaxMs: number;
  private readonly retryWindowMs: number;
  private readonly retentionMs: number;
  private readonly pruneEveryMs: number;
  private readonly random: () => number;

  constructor(private readonly options: WebhookWorkerOptions) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.leaseMs = options.leaseMs ?? Math.max(30_000, this.timeoutMs * 3);
    this.concurrency = Math.max(1, options.concurrency ?? 50);
    const perKey = Math.max(1, options.keyConcurrency ?? Math.ceil(this.concurrency / 4));
    this.fairness = { perEndpoint: Math.max(1, options.endpointConcurrency ?? perKey), perKey };
    this.pollMs = options.pollMs ?? 1_000;
    this.backoffBaseMs = options.backoffBaseMs ?? 5_000;
    this.backoffMaxMs = options.backoffMaxMs ?? 3_600_000;
    this.retryWindowMs = options.retryWindowMs ?? DAY_MS;
    this.retentionMs = options.retentionMs ?? 7 * DAY_MS;
    this.pruneEveryMs = options.pruneEveryMs ?? 3_600_000;
    this.random = options.random ?? Math.random;
  }

  start(): void {
    if (this.running) {
      return;
    }
    this.running = true;
    this.loop = this.run();
  }

  /** Stops claiming, and waits for the attempts in flight to be recorded. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    this.loop = null;
    await Promise.all(this.inFlight);
    await this.recordSuccesses();
  }

  /** New deliveries were queued (or a slot freed): look now instead of at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    // Secrets written before encryption, or sealed under a key rotated out, are sealed under the
    // current key once per start (any instance's worker may do it; each row is rewritten at most once).
    try {
      await this.options.store.sealSecrets();
    } catch (error) {
      this.options.onError?.(error);
    }
    while (this.running) {
      let claimed = 0;
      try {
        await this.pruneWhenDue();
        const wait = this.lastClaimAt + CLAIM_GATHER_MS - Date.now();
        if (this.inFlight.size > 0 && wait > 0) {
          await new Promise((resolve) => setTimeout(resolve, wait));
        } else {
          // Claims that follow one another still let timers and sockets run between them: an
          // embedded database (PGlite) runs each statement on this event loop.
          await new Promise((resolve) => setImmediate(resolve));
        }
        this.lastClaimAt = Date.now();
        claimed = this.claimAndStart(await this.claim());
      } catch (error) {
        this.options.onError?.(error);
      }
      // Idle when nothing was due or every slot is taken: a finished attempt, a wake() or the poll
      // brings the loop back.
      if ((claimed === 0 || this.inFlight.size >= this.concurrency) && this.running) {
        await this.idle();
      }
    }
  }

  private idle(): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakeUp = null;
        this.woken = false;
        resolve();
      };
      const timer = setTimeout(done, this.pollMs);
      this.wakeUp = done;
    });
  }

  private async claim(): Promise<ClaimedDelivery[]> {
    this.woken = false;
    await this.recordSuccesses();
    return this.options.store.claimDue(this.concurrency - this.inFlight.size, this.leaseMs, this.fairness);
  }

  /** Records the successes gathered since the last claim (their rows stay leased until then). */
  private async recordSuccesses(): Promise<void> {
    const successes = this.successes;
    this.successes = [];
    if (successes.length > 0) {
      try {
        await this.options.store.markSucceeded(successes);
      } catch (error) {
        // Their leases run out and they are delivered again, under the same webhook-id.
        this.options.onError?.(error);
      }
    }
  }

  /** Starts each claimed delivery in a slot of its own; the number started. */
  private claimAndStart(batch: readonly ClaimedDelivery[]): number {
    for (const delivery of batch) {
      const work: Promise<void> = this.attemptAndRecord(delivery).finally(() => {
        this.inFlight.delete(work);
        this.wake();
      });
      this.inFlight.add(work);
    }
    return batch.length;
  }

  /** Claims what the free slots take, attempts it, and records the outcomes; the number claimed. */
  async runOnce(): Promise<number> {
    const batch = await this.claim();
    await Promise.all(batch.map((delivery) => this.attemptAndRecord(delivery)));
    await this.recordSuccesses();
    return batch.length;
  }

  private async attemptAndRecord(delivery: ClaimedDelivery): Promise<void> {
    try {
      const result = await this.attempt(delivery);
      if (result.ok && result.statusCode !== null) {
        this.successes.push({ id: delivery.id, statusCode: result.statusCode });
      } else {
        await this.recordFailure(delivery, result);
      }
    } catch (error) {
      // The row stays leased; when the lease runs out it is claimed again.
      this.options.onError?.(error);
    }
  }

  private attempt(delivery: ClaimedDelivery): Promise<AttemptResult> {
    this.attempts += 1;
    this.options.onAttempt?.(delivery);
    return attemptDelivery(
      { url: delivery.url, secrets: delivery.secrets, messageId: delivery.eventId, body: delivery.body },
      this.options.checker,
      this.timeoutMs,
    ).catch((error: unknown) => {
      this.options.onError?.(error);
      return { ok: false, statusCode: null, error: connectionFailure(error) };
    });
  }

  private async recordFailure(delivery: ClaimedDelivery, result: AttemptResult): Promise<void> {
    const now = Date.now();
    const delay = retryDelayMs(delivery.attempts, this.backoffBaseMs, this.backoffMaxMs, this.random);
    const endpointDelay = retryDelayMs(
      delivery.endpointFailures + 1,
      this.backoffBaseMs,
      this.backoffMaxMs,
      this.random,
    );
    const givenUp = now - delivery.createdAt.getTime() >= this.retryWindowMs;
    const outcome = await this.options.store.markFailed(delivery.id, {
      statusCode: result.statusCode,
      error: result.error ?? "failed",
      nextAttemptAt: givenUp ? null : new Date(now + delay),
      endpointRetryAt: new Date(now + endpointDelay),
    });
    if (outcome.endpointId !== null && outcome.keyId !== null) {
      const disabled = { endpointId: outcome.endpointId, keyId: outcome.keyId, reason: outcome.reason ?? "" };
      await this.notifyDisabled(disabled, delivery.url, outcome.disabledAt ?? new Date(now));
      this.options.onEndpointDisabled?.(disabled);
    }
  }

  /** A `webhook.disabled` event to the key's other endpoints: which endpoint, where, and why. */
  private async notifyDisabled(
    disabled: { endpointId: string; reason: string },
    url: string,
    at: Date,
  ): Promise<void> {
    const timestamp = at.toISOString();
    const id = `evt_${createHash("sha256")
      .update(`webhook.disabled:${disabled.endpointId}:${timestamp}`)
      .digest("hex")
      .slice(0, 32)}`;
    const event = {
      id,
      type: "webhook.disabled",
      timestamp,
      vault: null,
      wallet: null,
      signature: null,
      slot: null,
      data: { webhookId: disabled.endpointId, url, reason: disabled.reason, disabledAt: timestamp },
    };
    await this.options.store.queueDisabledNotice(disabled.endpointId, {
      id,
      timestamp,
      payload: JSON.stringify(event),
    });
    this.wake();
  }

  private async pruneWhenDue(): Promise<void> {
    const now = Date.now();
    if (now < this.nextPruneAt) {
      return;
    }
    this.nextPruneAt = now + this.pruneEveryMs;
    const before = new Date(now - this.retentionMs);
    while ((await this.options.store.pruneDeliveries(before, PRUNE_BATCH)) === PRUNE_BATCH && this.running) {
      // Another batch: a backlog is deleted a statement at a time.
    }
  }
}
