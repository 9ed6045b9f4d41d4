// The program's net-withdrawal windows (hourly and daily), as it will see them at a given time: the
// one place the roll-over is computed, for the API's preparation checks and the pages' previews alike.
// Pure arithmetic with no imports, so the pages can load it with their first JavaScript.

export const HOUR_SECONDS = 3_600;
export const DAY_SECONDS = 86_400;

export interface CapWindow {
  /** 0 when the vault sets no cap. */
  cap: bigint;
  used: bigint;
  /** Null when there is no cap. */
  remaining: bigint | null;
  /** Unix seconds when the window rolls over. */
  resetsAt: number;
}

/** A net-withdrawal window as the program will see it at `nowSeconds` (rolled over if its period passed). */
export function capWindow(
  cap: bigint,
  storedStart: bigint,
  storedUsed: bigint,
  nowSeconds: number,
  length: number,
): CapWindow {
  const now = BigInt(Math.floor(nowSeconds));
  const period = BigInt(length);
  const start = now - (now % period);
  const used = start > storedStart ? 0n : storedUsed;
  return {
    cap,
    used,
    remaining: cap === 0n ? null : cap > used ? cap - used : 0n,
    resetsAt: Number(start + period),
  };
}
