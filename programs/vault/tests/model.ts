// A pure BigInt model of the vault program, written from programs/vault/README.md alone. Each
// operation takes a state and returns the next state, or the custom error the program must refuse
// with. Token balances are modelled too: the wallets', the reserve's, the escrow's and the share supply.
//
// Where several refusals apply at once the README gives no precedence; the model takes "every account
// is validated before any effect" to put account-state refusals (a receipt already open, no receipt)
// before the vault-state and argument ones, which then follow the README's order of listing.
import { vaultErrorCode } from "../../../lib/vault/program/program-errors";
import { U64_MAX } from "../../../lib/vault/model/token-amount";

export { U64_MAX };
export const MAX_FEE_BPS = 1000;
/** A new protocol's max_partner_fee_bps, and the program's ceiling on it. */
export const DEFAULT_MAX_PARTNER_FEE_BPS = 100;
export const MAX_PARTNER_FEE_BPS = 500;
export const MAX_NAME_BYTES = 32;
/** The program's ceiling on the minimum withdrawal: 1,000 whole shares (test shares have 9 decimals). */
export const MAX_MIN_WITHDRAWAL_SHARES = 1_000n * 10n ** 9n;
const BPS_DENOMINATOR = 10_000n;
const SECONDS_PER_HOUR = 3600n;
const SECONDS_PER_DAY = 86_400n;
/** The decimals offset of 3: prices count 10^3 virtual shares and 1 virtual asset unit. */
export const VIRTUAL_SHARES = 1_000n;
export const VIRTUAL_ASSETS = 1n;

/** The protocol's NAV strike bounds the vault's strikes are checked against. */
export interface ModelNavBounds {
  maxGainBps: number;
  maxLossBps: number;
  minNavIntervalSeconds: number;
  /** Gain over time: bps a year, for the time since the previous strike (at most a day). */
  maxAnnualGainBps: number;
  /** Loss over time: bps a day, counted the same way. */
  maxDailyLossBps: number;
}

const NAV_CATCH_UP_SECONDS = SECONDS_PER_DAY;
const SECONDS_PER_YEAR = 365n * SECONDS_PER_DAY;

/**
 * The largest gain and loss a strike at `now` may report (README "NAV strike bounds"): per strike
 * floor(A × bps / 10000), and over time floor(A × rate × elapsed / (10000 × period)), elapsed since the
 * previous strike (or the vault's creation), at most a day.
 */
export function strikeLimits(
  vault: Pick<ModelVault, "totalAssets" | "navUpdatedAt">,
  bounds: ModelNavBounds,
  now: bigint,
): { gain: bigint; loss: bigint; gainPerStrike: bigint; lossPerStrike: bigint } {
  const since = now - vault.navUpdatedAt;
  const elapsed = since < 0n ? 0n : since > NAV_CATCH_UP_SECONDS ? NAV_CATCH_UP_SECONDS : since;
  const total = vault.totalAssets;
  const gainPerStrike = (total * BigInt(bounds.maxGainBps)) / BPS_DENOMINATOR;
  const lossPerStrike = (total * BigInt(bounds.maxLossBps)) / BPS_DENOMINATOR;
  const gainOverTime =
    (total * BigInt(bounds.maxAnnualGainBps) * elapsed) / (BPS_DENOMINATOR * SECONDS_PER_YEAR);
  const lossOverTime =
    (total * BigInt(bounds.maxDailyLossBps) * elapsed) / (BPS_DENOMINATOR * SECONDS_PER_DAY);
  return {
    gain: gainPerStrike < gainOverTime ? gainPerStrike : gainOverTime,
    loss: lossPerStrike < lossOverTime ? lossPerStrike : lossOverTime,
    gainPerStrike,
    lossPerStrike,
  };
}

export interface ModelVault {
  paused: boolean;
  name: string;
  feeBps: number;
  minWithdrawalShares: bigint;
  hourlyCap: bigint;
  dailyCap: bigint;
  totalAssets: bigint;
  totalShares: bigint;
  navSequence: bigint;
  navUpdatedAt: bigint;
  hourlyWindowStart: bigint;
  hourlyUsed: bigint;
  dailyWindowStart: bigint;
  dailyUsed: bigint;
  queueTail: bigint;
  queueFunded: bigint;
  queueClaimed: bigint;
  nextRequestId: bigint;
  pendingRequests: bigint;
  /** What an emptying claim left in NAV, moved out of it (stays in the reserve). */
  surplusAssets: bigint;
  /** The config a holder-hurting update scheduled, applied once `now ≥ pendingEffectiveAt` (0 = none). */
  pendingFeeBps: number;
  pendingMinWithdrawalShares: bigint;
  pendingHourlyCap: bigint;
  pendingDailyCap: bigint;
  pendingEffectiveAt: bigint;
  /** The manager's last staging (0 = never). */
  stagedAt: bigint;
  /** When the pause ends by itself; a manager's new one may start MAX_PAUSE_SECONDS after it. */
  pauseUntil: bigint;
  /** The pause is the protocol admin's (set_admin_pause): the manager cannot lift it while in force. */
  adminPaused: boolean;
}

/** The program's defaults for a new vault: 3 days of notice, 7 days of silence. */
export const CONFIG_NOTICE_SECONDS = 259_200n;
export const SILENCE_SECONDS = 604_800n;
/** A pause by the manager alone lasts at most 7 days, and the next starts at least 7 days after it ends. */
export const MAX_PAUSE_SECONDS = 604_800n;
/** The protocol admin's pause ends at most 30 days after it is set (it may set it again). */
export const MAX_ADMIN_PAUSE_SECONDS = 2_592_000n;

/** A pause is in force while set and not past its end. */
export function pausedAt(vault: ModelVault, now: bigint): boolean {
  return vault.paused && now < vault.pauseUntil;
}

/** update_config's pause flag: bounded, not lengthened while in force, a cooldown before the next. */
function setManagerPause(vault: ModelVault, pause: boolean, now: bigint): void {
  const inForce = pausedAt(vault, now);
  if (pause) {
    if (inForce) return;
    if (vault.pauseUntil !== 0n && now < vault.pauseUntil + MAX_PAUSE_SECONDS) refuse("PauseCooldown");
    vault.paused = true;
    vault.pauseUntil = now + MAX_PAUSE_SECONDS;
  } else {
    if (inForce) {
      if (vault.adminPaused) refuse("Unauthorized");
      vault.pauseUntil = now;
    }
    vault.paused = false;
  }
  vault.adminPaused = false;
}

/** set_admin_pause: until > now holds the pause until then (at most 30 days ahead); else lifts it. */
function setAdminPause(vault: ModelVault, byAdmin: boolean, until: bigint, now: bigint): void {
  if (!byAdmin) refuse("Unauthorized");
  if (until > now) {
    if (until - now > MAX_ADMIN_PAUSE_SECONDS) refuse("InvalidConfig");
    vault.paused = true;
    vault.pauseUntil = until;
    vault.adminPaused = true;
  } else {
    if (pausedAt(vault, now)) vault.pauseUntil = now;
    vault.paused = false;
    vault.adminPaused = false;
  }
}
/** A non-zero daily cap is at least 1% of NAV, an hourly one a 24th of that; both at least value(min). */
export const MIN_DAILY_CAP_BPS = 100n;

export interface ModelConfig {
  feeBps: number;
  minWithdrawalShares: bigint;
  hourlyCap: bigint;
  dailyCap: bigint;
}

export function currentConfig(vault: ModelVault): ModelConfig {
  const { feeBps, minWithdrawalShares, hourlyCap, dailyCap } = vault;
  return { feeBps, minWithdrawalShares, hourlyCap, dailyCap };
}

/** Only a kept cap applies at once: any other value, raised to u64::MAX included, waits the notice. */
export function capEases(current: bigint, next: bigint): boolean {
  return next === current;
}

/** Whether `next` is, field by field, no worse for a holder than `current`. */
export function configEases(current: ModelConfig, next: ModelConfig): boolean {
  return (
    next.feeBps <= current.feeBps &&
    next.minWithdrawalShares <= current.minWithdrawalShares &&
    capEases(current.hourlyCap, next.hourlyCap) &&
    capEases(current.dailyCap, next.dailyCap)
  );
}

/** Applies the scheduled config when its time has come; true when it did. */
export function applyDueConfig(vault: ModelVault, now: bigint): boolean {
  if (vault.pendingEffectiveAt === 0n || now < vault.pendingEffectiveAt) return false;
  vault.feeBps = vault.pendingFeeBps;
  vault.minWithdrawalShares = vault.pendingMinWithdrawalShares;
  vault.hourlyCap = vault.pendingHourlyCap;
  vault.dailyCap = vault.pendingDailyCap;
  vault.pendingEffectiveAt = 0n;
  return true;
}

function navSilent(vault: ModelVault, now: bigint): boolean {
  return now >= vault.navUpdatedAt + SILENCE_SECONDS;
}

export interface ModelReceipt {
  shares: bigint;
  assetsAtRequest: bigint;
  navFloor: bigint;
  requestId: bigint;
  requestedAt: bigint;
  queueStart: bigint;
  queueEnd: bigint;
  /** The vault's fee at request time: the claim charges this one. */
  feeBps: number;
  /** The request queued the last shares no request held: its fee leaves NAV (surplus) at the claim. */
  lastHolderExit: boolean;
}

export interface ModelWallet {
  assets: bigint;
  shares: bigint;
  receipt: ModelReceipt | null;
}

/** The most holes the program's QueueHoles account holds. */
export const MAX_QUEUE_HOLES = 16;

export interface ModelState {
  bounds: ModelNavBounds;
  vault: ModelVault;
  /**
   * The holes cancelled requests left inside the queue, [start, end) sorted by start; null until the
   * first cancel that leaves one creates the program's hole list.
   */
  holes: [bigint, bigint][] | null;
  reserve: bigint;
  escrow: bigint;
  shareSupply: bigint;
  wallets: ModelWallet[];
  /** The protocol's max_partner_fee_bps. */
  maxPartnerFeeBps: number;
  /** The asset balances of the partners' associated token accounts. */
  partners: bigint[];
}

export interface VaultSettingsInput {
  name: string;
  feeBps: number;
  minWithdrawalShares: bigint;
  hourlyCap: bigint;
  dailyCap: bigint;
}

export interface ConfigUpdateInput {
  feeBps?: number;
  minWithdrawalShares?: bigint;
  hourlyCap?: bigint;
  dailyCap?: bigint;
  paused?: boolean;
  name?: string;
}

export type ModelOperation =
  | { kind: "deposit"; wallet: number; amount: bigint; minSharesOut: bigint }
  /** deposit_with_partner_fee paying `partner`'s ATA `feeBps` of `amount` (rounded down). */
  | {
      kind: "depositWithPartnerFee";
      wallet: number;
      partner: number;
      amount: bigint;
      minSharesOut: bigint;
      feeBps: number;
    }
  /** set_max_partner_fee signed by the protocol's admin, or (byAdmin false) by the manager. */
  | { kind: "setMaxPartnerFee"; maxPartnerFeeBps: number; byAdmin: boolean }
  | { kind: "requestWithdrawal"; wallet: number; shares: bigint; maxFeeBps: number }
  | { kind: "claimWithdrawal"; wallet: number }
  | { kind: "cancelWithdrawal"; wallet: number }
  | { kind: "updateNav"; gain: bigint; loss: bigint }
  | { kind: "stageWithdrawals"; maxShares: bigint }
  /** A stranger's stage_withdrawals, naming `head`'s receipt (null: none) for the silence hatch. */
  | { kind: "stageWithdrawalsByStranger"; maxShares: bigint; head: number | null }
  | { kind: "updateConfig"; update: ConfigUpdateInput }
  /** set_admin_pause signed by the protocol's admin, or (byAdmin false) by the manager. */
  | { kind: "setAdminPause"; until: bigint; byAdmin: boolean }
  /** Assets reach the reserve outside the program (realised yield): a plain token transfer. */
  | { kind: "receiveYield"; amount: bigint }
  | { kind: "warp"; seconds: bigint };

export type ModelOutcome = { ok: true; state: ModelState } | { ok: false; code: number };

class Refusal extends Error {
  readonly code: number;

  constructor(errorName: string) {
    super(errorName);
    this.code = vaultErrorCode(errorName);
  }
}

function refuse(errorName: string): never {
  throw new Refusal(errorName);
}

/** Every intermediate and stored value must fit in a u64 (README: all arithmetic is checked, 6003). */
function checkedU64(value: bigint): bigint {
  if (value < 0n || value > U64_MAX) {
    refuse("MathOverflow");
  }
  return value;
}

function divideRoundingDown(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) {
    refuse("MathOverflow");
  }
  return numerator / denominator;
}

function divideRoundingUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) {
    refuse("MathOverflow");
  }
  return (numerator + denominator - 1n) / denominator;
}

/** value(shares) = floor(shares × (total_assets + 1) / (total_shares + 10^3)). */
export function valueOfShares(
  vault: Pick<ModelVault, "totalAssets" | "totalShares">,
  shares: bigint,
): bigint {
  return checkedU64(
    divideRoundingDown(
      shares * checkedU64(vault.totalAssets + VIRTUAL_ASSETS),
      checkedU64(vault.totalShares + VIRTUAL_SHARES),
    ),
  );
}

/** value(shares) rounded up: what the vault must hold to be sure it can pay them. */
export function valueOfSharesRoundedUp(vault: ModelVault, shares: bigint): bigint {
  return checkedU64(
    divideRoundingUp(
      shares * checkedU64(vault.totalAssets + VIRTUAL_ASSETS),
      checkedU64(vault.totalShares + VIRTUAL_SHARES),
    ),
  );
}

/** shares = floor(amount × (total_shares + 10^3) / (total_assets + 1)): rounded down, the vault's favour. */
export function sharesForDeposit(vault: ModelVault, amount: bigint): bigint {
  return checkedU64(
    divideRoundingDown(
      amount * checkedU64(vault.totalShares + VIRTUAL_SHARES),
      checkedU64(vault.totalAssets + VIRTUAL_ASSETS),
    ),
  );
}

export function withdrawalFee(gross: bigint, feeBps: number): bigint {
  return checkedU64(divideRoundingUp(gross * BigInt(feeBps), BPS_DENOMINATOR));
}

function nameIsValid(name: string): boolean {
  const length = new TextEncoder().encode(name).length;
  return length >= 1 && length <= MAX_NAME_BYTES;
}

function windowStart(now: bigint, length: bigint): bigint {
  return now - (now % length);
}

/** Windows are aligned to UTC; a later window start resets its usage. */
function rollWindows(vault: ModelVault, now: bigint): void {
  const hourlyStart = windowStart(now, SECONDS_PER_HOUR);
  if (hourlyStart > vault.hourlyWindowStart) {
    vault.hourlyWindowStart = hourlyStart;
    vault.hourlyUsed = 0n;
  }
  const dailyStart = windowStart(now, SECONDS_PER_DAY);
  if (dailyStart > vault.dailyWindowStart) {
    vault.dailyWindowStart = dailyStart;
    vault.dailyUsed = 0n;
  }
}

function saturatingSubtract(value: bigint, amount: bigint): bigint {
  return value > amount ? value - amount : 0n;
}

/**
 * The state right after initialize_vault at `now`, or the refusal. The README leaves the starting
 * NAV timestamp, windows and request counter open; the model takes initialisation as the first NAV
 * (stamped now, sequence 0), opens the windows containing now, and numbers requests from 0.
 */
export function initializeModel(
  settings: VaultSettingsInput,
  walletAssets: readonly bigint[],
  now: bigint,
  bounds: ModelNavBounds = {
    maxGainBps: 10_000,
    maxLossBps: 10_000,
    minNavIntervalSeconds: 0,
    maxAnnualGainBps: 10_000,
    maxDailyLossBps: 1_000,
  },
  partnerCount = 0,
): { ok: true; state: ModelState } | { ok: false; code: number } {
  if (
    settings.feeBps > MAX_FEE_BPS ||
    !nameIsValid(settings.name) ||
    settings.minWithdrawalShares > MAX_MIN_WITHDRAWAL_SHARES
  ) {
    return { ok: false, code: vaultErrorCode("InvalidConfig") };
  }
  return {
    ok: true,
    state: {
      bounds: { ...bounds },
      vault: {
        paused: false,
        name: settings.name,
        feeBps: settings.feeBps,
        minWithdrawalShares: settings.minWithdrawalShares,
        hourlyCap: settings.hourlyCap,
        dailyCap: settings.dailyCap,
        totalAssets: 0n,
        totalShares: 0n,
        navSequence: 0n,
        navUpdatedAt: now,
        hourlyWindowStart: windowStart(now, SECONDS_PER_HOUR),
        hourlyUsed: 0n,
        dailyWindowStart: windowStart(now, SECONDS_PER_DAY),
        dailyUsed: 0n,
        queueTail: 0n,
        queueFunded: 0n,
        queueClaimed: 0n,
        nextRequestId: 0n,
        pendingRequests: 0n,
        surplusAssets: 0n,
        pendingFeeBps: 0,
        pendingMinWithdrawalShares: 0n,
        pendingHourlyCap: 0n,
        pendingDailyCap: 0n,
        pendingEffectiveAt: 0n,
        stagedAt: 0n,
        pauseUntil: 0n,
        adminPaused: false,
      },
      holes: null,
      reserve: 0n,
      escrow: 0n,
      shareSupply: 0n,
      wallets: walletAssets.map((assets) => ({ assets, shares: 0n, receipt: null })),
      maxPartnerFeeBps: DEFAULT_MAX_PARTNER_FEE_BPS,
      partners: Array.from({ length: partnerCount }, () => 0n),
    },
  };
}

function walletAt(state: ModelState, index: number): ModelWallet {
  const wallet = state.wallets[index];
  if (wallet === undefined) {
    throw new Error(`The model has no wallet ${index}`);
  }
  return wallet;
}

function deposit(
  state: ModelState,
  walletIndex: number,
  amount: bigint,
  minSharesOut: bigint,
  now: bigint,
): void {
  const { vault } = state;
  const wallet = walletAt(state, walletIndex);
  if (pausedAt(vault, now)) refuse("VaultPaused");
  if (amount === 0n) refuse("InvalidAmount");
  const shares = sharesForDeposit(vault, amount);
  if (shares === 0n) refuse("InvalidAmount");
  if (shares < minSharesOut) refuse("SlippageExceeded");
  vault.totalAssets = checkedU64(vault.totalAssets + amount);
  vault.totalShares = checkedU64(vault.totalShares + shares);
  rollWindows(vault, now);
  vault.hourlyUsed = saturatingSubtract(vault.hourlyUsed, amount);
  vault.dailyUsed = saturatingSubtract(vault.dailyUsed, amount);
  wallet.assets -= amount;
  wallet.shares += shares;
  state.reserve += amount;
  state.shareSupply += shares;
}

/** A partner's fee on `amount`: floor(amount × bps / 10000), so never more than the bps. */
export function partnerFee(amount: bigint, feeBps: number): bigint {
  return (amount * BigInt(feeBps)) / BPS_DENOMINATOR;
}

/**
 * deposit_with_partner_fee: refused as deposit when paused; 0 bps (a plain deposit is deposit) or
 * above the protocol's maximum refused; the fee goes to the partner, the rest is deposited as deposit
 * does (min_shares_out against its shares).
 */
function depositWithPartnerFee(
  state: ModelState,
  operation: Extract<ModelOperation, { kind: "depositWithPartnerFee" }>,
  now: bigint,
): void {
  if (pausedAt(state.vault, now)) refuse("VaultPaused");
  if (operation.feeBps === 0) refuse("InvalidAmount");
  if (operation.feeBps > state.maxPartnerFeeBps) refuse("PartnerFeeAboveMaximum");
  const fee = partnerFee(operation.amount, operation.feeBps);
  deposit(state, operation.wallet, operation.amount - fee, operation.minSharesOut, now);
  walletAt(state, operation.wallet).assets -= fee;
  const partner = state.partners[operation.partner];
  if (partner === undefined) throw new Error(`The model has no partner ${operation.partner}`);
  state.partners[operation.partner] = partner + fee;
}

function setMaxPartnerFee(state: ModelState, maxPartnerFeeBps: number, byAdmin: boolean): void {
  if (!byAdmin) refuse("Unauthorized");
  if (maxPartnerFeeBps > MAX_PARTNER_FEE_BPS) refuse("InvalidConfig");
  state.maxPartnerFeeBps = maxPartnerFeeBps;
}

function requestWithdrawal(
  state: ModelState,
  walletIndex: number,
  shares: bigint,
  maxFeeBps: number,
  now: bigint,
): void {
  const { vault } = state;
  const wallet = walletAt(state, walletIndex);
  if (wallet.receipt !== null) refuse("WithdrawalAlreadyPending");
  if (pausedAt(vault, now) && !navSilent(vault, now)) refuse("VaultPaused");
  applyDueConfig(vault, now);
  if (shares === 0n) refuse("InvalidAmount");
  if (vault.feeBps > maxFeeBps) refuse("FeeAboveMaximum");
  // A holder can always request every share it holds (its associated account's: the model's wallets
  // hold shares only there), whatever the minimum.
  if (shares < vault.minWithdrawalShares && shares !== wallet.shares) refuse("BelowMinimumWithdrawal");
  const assets = valueOfShares(vault, shares);
  rollWindows(vault, now);
  const hourlyUsed = checkedU64(vault.hourlyUsed + assets);
  if (vault.hourlyCap > 0n && hourlyUsed > vault.hourlyCap) refuse("HourlyWithdrawalCapExceeded");
  const dailyUsed = checkedU64(vault.dailyUsed + assets);
  if (vault.dailyCap > 0n && dailyUsed > vault.dailyCap) refuse("DailyWithdrawalCapExceeded");
  vault.hourlyUsed = hourlyUsed;
  vault.dailyUsed = dailyUsed;
  // Shares no request holds: not those in the escrow (queue_tail − queue_claimed also counts holes).
  const unqueued = vault.totalShares - state.escrow;
  const queueEnd = checkedU64(vault.queueTail + shares);
  wallet.receipt = {
    shares,
    assetsAtRequest: assets,
    navFloor: vault.navSequence,
    requestId: vault.nextRequestId,
    requestedAt: now,
    queueStart: vault.queueTail,
    queueEnd,
    feeBps: vault.feeBps,
    lastHolderExit: shares === unqueued,
  };
  vault.nextRequestId = checkedU64(vault.nextRequestId + 1n);
  vault.queueTail = queueEnd;
  vault.pendingRequests = checkedU64(vault.pendingRequests + 1n);
  wallet.shares -= shares;
  state.escrow += shares;
}

function claimWithdrawal(state: ModelState, walletIndex: number, now: bigint): void {
  const { vault } = state;
  const wallet = walletAt(state, walletIndex);
  const receipt = wallet.receipt;
  if (receipt === null) refuse("NoPendingWithdrawal");
  // No pause check: a pause never stops the claim of a funded, claimable receipt.
  // After the manager's silence (no strike), the last struck NAV pays.
  if (vault.navSequence <= receipt.navFloor && !navSilent(vault, now)) refuse("NavFloorNotPassed");
  if (vault.queueFunded < receipt.queueEnd) refuse("QueueNotFunded");
  const gross = valueOfShares(vault, receipt.shares);
  const fee = withdrawalFee(gross, receipt.feeBps);
  const net = gross - fee;
  if (state.reserve < net) refuse("InsufficientLiquidity");
  vault.totalAssets = checkedU64(vault.totalAssets - net);
  vault.totalShares = checkedU64(vault.totalShares - receipt.shares);
  if (receipt.lastHolderExit) {
    // No holder was left to leave the fee to: it leaves NAV, so a deposit made meanwhile cannot take it.
    const kept = fee < vault.totalAssets ? fee : vault.totalAssets;
    vault.surplusAssets = checkedU64(vault.surplusAssets + kept);
    vault.totalAssets -= kept;
  }
  if (vault.totalShares === 0n) {
    // No share is left to own what NAV still counts: it leaves NAV as surplus.
    vault.surplusAssets = checkedU64(vault.surplusAssets + vault.totalAssets);
    vault.totalAssets = 0n;
  }
  vault.queueClaimed = checkedU64(vault.queueClaimed + receipt.shares);
  vault.pendingRequests = checkedU64(vault.pendingRequests - 1n);
  state.escrow -= receipt.shares;
  state.shareSupply -= receipt.shares;
  state.reserve -= net;
  wallet.assets += net;
  wallet.receipt = null;
}

function updateNav(state: ModelState, gain: bigint, loss: bigint, now: bigint): void {
  const { vault, bounds } = state;
  if (gain > (vault.totalAssets * BigInt(bounds.maxGainBps)) / BPS_DENOMINATOR) refuse("NavGainAboveBound");
  if (loss > (vault.totalAssets * BigInt(bounds.maxLossBps)) / BPS_DENOMINATOR) refuse("NavLossAboveBound");
  if (vault.navSequence > 0n && now < vault.navUpdatedAt + BigInt(bounds.minNavIntervalSeconds)) {
    refuse("NavStrikeTooSoon");
  }
  const limits = strikeLimits(vault, bounds, now);
  if (gain > limits.gain) refuse("NavGainAboveRate");
  if (loss > limits.loss) refuse("NavLossAboveRate");
  vault.totalAssets = checkedU64(checkedU64(vault.totalAssets + gain) - loss);
  vault.navSequence = checkedU64(vault.navSequence + 1n);
  vault.navUpdatedAt = now;
}

/** The funded frontier passes the holes it has reached: their shares count as settled, at no asset cost. */
function passHoles(state: ModelState): void {
  const { vault } = state;
  for (;;) {
    const index = (state.holes ?? []).findIndex(([start]) => start === vault.queueFunded);
    const hole = state.holes?.[index];
    if (hole === undefined) {
      return;
    }
    state.holes?.splice(index, 1);
    vault.queueClaimed = checkedU64(vault.queueClaimed + (hole[1] - hole[0]));
    vault.queueFunded = hole[1];
  }
}

/**
 * stage_withdrawals: liabilities = value of the funded, unclaimed shares rounded up; the idle rest of
 * the reserve buys at most `affordable` shares; those and at most `maxShares` fund live requests in
 * FIFO order from the frontier, holes passed for free; the manager's staging records its time.
 */
function stageWithdrawals(state: ModelState, maxShares: bigint, now: bigint, byManager = true): void {
  const { vault } = state;
  if (maxShares === 0n) refuse("InvalidAmount");
  if (vault.queueTail === vault.queueFunded) {
    return;
  }
  const outstanding = vault.queueFunded - vault.queueClaimed;
  const liabilities = valueOfSharesRoundedUp(vault, outstanding);
  const idle = saturatingSubtract(state.reserve, liabilities);
  const affordable = sharesForDeposit(vault, idle);
  const budget = maxShares < affordable ? maxShares : affordable;
  let staged = 0n;
  for (;;) {
    passHoles(state);
    if (vault.queueFunded >= vault.queueTail || staged === budget) {
      break;
    }
    const nextHole = (state.holes ?? []).find(([start]) => start > vault.queueFunded);
    const stop = nextHole === undefined ? vault.queueTail : nextHole[0];
    const room = stop - vault.queueFunded;
    const step = room < budget - staged ? room : budget - staged;
    vault.queueFunded += step;
    staged += step;
  }
  if (staged === 0n) refuse("InsufficientLiquidity");
  // The manager's staging ends its silence; a stranger's does not.
  if (byManager) vault.stagedAt = now;
}

/** The manager has not staged for the silence period (never: counted from its last strike). */
export function stagingSilent(vault: ModelVault, now: bigint): boolean {
  const last = vault.stagedAt === 0n ? vault.navUpdatedAt : vault.stagedAt;
  return now >= last + SILENCE_SECONDS;
}

/** A receipt not wholly funded that has waited the silence period: anyone may stage naming it. */
export function waitedSilence(vault: ModelVault, receipt: ModelReceipt, now: bigint): boolean {
  return receipt.queueEnd > vault.queueFunded && now >= receipt.requestedAt + SILENCE_SECONDS;
}

/**
 * stage_withdrawals by anyone but the manager (the silence hatch): allowed once the manager has not
 * staged for the silence period, or naming a receipt that has waited it unfunded; else Unauthorized.
 * It stages as the manager would, at the last struck NAV, and does not end the manager's silence.
 */
function stageWithdrawalsByStranger(
  state: ModelState,
  maxShares: bigint,
  head: number | null,
  now: bigint,
): void {
  const { vault } = state;
  if (!stagingSilent(vault, now)) {
    if (head === null) refuse("Unauthorized");
    // The named receipt's account: one that does not exist is not the program's.
    const receipt = walletAt(state, head).receipt;
    if (receipt === null) refuse("InvalidAccountOwner");
    if (!waitedSilence(vault, receipt, now)) refuse("Unauthorized");
  }
  stageWithdrawals(state, maxShares, now, false);
}

/**
 * cancel_withdrawal (the owner; also while paused): the request leaves the queue — the tail shrinks
 * when it is last and wholly unfunded (and past a hole just before it); reached by the funded frontier
 * it is settled (queue_claimed += shares, the frontier past it); otherwise it becomes a hole, merged
 * with neighbouring holes, refused when a new one would exceed MAX_QUEUE_HOLES, and refused for a
 * request below the minimum (dust never becomes a hole). The cap usage comes back to the windows it
 * was charged in. The receipt's fee, in shares rounded up, is burned (NAV keeps its value: it stays
 * with the holders; were they the last shares, NAV leaves as surplus); the rest go back from the escrow.
 */
function cancelWithdrawal(state: ModelState, walletIndex: number, now: bigint): void {
  const { vault } = state;
  const wallet = walletAt(state, walletIndex);
  const receipt = wallet.receipt;
  if (receipt === null) refuse("NoPendingWithdrawal");
  const { queueStart: start, queueEnd: end, shares } = receipt;
  const becomesHole = !(vault.queueFunded <= start && end === vault.queueTail) && vault.queueFunded < start;
  if (becomesHole && shares < vault.minWithdrawalShares) refuse("SmallRequestCannotLeaveQueue");
  if (vault.queueFunded <= start && end === vault.queueTail) {
    vault.queueTail = start;
    const before = (state.holes ?? []).findIndex(([, holeEnd]) => holeEnd === start);
    const hole = state.holes?.[before];
    if (hole !== undefined) {
      state.holes?.splice(before, 1);
      vault.queueTail = hole[0];
    }
  } else if (vault.queueFunded >= start) {
    vault.queueClaimed = checkedU64(vault.queueClaimed + shares);
    if (vault.queueFunded < end) {
      vault.queueFunded = end;
    }
    passHoles(state);
  } else {
    const holes = state.holes ?? [];
    const before = holes.find(([, holeEnd]) => holeEnd === start);
    const after = holes.find(([holeStart]) => holeStart === end);
    if (before !== undefined && after !== undefined) {
      before[1] = after[1];
      holes.splice(holes.indexOf(after), 1);
    } else if (before !== undefined) {
      before[1] = end;
    } else if (after !== undefined) {
      after[0] = start;
    } else {
      if (holes.length >= MAX_QUEUE_HOLES) refuse("QueueHolesFull");
      holes.push([start, end]);
      holes.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    }
    state.holes = holes;
  }
  rollWindows(vault, now);
  if (windowStart(receipt.requestedAt, SECONDS_PER_HOUR) === vault.hourlyWindowStart) {
    vault.hourlyUsed = saturatingSubtract(vault.hourlyUsed, receipt.assetsAtRequest);
  }
  if (windowStart(receipt.requestedAt, SECONDS_PER_DAY) === vault.dailyWindowStart) {
    vault.dailyUsed = saturatingSubtract(vault.dailyUsed, receipt.assetsAtRequest);
  }
  vault.pendingRequests = checkedU64(vault.pendingRequests - 1n);
  const feeShares = withdrawalFee(shares, receipt.feeBps);
  vault.totalShares = checkedU64(vault.totalShares - feeShares);
  if (vault.totalShares === 0n) {
    vault.surplusAssets = checkedU64(vault.surplusAssets + vault.totalAssets);
    vault.totalAssets = 0n;
  }
  state.escrow -= shares;
  state.shareSupply -= feeShares;
  wallet.shares += shares - feeShares;
  wallet.receipt = null;
}

function updateConfig(state: ModelState, update: ConfigUpdateInput, now: bigint): void {
  const { vault } = state;
  if (update.feeBps !== undefined && update.feeBps > MAX_FEE_BPS) refuse("InvalidConfig");
  if (update.name !== undefined && !nameIsValid(update.name)) refuse("InvalidConfig");
  if (update.minWithdrawalShares !== undefined && update.minWithdrawalShares > MAX_MIN_WITHDRAWAL_SHARES) {
    refuse("InvalidConfig");
  }
  applyDueConfig(vault, now);
  const current = currentConfig(vault);
  const target: ModelConfig = {
    feeBps: update.feeBps ?? current.feeBps,
    minWithdrawalShares: update.minWithdrawalShares ?? current.minWithdrawalShares,
    hourlyCap: update.hourlyCap ?? current.hourlyCap,
    dailyCap: update.dailyCap ?? current.dailyCap,
  };
  if (
    update.minWithdrawalShares !== undefined ||
    update.hourlyCap !== undefined ||
    update.dailyCap !== undefined
  ) {
    const minimumValue = valueOfShares(vault, target.minWithdrawalShares);
    const dailyShare = (vault.totalAssets * MIN_DAILY_CAP_BPS) / 10_000n;
    const hourlyShare = dailyShare / 24n;
    const dailyFloor = dailyShare > minimumValue ? dailyShare : minimumValue;
    const hourlyFloor = hourlyShare > minimumValue ? hourlyShare : minimumValue;
    if (
      (target.hourlyCap !== 0n && target.hourlyCap < hourlyFloor) ||
      (target.dailyCap !== 0n && target.dailyCap < dailyFloor)
    ) {
      refuse("CapBelowFloor");
    }
  }
  const touchesExits =
    update.feeBps !== undefined ||
    update.minWithdrawalShares !== undefined ||
    update.hourlyCap !== undefined ||
    update.dailyCap !== undefined;
  if (touchesExits) {
    // Each easing field applies now; if any field hurts, the whole target waits out the notice.
    if (target.feeBps <= current.feeBps) vault.feeBps = target.feeBps;
    if (target.minWithdrawalShares <= current.minWithdrawalShares) {
      vault.minWithdrawalShares = target.minWithdrawalShares;
    }
    if (capEases(current.hourlyCap, target.hourlyCap)) vault.hourlyCap = target.hourlyCap;
    if (capEases(current.dailyCap, target.dailyCap)) vault.dailyCap = target.dailyCap;
    if (configEases(current, target)) {
      vault.pendingEffectiveAt = 0n;
    } else {
      vault.pendingFeeBps = target.feeBps;
      vault.pendingMinWithdrawalShares = target.minWithdrawalShares;
      vault.pendingHourlyCap = target.hourlyCap;
      vault.pendingDailyCap = target.dailyCap;
      vault.pendingEffectiveAt = now + CONFIG_NOTICE_SECONDS;
    }
  }
  if (update.paused !== undefined) setManagerPause(vault, update.paused, now);
  if (update.name !== undefined) vault.name = update.name;
}

/** Applies one operation at time `now` (the clock after any warp) without touching `state`. */
export function applyOperation(state: ModelState, operation: ModelOperation, now: bigint): ModelOutcome {
  const next = structuredClone(state);
  try {
    switch (operation.kind) {
      case "deposit":
        deposit(next, operation.wallet, operation.amount, operation.minSharesOut, now);
        break;
      case "depositWithPartnerFee":
        depositWithPartnerFee(next, operation, now);
        break;
      case "setMaxPartnerFee":
        setMaxPartnerFee(next, operation.maxPartnerFeeBps, operation.byAdmin);
        break;
      case "requestWithdrawal":
        requestWithdrawal(next, operation.wallet, operation.shares, operation.maxFeeBps, now);
        break;
      case "claimWithdrawal":
        claimWithdrawal(next, operation.wallet, now);
        break;
      case "cancelWithdrawal":
        cancelWithdrawal(next, operation.wallet, now);
        break;
      case "updateNav":
        updateNav(next, operation.gain, operation.loss, now);
        break;
      case "stageWithdrawals":
        stageWithdrawals(next, operation.maxShares, now);
        break;
      case "stageWithdrawalsByStranger":
        stageWithdrawalsByStranger(next, operation.maxShares, operation.head, now);
        break;
      case "updateConfig":
        updateConfig(next, operation.update, now);
        break;
      case "setAdminPause":
        setAdminPause(next.vault, operation.byAdmin, operation.until, now);
        break;
      case "receiveYield":
        next.reserve += operation.amount;
        break;
      case "warp":
        break;
    }
  } catch (error) {
    if (error instanceof Refusal) {
      return { ok: false, code: error.code };
    }
    throw error;
  }
  return { ok: true, state: next };
}
