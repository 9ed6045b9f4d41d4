// The chain's clock: the current slot and block height, the window of recent blockhashes (each valid for
// MAX_PROCESSING_AGE blocks), the wall time at each slot (block times are looked up from these) and the
// slots each commitment level has reached (confirmed one slot back, finalized `finalizationDepth` back).
import { MAX_PROCESSING_AGE, type BlockhashInfo, type ChainState, type Commitment } from "./chain-types";

/** Blockhashes kept for lookups; older ones are unknown, as in a validator's blockhash queue. */
const BLOCKHASH_QUEUE_LENGTH = 300;

type ClockState = Pick<ChainState, "slot" | "blockHeight" | "genesisTime" | "blockhashes" | "slotTimes">;

export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

export class SlotClock {
  private currentSlot: bigint;
  private currentBlockHeight: bigint;
  readonly genesisTime: number;
  private readonly finalizationDepth: number;
  private readonly blockhashQueue: { blockhash: string; slot: bigint; blockHeight: bigint }[] = [];
  private readonly blockhashIndex = new Map<string, { slot: bigint; blockHeight: bigint }>();
  /** (slot, unix time) at each slot where the time changed. */
  private readonly slotTimes: [bigint, number][];

  private constructor(
    finalizationDepth: number,
    state: { slot: bigint; blockHeight: bigint; genesisTime: number; slotTimes: [bigint, number][] },
  ) {
    this.finalizationDepth = finalizationDepth;
    this.currentSlot = state.slot;
    this.currentBlockHeight = state.blockHeight;
    this.genesisTime = state.genesisTime;
    this.slotTimes = state.slotTimes;
  }

  /** Slot 0 at `now`, with no blockhash yet. */
  static genesis(finalizationDepth: number, now: number): SlotClock {
    return new SlotClock(finalizationDepth, {
      slot: 0n,
      blockHeight: 0n,
      genesisTime: now,
      slotTimes: [[0n, now]],
    });
  }

  static restore(finalizationDepth: number, state: ClockState): SlotClock {
    const clock = new SlotClock(finalizationDepth, {
      slot: BigInt(state.slot),
      blockHeight: BigInt(state.blockHeight),
      genesisTime: state.genesisTime,
      slotTimes: state.slotTimes.map(([slot, time]) => [BigInt(slot), time]),
    });
    for (const entry of state.blockhashes) {
      clock.blockhashQueue.push({
        blockhash: entry.blockhash,
        slot: BigInt(entry.slot),
        blockHeight: BigInt(entry.blockHeight),
      });
      clock.blockhashIndex.set(entry.blockhash, {
        slot: BigInt(entry.slot),
        blockHeight: BigInt(entry.blockHeight),
      });
    }
    return clock;
  }

  toState(): ClockState {
    return {
      slot: this.currentSlot.toString(),
      blockHeight: this.currentBlockHeight.toString(),
      genesisTime: this.genesisTime,
      blockhashes: this.blockhashQueue.map((entry) => ({
        blockhash: entry.blockhash,
        slot: entry.slot.toString(),
        blockHeight: entry.blockHeight.toString(),
      })),
      slotTimes: this.slotTimes.map(([slot, time]) => [slot.toString(), time]),
    };
  }

  /** Starts the next slot at `now` (its blockhash follows with pushBlockhash); returns its parent. */
  advance(now: number): bigint {
    const parent = this.currentSlot;
    this.currentSlot += 1n;
    this.currentBlockHeight += 1n;
    const lastTime = this.slotTimes.at(-1)?.[1];
    if (lastTime !== now) {
      this.slotTimes.push([this.currentSlot, now]);
    }
    return parent;
  }

  pushBlockhash(blockhash: string): void {
    const entry = { blockhash, slot: this.currentSlot, blockHeight: this.currentBlockHeight };
    this.blockhashQueue.push(entry);
    this.blockhashIndex.set(blockhash, { slot: entry.slot, blockHeight: entry.blockHeight });
    while (this.blockhashQueue.length > BLOCKHASH_QUEUE_LENGTH) {
      const expired = this.blockhashQueue.shift();
      if (expired !== undefined) {
        this.blockhashIndex.delete(expired.blockhash);
      }
    }
  }

  get slot(): bigint {
    return this.currentSlot;
  }

  get blockHeight(): bigint {
    return this.currentBlockHeight;
  }

  private depthOf(commitment: Commitment): bigint {
    switch (commitment) {
      case "processed":
        return 0n;
      case "confirmed":
        return 1n;
      case "finalized":
        return BigInt(this.finalizationDepth);
    }
  }

  slotFor(commitment: Commitment): bigint {
    const slot = this.currentSlot - this.depthOf(commitment);
    return slot < 0n ? 0n : slot;
  }

  blockHeightFor(commitment: Commitment): bigint {
    const height = this.currentBlockHeight - this.depthOf(commitment);
    return height < 0n ? 0n : height;
  }

  latestBlockhash(commitment: Commitment): BlockhashInfo {
    const slot = this.slotFor(commitment);
    const entry =
      [...this.blockhashQueue].reverse().find((candidate) => candidate.slot <= slot) ??
      this.blockhashQueue[0];
    if (entry === undefined) {
      throw new Error("The chain has no blockhash yet");
    }
    return { ...entry, lastValidBlockHeight: entry.blockHeight + MAX_PROCESSING_AGE };
  }

  /** Blocks since the hash was issued, or null for a hash this chain does not know (or forgot). */
  blockhashAge(blockhash: string): bigint | null {
    const entry = this.blockhashIndex.get(blockhash);
    return entry === undefined ? null : this.currentBlockHeight - entry.blockHeight;
  }

  isBlockhashValid(blockhash: string, maxAge: bigint = MAX_PROCESSING_AGE): boolean {
    const age = this.blockhashAge(blockhash);
    return age !== null && age <= maxAge;
  }

  lastValidBlockHeight(blockhash: string): bigint | null {
    const entry = this.blockhashIndex.get(blockhash);
    return entry === undefined ? null : entry.blockHeight + MAX_PROCESSING_AGE;
  }

  /** Unix time of a slot's block, or null for a slot not produced yet. */
  blockTime(slot: bigint): number | null {
    if (slot > this.currentSlot || slot < 0n) {
      return null;
    }
    let time: number | null = null;
    let low = 0;
    let high = this.slotTimes.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const entry = this.slotTimes[middle];
      if (entry === undefined) {
        break;
      }
      if (entry[0] <= slot) {
        time = entry[1];
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return time ?? this.genesisTime;
  }
}
