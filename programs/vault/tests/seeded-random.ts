// A small deterministic PRNG (mulberry32) so a failing property-test seed replays exactly.
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.nextUint32() / 2 ** 32 < p;
  }

  /** An integer in [0, maxExclusive). */
  integer(maxExclusive: number): number {
    return Math.floor((this.nextUint32() / 2 ** 32) * maxExclusive);
  }

  /** A bigint in [min, max], both inclusive; the modulo bias is irrelevant at test scale. */
  bigintBetween(min: bigint, max: bigint): bigint {
    if (max < min) {
      throw new Error(`Empty range ${min}..${max}`);
    }
    const wide = (BigInt(this.nextUint32()) << 32n) | BigInt(this.nextUint32());
    return min + (wide % (max - min + 1n));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.integer(items.length)];
    if (item === undefined) {
      throw new Error("Cannot pick from an empty list");
    }
    return item;
  }

  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.integer(total);
    for (const [value, weight] of entries) {
      if (roll < weight) {
        return value;
      }
      roll -= weight;
    }
    throw new Error("Weights must be positive");
  }
}
