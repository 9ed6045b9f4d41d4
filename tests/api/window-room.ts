// The vault's net-withdrawal windows roll over at the top of each UTC hour and day, on the local
// chain's clock, which follows the wall clock. A test that asserts what one window counts across
// several transactions starts with room before the roll-over; otherwise its later transactions can
// land in a fresh window (seen: `used` 0 right after a withdrawal, in a run that crossed 17:00 UTC).
import { DAY_SECONDS, HOUR_SECONDS } from "../../lib/vault/model/cap-window";

/** The most a scenario of a few transactions takes on a loaded machine, with room to spare. */
export const WINDOW_ROOM_SECONDS = 120;

/** A test's timeout with the longest wait for room added. */
export function withRoomTimeout(testMs: number): number {
  return testMs + WINDOW_ROOM_SECONDS * 1000;
}

/** Waits until the current hourly (or daily) window has at least `seconds` left; at once when it has. */
export async function withRoomInWindow(
  window: "hourly" | "daily",
  seconds: number = WINDOW_ROOM_SECONDS,
): Promise<void> {
  const length = window === "hourly" ? HOUR_SECONDS : DAY_SECONDS;
  const now = Date.now() / 1000;
  const left = length - (now % length);
  if (left < seconds) {
    // Past the roll-over, into the new window's first second.
    await new Promise((resolve) => setTimeout(resolve, Math.ceil((left + 1) * 1000)));
  }
}
