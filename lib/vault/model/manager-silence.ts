// The exit after a long silence (programs/vault/README.md): once the manager has struck no NAV for the
// vault's silence period, a pause no longer refuses requests and claims are paid at the last struck NAV.
import type { VaultAccount } from "../program/accounts";

/** The program's default when the vault stores 0 (a vault created before the field existed). */
export const DEFAULT_SILENCE_SECONDS = 604_800;

/** Whether, at `nowMs`, the manager has been silent (no strike) for the vault's silence period. */
export function navSilent(
  state: Pick<VaultAccount, "navUpdatedAt" | "silenceSeconds">,
  nowMs: number,
): boolean {
  const silence = BigInt(state.silenceSeconds === 0 ? DEFAULT_SILENCE_SECONDS : state.silenceSeconds);
  return BigInt(Math.floor(nowMs / 1000)) >= state.navUpdatedAt + silence;
}
