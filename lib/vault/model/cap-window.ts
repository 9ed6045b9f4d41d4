// The program's net-withdrawal windows (hourly and daily), as it will see them at a given time: the
// one place the roll-over and the hourly-then-daily check are computed, for the API's preparation
// checks and the pages' previews alike. Pure arithmetic with no imports, so the pages can load it
// with their first JavaScript.

export const HOUR_SECONDS = 3_600;
export const DAY_SECONDS = 86_400;

/** A window as the vault account stores it: usage counted since `windowStart`. */
export interface StoredCapWindow {
  /** 0n: no cap. */
  cap: bigint;
  used: bigint;
  /** Unix seconds when the stored window started. */
  windowStart: bigint;
  /** Window length in seconds (HOUR_SECONDS or DAY_SECONDS). */
  length: number;
}

export interface CapWindow {
  /** 0 when the vault sets no cap. */
  cap: bigint;
  used: bigint;
  /** Null when there is no cap. */
  remaining: bigint | null;
  /** Unix seconds when the window rolls over. */
  resetsAt: number;
}

export interface WithdrawalWindows<W> {
  hourly: W;
  daily: W;
}

/** The vault account's cap fields, as the decoder names them. */
export interface StoredCapFields {
  hourlyCap: bigint;
  hourlyUsed: bigint;
  hourlyWindowStart: bigint;
  dailyCap: bigint;
  dailyUsed: bigint;
  dailyWindowStart: bigint;
}

/** The vault's two windows as its account stores them. */
export function storedWindows(state: StoredCapFields): WithdrawalWindows<StoredCapWindow> {
  return {
    hourly: {
      cap: state.hourlyCap,
      used: state.hourlyUsed,
      windowStart: state.hourlyWindowStart,
      length: HOUR_SECONDS,
    },
    daily: {
      cap: state.dailyCap,
      used: state.dailyUsed,
      windowStart: state.dailyWindowStart,
      length: DAY_SECONDS,
    },
  };
}

/** A net-withdrawal window as the program will see it at `nowSeconds` (rolled over if its period passed). */
export function capWindow(stored: StoredCapWindow, nowSeconds: number): CapWindow {
  const now = BigInt(Math.floor(nowSeconds));
  const period = BigInt(stored.length);
  const start = now - (now % period);
  const used = start > stored.windowStart ? 0n : stored.used;
  const { cap } = stored;
  return {
    cap,
    used,
    remaining: cap === 0n ? null : cap > used ? cap - used : 0n,
    resetsAt: Number(start + period),
  };
}

/** Both windows at `nowSeconds`. */
export function windowsAt(
  stored: WithdrawalWindows<StoredCapWindow>,
  nowSeconds: number,
): WithdrawalWindows<CapWindow> {
  return { hourly: capWindow(stored.hourly, nowSeconds), daily: capWindow(stored.daily, nowSeconds) };
}

export interface CapOverflow {
  window: "hourly" | "daily";
  /** The refusing window (a capped one, so `remaining` is set). */
  capacity: CapWindow & { remaining: bigint };
}

/** The first window a withdrawal worth `assets` would overflow: the program checks hourly, then daily. */
export function firstOverflow(windows: WithdrawalWindows<CapWindow>, assets: bigint): CapOverflow | null {
  for (const window of ["hourly", "daily"] as const) {
    const { remaining } = windows[window];
    if (remaining !== null && assets > remaining) {
      return { window, capacity: { ...windows[window], remaining } };
    }
  }
  return null;
}
