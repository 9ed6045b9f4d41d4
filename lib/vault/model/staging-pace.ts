// The observed pace at which the manager funds the withdrawal queue: samples of `queue_funded` taken
// whenever a vault is read fresh, kept for a window, turned into shares per second.
const WINDOW_MS = 15 * 60_000;
const MIN_SAMPLE_SPACING_MS = 5_000;
const MAX_SAMPLES = 200;

interface Sample {
  atMs: number;
  queueFunded: bigint;
}

export class StagingPace {
  private readonly samples = new Map<string, Sample[]>();

  observe(vault: string, atMs: number, queueFunded: bigint): void {
    const list = this.samples.get(vault) ?? [];
    const last = list.at(-1);
    if (last !== undefined && last.queueFunded === queueFunded && atMs - last.atMs < MIN_SAMPLE_SPACING_MS) {
      return;
    }
    list.push({ atMs, queueFunded });
    this.samples.set(vault, list.filter((sample) => sample.atMs >= atMs - WINDOW_MS).slice(-MAX_SAMPLES));
  }

  /** Forgets every sample (they were another chain's). */
  clear(): void {
    this.samples.clear();
  }

  /** Shares funded per second over the window; null until the samples show progress. */
  sharesPerSecond(vault: string): number | null {
    const list = this.samples.get(vault) ?? [];
    const first = list[0];
    const last = list.at(-1);
    if (first === undefined || last === undefined || last.atMs <= first.atMs) {
      return null;
    }
    const funded = last.queueFunded - first.queueFunded;
    return funded > 0n ? Number(funded) / ((last.atMs - first.atMs) / 1000) : null;
  }
}
