// A vault's pause as the program's ConfigUpdated events carry it (programs/vault/README.md, "Exit
// after a long silence"): the flag, the time it ends by itself, and whether the protocol's admin set it
// (set_admin_pause; the manager cannot lift it). The indexer reads it back from stored events.

/** A vault's pause as a ConfigUpdated leaves it: the flag, its end and whose pause it is. */
export interface PauseState {
  paused: boolean;
  /** Unix seconds; null in a ConfigUpdated stored before the program carried it (the flag alone). */
  pauseUntil: bigint | null;
  adminPaused: boolean;
}

export const NO_PAUSE: PauseState = { paused: false, pauseUntil: 0n, adminPaused: false };

/** The pause a stored ConfigUpdated carries. */
export function pauseOf(data: Record<string, unknown>): PauseState {
  const until = data.pauseUntil;
  return {
    paused: data.paused === true,
    pauseUntil: typeof until === "string" || typeof until === "number" ? BigInt(until) : null,
    adminPaused: data.adminPaused === true,
  };
}

/** The pause is in force at `seconds`: set and not yet past its end. */
export function pauseInForce(pause: PauseState, seconds: bigint): boolean {
  return pause.paused && (pause.pauseUntil === null || seconds < pause.pauseUntil);
}
