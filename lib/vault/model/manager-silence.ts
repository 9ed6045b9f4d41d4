// The exit after a long silence (programs/vault/README.md): once the manager has struck no NAV for the
// vault's silence period, a pause no longer refuses requests and claims are paid at the last struck NAV.
import type { VaultState, ReceiptState } from "../program/accounts";

/** The program's default when the vault stores 0 (a vault created before the field existed). */
export const DEFAULT_SILENCE_SECONDS = 604_800;

/** Whether, at `nowMs`, the manager has been silent (no strike) for the vault's silence period. */
export function navSilent(
  state: Pick<VaultState, "navUpdatedAt" | "silenceSeconds">,
  nowMs: number,
): boolean {
  const silence = silenceSeconds(state);
  return BigInt(Math.floor(nowMs / 1000)) >= state.navUpdatedAt + silence;
}

function silenceSeconds(state: Pick<VaultState, "silenceSeconds">): bigint {
  return BigInt(state.silenceSeconds === 0 ? DEFAULT_SILENCE_SECONDS : state.silenceSeconds);
}

/**
 * When anyone may stage the queue up to this request (the program's request_waited_silence): once it
 * has waited the vault's silence period without being wholly funded, whatever the manager struck or
 * staged meanwhile. Null when it is wholly funded already (nothing to open).
 */
export function hatchOpensAt(
  state: Pick<VaultState, "silenceSeconds" | "queueFunded">,
  receipt: Pick<ReceiptState, "requestedAt" | "queueEnd">,
): bigint | null {
  return receipt.queueEnd > state.queueFunded ? receipt.requestedAt + silenceSeconds(state) : null;
}

/** Whether the manager has not staged for the silence period (the program's staging_silent; never staged: since its last strike). */
export function stagingSilent(
  state: Pick<VaultState, "stagedAt" | "navUpdatedAt" | "silenceSeconds">,
  nowMs: number,
): boolean {
  const last = state.stagedAt === 0n ? state.navUpdatedAt : state.stagedAt;
  return BigInt(Math.floor(nowMs / 1000)) >= last + silenceSeconds(state);
}
