// The vault's config over time: a holder-hurting update_config is stored as a pending config with an
// effective time (programs/vault/README.md, "Config changes and their notice"). The program applies a
// due pending config before a request reads it, so every reader here does the same at its own clock:
// the fee, minimum and caps it shows are those a request sent now would meet.
import type { VaultAccount } from "./accounts";

export interface PendingConfig {
  feeBps: number;
  minWithdrawalShares: bigint;
  /** 0n: no cap. */
  hourlyCap: bigint;
  dailyCap: bigint;
  /** Unix seconds. */
  effectiveAt: bigint;
}

type ConfigFields = Pick<
  VaultAccount,
  | "feeBps"
  | "minWithdrawalShares"
  | "hourlyCap"
  | "dailyCap"
  | "pendingFeeBps"
  | "pendingMinWithdrawalShares"
  | "pendingHourlyCap"
  | "pendingDailyCap"
  | "pendingEffectiveAt"
>;

function isDue(state: ConfigFields, nowSeconds: bigint): boolean {
  return state.pendingEffectiveAt !== 0n && nowSeconds >= state.pendingEffectiveAt;
}

/** The config scheduled and not yet in force at `nowMs`; null when none is. */
export function pendingConfig(state: ConfigFields, nowMs: number): PendingConfig | null {
  if (state.pendingEffectiveAt === 0n || isDue(state, BigInt(Math.floor(nowMs / 1000)))) {
    return null;
  }
  return {
    feeBps: state.pendingFeeBps,
    minWithdrawalShares: state.pendingMinWithdrawalShares,
    hourlyCap: state.pendingHourlyCap,
    dailyCap: state.pendingDailyCap,
    effectiveAt: state.pendingEffectiveAt,
  };
}

/** The account as a request sent at `nowMs` meets it: a due pending config applied, as the program does. */
export function configInForce<State extends ConfigFields>(state: State, nowMs: number): State {
  if (!isDue(state, BigInt(Math.floor(nowMs / 1000)))) {
    return state;
  }
  return {
    ...state,
    feeBps: state.pendingFeeBps,
    minWithdrawalShares: state.pendingMinWithdrawalShares,
    hourlyCap: state.pendingHourlyCap,
    dailyCap: state.pendingDailyCap,
    pendingEffectiveAt: 0n,
  };
}
