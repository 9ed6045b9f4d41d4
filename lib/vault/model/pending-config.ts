// The vault's config over time: a holder-hurting update_config is stored as a pending config with an
// effective time (programs/vault/README.md, "Config changes and their notice"). The program applies a
// due pending config before a request reads it, so every reader here does the same at its own clock:
// the fee, minimum and caps it shows are those a request sent now would meet.
import type { VaultState } from "../program/accounts";

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
  VaultState,
  | "feeBps"
  | "minWithdrawalShares"
  | "hourlyCap"
  | "dailyCap"
  | "pendingFeeBps"
  | "pendingMinWithdrawalShares"
  | "pendingHourlyCap"
  | "pendingDailyCap"
  | "pendingEffectiveAt"
  | "paused"
  | "pauseUntil"
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

/**
 * The account as a request sent at `nowMs` meets it, as the program reads it: a due pending config
 * applied, and a pause past its end (pauseUntil) no longer in force.
 */
export function configInForce<State extends ConfigFields>(state: State, nowMs: number): State {
  const nowSeconds = BigInt(Math.floor(nowMs / 1000));
  const paused = state.paused && nowSeconds < state.pauseUntil;
  if (!isDue(state, nowSeconds)) {
    return paused === state.paused ? state : { ...state, paused };
  }
  return {
    ...state,
    paused,
    feeBps: state.pendingFeeBps,
    minWithdrawalShares: state.pendingMinWithdrawalShares,
    hourlyCap: state.pendingHourlyCap,
    dailyCap: state.pendingDailyCap,
    pendingEffectiveAt: 0n,
  };
}

/** The program's default notice when the vault stores 0 (a vault created before the field existed). */
export const DEFAULT_CONFIG_NOTICE_SECONDS = 259_200;

export function noticeSeconds(state: Pick<VaultState, "configNoticeSeconds">): number {
  return state.configNoticeSeconds === 0 ? DEFAULT_CONFIG_NOTICE_SECONDS : state.configNoticeSeconds;
}

export type ConfigField = "feeBps" | "minWithdrawalShares" | "hourlyCap" | "dailyCap";

/** Only a kept cap applies at once: any other value (raised to u64::MAX included) waits the notice. */
function capEases(current: bigint, next: bigint): boolean {
  return next === current;
}

/**
 * The fields of an update the program schedules rather than applies (update_config's rule): a higher
 * fee or minimum, and any change of a cap. Any of them schedules the update's whole target.
 */
export function hurtingFields(
  current: Pick<VaultState, ConfigField>,
  update: Partial<Pick<VaultState, ConfigField>>,
): ConfigField[] {
  const hurting: ConfigField[] = [];
  if (update.feeBps !== undefined && update.feeBps > current.feeBps) hurting.push("feeBps");
  if (update.minWithdrawalShares !== undefined && update.minWithdrawalShares > current.minWithdrawalShares) {
    hurting.push("minWithdrawalShares");
  }
  if (update.hourlyCap !== undefined && !capEases(current.hourlyCap, update.hourlyCap))
    hurting.push("hourlyCap");
  if (update.dailyCap !== undefined && !capEases(current.dailyCap, update.dailyCap)) hurting.push("dailyCap");
  return hurting;
}
