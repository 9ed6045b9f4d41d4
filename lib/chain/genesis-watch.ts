// The chain behind the RPC URL, known by its genesis hash. A local chain restarted with a fresh ledger
// is a new chain at the same URL (as a real validator's fresh ledger is): whatever was cached or
// indexed from the previous one must not be served. The watch reads getGenesisHash in the background
// (never on a request's path) and tells its listeners when the hash changes.
import { ChainUnavailableError, type RpcClient } from "./rpc";

export interface GenesisChange {
  previous: string;
  current: string;
}

export type GenesisListener = (change: GenesisChange) => void;

export class GenesisWatch {
  private known: string | null = null;
  private reading: Promise<string> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly listeners = new Set<GenesisListener>();

  constructor(
    private readonly rpc: RpcClient,
    private readonly intervalMs: number,
  ) {}

  /** The genesis hash last read; null before the first read. */
  get current(): string | null {
    return this.known;
  }

  /**
   * Reads the chain's genesis hash now (concurrent callers share one read) and tells the listeners if
   * it is not the one read before.
   */
  check(): Promise<string> {
    this.reading ??= this.read().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  /** Checks every intervalMs from now on (idempotent; the timer does not keep the process alive). */
  watch(): void {
    if (this.timer !== null) {
      return;
    }
    this.timer = setInterval(() => {
      this.check().catch(() => undefined);
    }, this.intervalMs);
    this.timer.unref();
    this.check().catch(() => undefined);
  }

  /** Calls `listener` on each change; returns the function that removes it. */
  onChange(listener: GenesisListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): void {
    if (this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private async read(): Promise<string> {
    const hash = await this.rpc.call<unknown>("getGenesisHash", [], { background: true });
    if (typeof hash !== "string" || hash === "") {
      throw new ChainUnavailableError("getGenesisHash returned an unexpected shape");
    }
    const previous = this.known;
    this.known = hash;
    if (previous !== null && previous !== hash) {
      for (const listener of this.listeners) {
        listener({ previous, current: hash });
      }
    }
    return hash;
  }
}
