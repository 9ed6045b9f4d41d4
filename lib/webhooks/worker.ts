// The delivery worker: claims due deliveries from the outbox (lib/store/webhooks.ts), attempts each
// (deliver.ts) and records the outcome. Its state is the rows: a worker killed mid-attempt leaves its
// deliveries leased, and when the lease runs out any worker (this one restarted, or another instance's)
// attempts them again under the same webhook-id — at least once, duplicates possible. Failures are
// retried with exponential backoff and jitter until a delivery is `retryWindowMs` old (24 h); an
// endpoint that fails throughout that window is disabled with the reason.
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
  /** Deliveries claimed at once, and attempted concurrently. */
  batchSize?: number;
  /** How often the outbox is looked at when nothing woke the worker (other instances' events). */
  pollMs?: number;
  /** The first retry's delay; each later one doubles, up to backoffMaxMs. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Retries stop when a delivery is this old; 24 h. */
  retryWindowMs?: number;
  random?: () => number;
  onError?: (error: unknown) => void;
}

export const DAY_MS = 86_400_000;

/** Delay before the attempt after `attempts` failed ones: base × 2^(attempts−1), capped, half of it jittered. */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number, random: () => number): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 40));
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}

export class WebhookWorker {
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private woken = false;
  /** Attempts made, for tests and benchmarks. */
  attempts = 0;

  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly backoffBaseMs: number;
  private readonly backoffMaxMs: number;
  private readonly retryWindowMs: number;
  private readonly random: () => number;

  constructor(private readonly options: WebhookWorkerOptions) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.leaseMs = options.leaseMs ?? Math.max(30_000, this.timeoutMs * 3);
    this.batchSize = options.batchSize ?? 200;
    this.pollMs = options.pollMs ?? 1_000;
    this.backoffBaseMs = options.backoffBaseMs ?? 5_000;
    this.backoffMaxMs = options.backoffMaxMs ?? 3_600_000;
    this.retryWindowMs = options.retryWindowMs ?? DAY_MS;
    this.random = options.random ?? Math.random;
  }

  start(): void {
    if (this.running) {
      return;
    }
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    this.loop = null;
  }

  /** New deliveries were queued: look now instead of at the next poll. */
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
        claimed = await this.runOnce();
      } catch (error) {
        this.options.onError?.(error);
      }
      if (claimed === 0 && this.running) {
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

  /** Claims one batch, attempts it, and records the outcomes; the number claimed. */
  async runOnce(): Promise<number> {
    this.woken = false;
    const batch = await this.options.store.claimDue(this.batchSize, this.leaseMs);
    const outcomes = await Promise.all(batch.map((delivery) => this.attempt(delivery)));
    const successes: { id: string; statusCode: number }[] = [];
    for (const [index, result] of outcomes.entries()) {
      const delivery = batch[index];
      if (delivery === undefined) {
        continue;
      }
      if (result.ok && result.statusCode !== null) {
        successes.push({ id: delivery.id, statusCode: result.statusCode });
      } else {
        await this.recordFailure(delivery, result);
      }
    }
    await this.options.store.markSucceeded(successes);
    return batch.length;
  }

  private attempt(delivery: ClaimedDelivery): Promise<AttemptResult> {
    this.attempts += 1;
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
    const givenUp = now - delivery.createdAt.getTime() >= this.retryWindowMs;
    await this.options.store.markFailed(delivery.id, {
      statusCode: result.statusCode,
      error: result.error ?? "failed",
      nextAttemptAt: givenUp ? null : new Date(now + delay),
    });
  }
}
