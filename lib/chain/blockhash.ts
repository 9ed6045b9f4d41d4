// Recent blockhashes and prioritization fees, refreshed in the background so building a transaction
// makes no RPC call. A value past its usable age is read on the request path instead (and a failure
// there is the chain being unavailable).
import { z } from "zod";

import { ChainUnavailableError, type RpcClient } from "./rpc";

/** Blocks a blockhash stays valid for (a validator's MAX_PROCESSING_AGE). */
export const BLOCKHASH_VALID_BLOCKS = 150;

export interface RecentBlockhash {
  blockhash: string;
  lastValidBlockHeight: number;
  /** When the blockhash is expected to expire (ms since the epoch); conservative: one slot per block. */
  expiresAtMs: number;
  fetchedAtMs: number;
}

const latestBlockhashSchema = z.object({
  context: z.object({ slot: z.number() }),
  value: z.object({ blockhash: z.string(), lastValidBlockHeight: z.number() }),
});

const prioritizationFeesSchema = z.array(z.object({ slot: z.number(), prioritizationFee: z.number() }));

interface RefreshedValueOptions {
  refreshMs: number;
  /** Past this age the value is not served; the request reads a new one. */
  maxAgeMs: number;
  now: () => number;
}

/** A value read by `load`, kept fresh by a timer, shared by concurrent readers while loading. */
class RefreshedValue<T> {
  private value: { data: T; at: number } | null = null;
  private loading: Promise<T> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Bumped by clear(): a read started before it is not kept. */
  private generation = 0;

  constructor(
    private readonly load: (background: boolean) => Promise<T>,
    private readonly options: RefreshedValueOptions,
  ) {}

  async get(): Promise<T> {
    if (this.value !== null && this.options.now() - this.value.at <= this.options.maxAgeMs) {
      return this.value.data;
    }
    this.startTimer();
    return this.refresh(false);
  }

  stop(): void {
    if (this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Milliseconds since the value was read; null before the first read. */
  ageMs(): number | null {
    return this.value === null ? null : this.options.now() - this.value.at;
  }

  /** Forgets the value (another chain's); the next get() reads a new one. */
  clear(): void {
    this.generation += 1;
    this.value = null;
    this.loading = null;
  }

  private startTimer(): void {
    if (this.timer === null) {
      this.timer = setInterval(() => {
        this.refresh(true).catch(() => undefined);
      }, this.options.refreshMs);
      this.timer.unref();
    }
  }

  private refresh(background: boolean): Promise<T> {
    if (this.loading === null) {
      const generation = this.generation;
      const loading = this.load(background)
        .then((data) => {
          if (generation === this.generation) {
            this.value = { data, at: this.options.now() };
          }
          return data;
        })
        .finally(() => {
          if (this.loading === loading) {
            this.loading = null;
          }
        });
      this.loading = loading;
    }
    return this.loading;
  }
}

export class BlockhashCache {
  private readonly cached: RefreshedValue<RecentBlockhash>;

  constructor(rpc: RpcClient, slotMs: number, now: () => number = Date.now) {
    const load = async (background: boolean): Promise<RecentBlockhash> => {
      const raw = await rpc.call<unknown>("getLatestBlockhash", [{ commitment: "confirmed" }], {
        background,
      });
      const parsed = latestBlockhashSchema.safeParse(raw);
      if (!parsed.success) {
        throw new ChainUnavailableError("getLatestBlockhash returned an unexpected shape");
      }
      const fetchedAtMs = now();
      return {
        blockhash: parsed.data.value.blockhash,
        lastValidBlockHeight: parsed.data.value.lastValidBlockHeight,
        expiresAtMs: fetchedAtMs + BLOCKHASH_VALID_BLOCKS * slotMs,
        fetchedAtMs,
      };
    };
    // Refreshed every ~5 slots; served for at most a fifth of its life so a client has the rest.
    this.cached = new RefreshedValue(load, {
      refreshMs: Math.max(200, slotMs * 5),
      maxAgeMs: (BLOCKHASH_VALID_BLOCKS * slotMs) / 5,
      now,
    });
  }

  get(): Promise<RecentBlockhash> {
    return this.cached.get();
  }

  /** Age of the blockhash held now (null before the first read), for the process's metrics. */
  ageMs(): number | null {
    return this.cached.ageMs();
  }

  /** Forgets the blockhash held (another chain's). */
  clear(): void {
    this.cached.clear();
  }

  stop(): void {
    this.cached.stop();
  }
}

/** The fee at `percentile` (0–100) of recent per-slot fees, nearest-rank. */
export function percentileFee(fees: readonly number[], percentile: number): number {
  if (fees.length === 0) {
    return 0;
  }
  const sorted = [...fees].sort((a, b) => a - b);
  const rank = Math.ceil((percentile / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? 0;
}

export interface PriorityFeeOptions {
  capMicroLamports: number;
  percentile?: number;
  refreshMs?: number;
  now?: () => number;
}

/** Compute-unit price in micro-lamports from recent prioritization fees on the given accounts, capped. */
export class PriorityFeeCache {
  private readonly byAccounts = new Map<string, RefreshedValue<number>>();

  constructor(
    private readonly rpc: RpcClient,
    private readonly options: PriorityFeeOptions,
  ) {}

  get(writableAccounts: readonly string[]): Promise<number> {
    const key = writableAccounts.join(",");
    let cached = this.byAccounts.get(key);
    if (cached === undefined) {
      const { capMicroLamports, percentile = 75 } = this.options;
      cached = new RefreshedValue(
        async (background) => {
          const raw = await this.rpc.call<unknown>("getRecentPrioritizationFees", [writableAccounts], {
            background,
          });
          const parsed = prioritizationFeesSchema.safeParse(raw);
          if (!parsed.success) {
            throw new ChainUnavailableError("getRecentPrioritizationFees returned an unexpected shape");
          }
          const fee = percentileFee(
            parsed.data.map((entry) => entry.prioritizationFee),
            percentile,
          );
          return Math.min(fee, capMicroLamports);
        },
        {
          refreshMs: this.options.refreshMs ?? 10_000,
          maxAgeMs: (this.options.refreshMs ?? 10_000) * 6,
          now: this.options.now ?? Date.now,
        },
      );
      this.byAccounts.set(key, cached);
    }
    return cached.get();
  }

  /** Forgets every fee held (another chain's). */
  clear(): void {
    this.stop();
    this.byAccounts.clear();
  }

  stop(): void {
    for (const cached of this.byAccounts.values()) {
      cached.stop();
    }
  }
}
