// The page's one account of a stalled chain: which of its reads last failed because the chain did not
// answer (the browser's own reads, or the server's 503 CHAIN_UNAVAILABLE), and what they had last
// read. A read keeps its place here while it is asked again (a query without data goes back to
// "pending" while it refetches), so the page's notice does not blink with every retry; it leaves
// once that read answers, or fails for another reason (its card then says which).
import { isChainStall } from "./errors";

/** What the page needs of a read's state (a react-query query's state). */
export interface ReadState {
  status: "pending" | "error" | "success";
  error: unknown;
  /** When the read last answered (epoch ms; 0: never). */
  dataUpdatedAt: number;
}

export interface StalledRead {
  /** When the read last answered before the stall (epoch ms; 0: never). */
  answeredAt: number;
}

/** Reads failing for want of the chain, by their key. */
export type StalledReads = ReadonlyMap<string, StalledRead>;

/** The stall bookkeeping after a read's state changed (or it left the page: `state` null). */
export function noteRead(reads: StalledReads, key: string, state: ReadState | null): StalledReads {
  const stalled = state !== null && state.status === "error" && isChainStall(state.error);
  const kept = state !== null && state.status === "pending" && reads.has(key);
  if (stalled) {
    const current = reads.get(key);
    if (current?.answeredAt === state.dataUpdatedAt) {
      return reads;
    }
    return new Map(reads).set(key, { answeredAt: state.dataUpdatedAt });
  }
  if (kept || !reads.has(key)) {
    return reads;
  }
  const next = new Map(reads);
  next.delete(key);
  return next;
}

/**
 * When the figures on the page were last read from the chain: the latest answer among the stalled
 * reads that had one (null when none had answered before the stall).
 */
export function stalledSince(reads: StalledReads): number | null {
  let latest = 0;
  for (const read of reads.values()) {
    latest = Math.max(latest, read.answeredAt);
  }
  return latest === 0 ? null : latest;
}
