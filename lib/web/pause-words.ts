// A vault's pause as the pages say it: whose pause it is and when it ends by itself, in the reader's
// locale and time zone (lib/web/time.ts), with the zone's name since the reader may compare it with
// an announcement made elsewhere.
import type { PauseInForce } from "../vault/model/vault-view";
import { formatDateTime, type ClockOptions } from "./time";

/** "Paused by the protocol admin until Dec 4, 10:13 PM GMT" (the manager's: "Paused by the manager …"). */
export function pauseWords(pause: PauseInForce, options: Omit<ClockOptions, "zone"> = {}): string {
  const who = pause.by === "admin" ? "the protocol admin" : "the manager";
  const until = formatDateTime(Number(pause.until) * 1000, { ...options, zone: true });
  return `Paused by ${who} until ${until}`;
}
