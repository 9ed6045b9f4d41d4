// The manager's service: for each vault it manages, a NAV strike once per period (the first tick of
// each NAV_INTERVAL-aligned period) from a NAV source, clamped to the bounds its protocol account keeps
// on chain (the program refuses a strike beyond them) and refused when a second RPC disagrees on the
// vault's assets, the withdrawal queue funded when the reserve allows, claimable withdrawals
// delivered to their owners (the program's claim is permissionless and pays only the receipt's owner;
// the keeper pays the fee), and an emptied hole list closed, so its rent goes back to the wallet whose
// cancel paid it (close_queue_holes is permissionless too and pays only that wallet). It decides from chain state alone (the vault's
// nav_updated_at against the period), so a keeper restarted after a crash, or one taking over from
// a leader that died mid-cycle, never strikes a period twice. Several may run: the one holding the
// leader lock acts, the others wait. The local chain runs this same keeper in its process (see
// localnet/keeper.ts), and its tests drive it on demand through strikeNav and stageWithdrawals.
import {
  SYSVAR_CLOCK_PUBKEY,
  type Keypair,
  type PublicKey,
  type TransactionInstruction,
} from "@solana/web3.js";

import {
  TOKEN_PROGRAM_ID,
  buildMintToInstruction,
  decodeTokenAccount,
  findAssociatedTokenAddress,
} from "../chain/spl-token";
import type { LeaderLock } from "../indexer/leader-lock";
import { readProgramVaults, readVaultReceipts, type VaultReceipt } from "../indexer/chain-reads";
import { processMetrics } from "../observability/metrics";
import { ChainClient, TransactionFailedError, programsOf } from "../operator/chain-client";
import {
  decodeProtocolState,
  decodeQueueHolesState,
  decodeReceiptState,
  decodeVaultState,
  type VaultState,
} from "../vault/program/accounts";
import { VAULT_PROGRAM_ID } from "../vault/program/idl";
import { findQueueHoles } from "../vault/program/addresses";
import {
  buildClaimWithdrawalInstruction,
  buildCloseQueueHolesInstruction,
  buildStageWithdrawalsInstruction,
  buildUpdateNavInstruction,
} from "../vault/program/instructions";
import { vaultErrorCode } from "../vault/program/program-errors";
import { claimAmounts, claimBlockers } from "../vault/model/withdrawal-rules";
import type { NavSource } from "./nav-source";

const BPS = 10_000n;
const INSUFFICIENT_LIQUIDITY = vaultErrorCode("InsufficientLiquidity");

/** What the program lets one strike do: the protocol account's bounds. */
export interface StrikeBounds {
  /** Largest gain in one strike, in bps of the vault's current total assets. */
  maxGainBps: bigint;
  maxLossBps: bigint;
  /** Least seconds between two strikes of one vault (its first strike is exempt). */
  minIntervalSeconds: bigint;
  /** Largest gain over time: bps a year of the vault's total assets, for the time since the last strike. */
  maxAnnualGainBps: bigint;
  /** Largest loss over time: bps a day, counted the same way. */
  maxDailyLossBps: bigint;
}

const DAY = 86_400n;
const YEAR = 365n * DAY;

export interface KeeperSettings {
  navIntervalSeconds: number;
  stageIntervalSeconds: number;
  /** Most shares one stage_withdrawals call funds. */
  stageMaxShares: bigint;
  /** Seconds between looks at the chain. */
  tickSeconds: number;
  /** Attempts per action before the keeper gives up until the next tick. */
  attempts: number;
  /** First retry delay; doubled for each further one. */
  backoffMs: number;
  /** Most claimable withdrawals delivered per vault in one pass (oldest request first); 0: none. */
  deliverMaxPerPass: number;
  /**
   * How many slots apart the two RPCs' reads of a vault may be (with a check RPC): further apart, the
   * reads are not of the same chain moment and the strike waits.
   */
  checkMaxSlotLag: number;
}

export const DEFAULT_KEEPER_SETTINGS: KeeperSettings = {
  navIntervalSeconds: 60,
  stageIntervalSeconds: 20,
  stageMaxShares: 25_000_000_000n,
  tickSeconds: 2,
  attempts: 4,
  backoffMs: 500,
  deliverMaxPerPass: 10,
  checkMaxSlotLag: 25,
};

export interface KeeperOptions {
  client: ChainClient;
  manager: Keypair;
  navSource: NavSource;
  lock: LeaderLock;
  /** The vaults to keep, or every vault of a protocol this manager manages. */
  vaults: PublicKey[] | { protocol: PublicKey };
  /**
   * A second RPC (another provider) that must agree, exactly, on the vault's assets and NAV sequence
   * the keeper strikes from; absent: the keeper trusts `client` alone (and says so at start).
   */
  checkClient?: ChainClient;
  /** Mints simulated yield into the reserve (a test mint's authority); absent: the yield is only reported. */
  mintAuthority?: Keypair;
  settings?: Partial<KeeperSettings>;
  /** The keeper's name in logs and in the keeper_leader metric. */
  name?: string;
  programId?: PublicKey;
  log?: (line: string) => void;
  /**
   * The time periods and the bounds' interval are judged by, in ms; default: the chain's own clock (the
   * Clock sysvar), which stamps nav_updated_at. A wall clock ahead of the chain's would strike a period
   * the chain still counts as struck.
   */
  now?: () => number;
}

/** The Clock sysvar's unix_timestamp: after slot, epoch_start_timestamp, epoch, leader_schedule_epoch. */
const CLOCK_UNIX_TIMESTAMP_OFFSET = 32;

export type StrikeDecision =
  | { strike: false; reason: "struck this period" | "too soon for the bounds" | "empty vault" }
  | { strike: true; gain: bigint; loss: bigint; target: bigint; clamped: boolean };

/** Unix seconds → the NAV period it falls in. */
export function periodOf(unixSeconds: bigint, intervalSeconds: number): bigint {
  return unixSeconds / BigInt(intervalSeconds);
}

/**
 * Whether to strike now, and the change to report: the source's total, clamped to the bounds. A strike
 * on demand (`anyPeriod`) skips the once-a-period rule; the bounds still hold.
 */
export function decideStrike(
  vault: Pick<VaultState, "totalAssets" | "navUpdatedAt" | "navSequence">,
  target: bigint | null,
  now: bigint,
  navIntervalSeconds: number,
  bounds: StrikeBounds,
  anyPeriod = false,
): StrikeDecision {
  // nav_updated_at is the creation time until the first strike, which the program lets through at once.
  const struck = vault.navSequence > 0n;
  if (
    !anyPeriod &&
    struck &&
    periodOf(vault.navUpdatedAt, navIntervalSeconds) >= periodOf(now, navIntervalSeconds)
  ) {
    return { strike: false, reason: "struck this period" };
  }
  if (struck && now - vault.navUpdatedAt < bounds.minIntervalSeconds) {
    return { strike: false, reason: "too soon for the bounds" };
  }
  // Nothing to price: any gain is above a bound of 0, and a strike of 0 would only start the interval.
  if (vault.totalAssets === 0n) {
    return { strike: false, reason: "empty vault" };
  }
  const wanted = target ?? vault.totalAssets;
  let change = wanted - vault.totalAssets;
  let clamped = false;
  // The program's bounds, checked on the gain and the loss alone: per strike floor(total × bps / 10,000),
  // and over time floor(total × rate × elapsed / (10,000 × period)), elapsed since the last strike (or
  // the vault's creation), at most a day.
  const sinceLast = now - vault.navUpdatedAt;
  const elapsed = sinceLast < 0n ? 0n : sinceLast > DAY ? DAY : sinceLast;
  const smaller = (a: bigint, b: bigint): bigint => (a < b ? a : b);
  const maxGain = smaller(
    (vault.totalAssets * bounds.maxGainBps) / BPS,
    (vault.totalAssets * bounds.maxAnnualGainBps * elapsed) / (BPS * YEAR),
  );
  const maxLoss = smaller(
    (vault.totalAssets * bounds.maxLossBps) / BPS,
    (vault.totalAssets * bounds.maxDailyLossBps * elapsed) / (BPS * DAY),
  );
  if (change > maxGain) {
    change = maxGain;
    clamped = true;
  } else if (change < -maxLoss) {
    change = -maxLoss;
    clamped = true;
  }
  return {
    strike: true,
    gain: change > 0n ? change : 0n,
    loss: change < 0n ? -change : 0n,
    target: vault.totalAssets + change,
    clamped,
  };
}

/** A protocol account's bounds, as the keeper clamps to them. */
export function strikeBoundsOf(protocol: {
  maxGainBps: number;
  maxLossBps: number;
  minNavIntervalSeconds: number;
  maxAnnualGainBps: number;
  maxDailyLossBps: number;
}): StrikeBounds {
  return {
    maxGainBps: BigInt(protocol.maxGainBps),
    maxLossBps: BigInt(protocol.maxLossBps),
    minIntervalSeconds: BigInt(protocol.minNavIntervalSeconds),
    maxAnnualGainBps: BigInt(protocol.maxAnnualGainBps),
    maxDailyLossBps: BigInt(protocol.maxDailyLossBps),
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

interface KeptVault {
  address: PublicKey;
  state: VaultState;
}

export interface StrikeReport {
  vault: string;
  signature: string;
  gain: bigint;
  loss: bigint;
  navSequence: bigint;
}

export interface StagingReport {
  vault: string;
  signature: string;
  funded: bigint;
  tail: bigint;
}

/** An emptied hole list the keeper closed: its rent (`lamports`) went back to `payer`. */
export interface HoleListReport {
  vault: string;
  signature: string;
  payer: string;
  lamports: bigint;
}

export type DeliveryOutcome = "delivered" | "already claimed" | "no asset account" | "failed";

export interface DeliveryReport {
  vault: string;
  owner: string;
  requestId: bigint;
  outcome: DeliveryOutcome;
  /** The net amount paid to the owner (delivered only), from the vault as read just before the claim. */
  net: bigint | null;
  signature: string | null;
}

export interface CycleReport {
  leader: boolean;
  strikes: StrikeReport[];
  stagings: StagingReport[];
  holeListsClosed: HoleListReport[];
  deliveries: DeliveryReport[];
}

/** The reads of one vault by the keeper's RPC and its check RPC disagree: why, for the log. */
export function assetsDisagreement(
  primary: { slot: bigint; state: Pick<VaultState, "totalAssets" | "navSequence"> },
  check: { slot: bigint; state: Pick<VaultState, "totalAssets" | "navSequence"> | null },
  maxSlotLag: number,
): string | null {
  const apart = primary.slot > check.slot ? primary.slot - check.slot : check.slot - primary.slot;
  if (apart > BigInt(maxSlotLag)) {
    return `the check RPC answered at slot ${check.slot}, the RPC at slot ${primary.slot}: ${apart} slots apart, more than ${maxSlotLag}`;
  }
  if (check.state === null) {
    return `the check RPC has no such vault (slot ${check.slot})`;
  }
  if (
    check.state.totalAssets !== primary.state.totalAssets ||
    check.state.navSequence !== primary.state.navSequence
  ) {
    return `the check RPC answers total assets ${check.state.totalAssets} at NAV #${check.state.navSequence} (slot ${check.slot}), the RPC ${primary.state.totalAssets} at NAV #${primary.state.navSequence} (slot ${primary.slot})`;
  }
  return null;
}

/** How often an on-demand strike looks at the clock while it waits out the bounds' interval. */
const CLOCK_POLL_MS = 100;

export class Keeper {
  private readonly settings: KeeperSettings;
  private readonly log: (line: string) => void;
  private readonly name: string;
  private readonly lastStaging = new Map<string, number>();
  /** When each vault's hole list was last looked at (ms), so it is read once per stage interval. */
  private readonly lastHoleListLook = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<CycleReport> | null = null;
  private stopped = false;
  private wasLeader: boolean | null = null;
  private warnedUnbacked = false;
  /** Receipts (address:request id) whose skip was logged, so a waiting one is not logged every tick. */
  private readonly loggedSkips = new Set<string>();

  constructor(private readonly options: KeeperOptions) {
    this.settings = { ...DEFAULT_KEEPER_SETTINGS, ...options.settings };
    this.log = options.log ?? ((line) => console.log(line));
    this.name = options.name ?? options.manager.publicKey.toBase58();
  }

  start(): void {
    this.stopped = false;
    const tick = (): void => {
      this.timer = setTimeout(() => {
        this.runCycle()
          .catch((error: unknown) => this.log(`keeper: cycle failed: ${describe(error)}`))
          .finally(() => {
            if (!this.stopped) {
              tick();
            }
          });
      }, this.settings.tickSeconds * 1000);
    };
    this.runCycle()
      .catch((error: unknown) => this.log(`keeper: cycle failed: ${describe(error)}`))
      .finally(() => {
        if (!this.stopped) {
          tick();
        }
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    await this.running?.catch(() => null);
    await this.options.lock.release();
    processMetrics().keeperLeader.set({ keeper: this.name }, 0);
  }

  /** One look at the chain: lead or wait; strike what is due; stage what the reserve allows. */
  runCycle(): Promise<CycleReport> {
    this.running ??= this.cycle().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** The time in the chain's terms (see KeeperOptions.now). */
  private async nowSeconds(): Promise<bigint> {
    if (this.options.now !== undefined) {
      return BigInt(Math.floor(this.options.now() / 1000));
    }
    const clock = await this.options.client.getAccount(SYSVAR_CLOCK_PUBKEY);
    if (clock === null || clock.data.length < CLOCK_UNIX_TIMESTAMP_OFFSET + 8) {
      throw new Error("the node answered no Clock sysvar");
    }
    return Buffer.from(clock.data).readBigInt64LE(CLOCK_UNIX_TIMESTAMP_OFFSET);
  }

  private async cycle(): Promise<CycleReport> {
    const report: CycleReport = {
      leader: false,
      strikes: [],
      stagings: [],
      holeListsClosed: [],
      deliveries: [],
    };
    let leader: boolean;
    try {
      leader = await this.options.lock.tryAcquire();
    } catch (error) {
      leader = false;
      this.log(`keeper: the leader lock is unreachable (${describe(error)}); waiting`);
    }
    processMetrics().keeperLeader.set({ keeper: this.name }, leader ? 1 : 0);
    if (leader !== this.wasLeader) {
      this.log(
        leader ? `keeper ${this.name}: leading` : `keeper ${this.name}: another keeper leads; waiting`,
      );
      this.wasLeader = leader;
    }
    report.leader = leader;
    if (!leader || this.stopped) {
      return report;
    }
    for (const vault of await this.keptVaults()) {
      const strike = await this.withRetries(`NAV strike for ${vault.address.toBase58()}`, () =>
        this.strikeIfDue(vault.address),
      );
      if (strike !== null) {
        report.strikes.push(strike);
      }
      const staging = await this.withRetries(`staging for ${vault.address.toBase58()}`, () =>
        this.stageIfDue(vault.address),
      );
      if (staging !== null) {
        report.stagings.push(staging);
      }
      // Staging is what usually empties the list (a cancel of the last request can too): looked at right
      // after a staging, else once per stage interval.
      const closed = await this.withRetries(`hole list of ${vault.address.toBase58()}`, () =>
        this.closeHoleListIfDue(vault.address, staging !== null),
      );
      if (closed !== null) {
        report.holeListsClosed.push(closed);
      }
      const deliveries = await this.withRetries(`deliveries for ${vault.address.toBase58()}`, () =>
        this.deliverClaimable(vault.address),
      );
      report.deliveries.push(...(deliveries ?? []));
    }
    return report;
  }

  /**
   * Strikes a NAV for one vault now, whatever the period, once the bounds' minimum interval since its
   * previous strike has passed (it waits for that); null for an empty or missing vault. For callers
   * that drive the keeper themselves (the local chain's tests): no leader lock, no retries.
   */
  strikeNav(address: PublicKey): Promise<StrikeReport | null> {
    return this.strikeIfDue(address, true);
  }

  /** Funds one vault's queue now, whatever the stage interval; null when nothing is queued or the reserve is short. */
  stageWithdrawals(address: PublicKey): Promise<StagingReport | null> {
    return this.stageIfDue(address, true);
  }

  /**
   * Closes the vault's hole list now if it exists and holds no hole, its rent back to the wallet that
   * paid it; null when there is no list or a hole remains.
   */
  closeHoleList(address: PublicKey): Promise<HoleListReport | null> {
    return this.closeHoleListIfDue(address, true);
  }

  /**
   * Sends the claims of up to deliverMaxPerPass of the vault's claimable withdrawals (oldest request
   * first), paying the fees; now, for callers that drive the keeper themselves. A claim another keeper
   * or the owner landed first is "already claimed", not a failure.
   */
  deliverWithdrawals(address: PublicKey): Promise<DeliveryReport[]> {
    return this.deliverClaimable(address);
  }

  private async keptVaults(): Promise<KeptVault[]> {
    const { client, manager } = this.options;
    const wanted = this.options.vaults;
    if (Array.isArray(wanted)) {
      const kept: KeptVault[] = [];
      for (const address of wanted) {
        const state = await this.readVault(address);
        if (state !== null) {
          kept.push({ address, state });
        }
      }
      return kept;
    }
    const { vaults } = await readProgramVaults(
      client.rpc,
      this.options.programId ?? VAULT_PROGRAM_ID,
      wanted.protocol,
    );
    const kept: KeptVault[] = [];
    for (const vault of vaults) {
      try {
        const state = decodeVaultState(vault.data);
        if (state.manager.equals(manager.publicKey)) {
          kept.push({ address: vault.address, state });
        }
      } catch {
        // Another account of the vault's size: not a vault.
      }
    }
    return kept;
  }

  private async readVault(address: PublicKey): Promise<VaultState | null> {
    const account = await this.options.client.getAccount(address);
    return account === null ? null : decodeVaultState(account.data);
  }

  /** Runs an action up to `attempts` times with doubling delays; the last failure is logged, not thrown. */
  private async withRetries<T>(label: string, action: () => Promise<T | null>): Promise<T | null> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await action();
      } catch (error) {
        if (attempt >= this.settings.attempts || this.stopped) {
          this.log(`keeper: ${label} failed after ${attempt} attempts: ${describe(error)}`);
          return null;
        }
        const delay = this.settings.backoffMs * 2 ** (attempt - 1);
        this.log(`keeper: ${label} failed (${describe(error)}); retrying in ${delay} ms`);
        await sleep(delay);
      }
    }
  }

  private label(address: PublicKey, state: VaultState): string {
    return `${state.name} (${address.toBase58()})`;
  }

  /** The bounds as the vault's protocol keeps them now (its admin may have changed them). */
  private async readBounds(protocol: PublicKey): Promise<StrikeBounds> {
    const account = await this.options.client.getAccount(protocol);
    if (account === null) {
      throw new Error(`the protocol account ${protocol.toBase58()} is missing`);
    }
    return strikeBoundsOf(decodeProtocolState(account.data));
  }

  /**
   * Reads the vault afresh (an earlier attempt may have landed) and strikes if its period is open, or
   * on demand (`anyPeriod`) once the bounds allow.
   */
  private async strikeIfDue(address: PublicKey, anyPeriod = false): Promise<StrikeReport | null> {
    const { client, manager, navSource, mintAuthority } = this.options;
    const metrics = processMetrics();
    const vault = address.toBase58();
    if (anyPeriod) {
      // Wait out the bounds' interval since the last strike, which the program would refuse.
      const before = await this.readVault(address);
      if (before !== null && before.navSequence > 0n) {
        const { minIntervalSeconds } = await this.readBounds(before.protocol);
        while (!this.stopped && (await this.nowSeconds()) - before.navUpdatedAt < minIntervalSeconds) {
          await sleep(CLOCK_POLL_MS);
        }
      }
    }
    const { slot, account } = await client.getAccountAtSlot(address);
    if (account === null) {
      return null;
    }
    const state = decodeVaultState(account.data);
    const now = await this.nowSeconds();
    const bounds = await this.readBounds(state.protocol);
    const due = decideStrike(state, null, now, this.settings.navIntervalSeconds, bounds, anyPeriod);
    if (!due.strike) {
      return null;
    }
    const disagreement = await this.crossCheck(address, slot, state);
    if (disagreement !== null) {
      metrics.keeperActions.inc({ vault, action: "strike", outcome: "rpcs disagree" });
      this.log(`keeper: ${this.label(address, state)} strike skipped: ${disagreement}`);
      return null;
    }
    const target = await navSource.currentTotalAssets({
      vault,
      totalAssets: state.totalAssets,
      navUpdatedAt: state.navUpdatedAt,
      now,
    });
    const decision = decideStrike(state, target, now, this.settings.navIntervalSeconds, bounds, anyPeriod);
    if (!decision.strike) {
      return null;
    }
    const instructions: TransactionInstruction[] = [];
    const signers: Keypair[] = [];
    if (navSource.simulated && decision.gain > 0n) {
      if (mintAuthority === undefined) {
        if (!this.warnedUnbacked) {
          this.log("keeper: simulated yield is reported without minting it (no --mint-authority)");
          this.warnedUnbacked = true;
        }
      } else {
        // Backed in the same transaction, so the reported NAV is always in the reserve.
        instructions.push(
          buildMintToInstruction(state.assetMint, state.reserve, mintAuthority.publicKey, decision.gain),
        );
        signers.push(mintAuthority);
      }
    }
    instructions.push(
      buildUpdateNavInstruction(
        { manager: manager.publicKey, vault: address, protocol: state.protocol },
        { gain: decision.gain, loss: decision.loss },
      ),
    );
    const signature = await client.sendAndConfirm(`NAV strike for ${vault}`, instructions, manager, signers);
    const sequence = state.navSequence + 1n;
    metrics.keeperLastStrike.set({ vault }, Date.now() / 1000);
    metrics.keeperActions.inc({ vault, action: "strike", outcome: "sent" });
    const change = decision.loss > 0n ? `-${decision.loss}` : `+${decision.gain}`;
    this.log(
      `keeper: ${this.label(address, state)} NAV #${sequence}: ${change} on ${state.totalAssets} -> ${decision.target}${decision.clamped ? " (clamped to the bounds)" : ""} (${signature})`,
    );
    return { vault, signature, gain: decision.gain, loss: decision.loss, navSequence: sequence };
  }

  /**
   * With a check RPC: why its read of the vault does not confirm the one the strike is computed from
   * (the same total assets and NAV sequence, at slots at most checkMaxSlotLag apart); null when it
   * does, or when there is no check RPC.
   */
  private async crossCheck(address: PublicKey, slot: bigint, state: VaultState): Promise<string | null> {
    const { checkClient } = this.options;
    if (checkClient === undefined) {
      return null;
    }
    let check: { slot: bigint; account: { data: Uint8Array } | null };
    try {
      check = await checkClient.getAccountAtSlot(address);
    } catch (error) {
      return `the check RPC did not answer (${describe(error)})`;
    }
    let checked: VaultState | null;
    try {
      checked = check.account === null ? null : decodeVaultState(check.account.data);
    } catch (error) {
      return `the check RPC's vault account does not decode (${describe(error)})`;
    }
    return assetsDisagreement(
      { slot, state },
      { slot: check.slot, state: checked },
      this.settings.checkMaxSlotLag,
    );
  }

  /**
   * Funds the queue by up to stageMaxShares every stage interval (or now, `anyTime`); waits when the
   * reserve is short.
   */
  private async stageIfDue(address: PublicKey, anyTime = false): Promise<StagingReport | null> {
    const { client, manager } = this.options;
    const vault = address.toBase58();
    const last = this.lastStaging.get(vault);
    const nowMs = (this.options.now ?? Date.now)();
    if (!anyTime && last !== undefined && nowMs - last < this.settings.stageIntervalSeconds * 1000) {
      return null;
    }
    const state = await this.readVault(address);
    if (state === null || state.queueTail <= state.queueFunded) {
      return null;
    }
    const instruction = buildStageWithdrawalsInstruction(
      {
        manager: manager.publicKey,
        vault: address,
        reserve: state.reserve,
        queueHoles: findQueueHoles(address),
      },
      { maxShares: this.settings.stageMaxShares },
    );
    const metrics = processMetrics();
    // Simulated first: a reserve too short for the next shares is a wait, not a failed transaction.
    const simulation = await client.simulate([instruction], manager.publicKey);
    if (simulation.err !== null) {
      if (simulation.failure?.vaultError?.code === INSUFFICIENT_LIQUIDITY) {
        this.lastStaging.set(vault, nowMs);
        metrics.keeperActions.inc({ vault, action: "stage", outcome: "skipped" });
        this.log(`keeper: ${this.label(address, state)} queue waits for liquidity`);
        return null;
      }
      throw new TransactionFailedError(
        `staging for ${vault}`,
        simulation.err,
        simulation.logs,
        programsOf([instruction]),
      );
    }
    const signature = await client.sendAndConfirm(`staging for ${vault}`, [instruction], manager);
    this.lastStaging.set(vault, nowMs);
    const after = (await this.readVault(address)) ?? state;
    metrics.keeperLastStaging.set({ vault }, Date.now() / 1000);
    metrics.keeperActions.inc({ vault, action: "stage", outcome: "sent" });
    this.log(
      `keeper: ${this.label(address, state)} staged the queue ${state.queueFunded} -> ${after.queueFunded} of ${after.queueTail} (${signature})`,
    );
    return { vault, signature, funded: after.queueFunded, tail: after.queueTail };
  }

  /** Closes an emptied hole list (see closeHoleList), looked at once per stage interval unless `now`. */
  private async closeHoleListIfDue(address: PublicKey, now: boolean): Promise<HoleListReport | null> {
    const { client, manager } = this.options;
    const vault = address.toBase58();
    const nowMs = (this.options.now ?? Date.now)();
    const last = this.lastHoleListLook.get(vault);
    if (!now && last !== undefined && nowMs - last < this.settings.stageIntervalSeconds * 1000) {
      return null;
    }
    this.lastHoleListLook.set(vault, nowMs);
    const queueHoles = findQueueHoles(address);
    const account = await client.getAccount(queueHoles);
    if (account === null || !account.owner.equals(this.options.programId ?? VAULT_PROGRAM_ID)) {
      return null;
    }
    const list = decodeQueueHolesState(account.data);
    if (list.holes.length > 0) {
      return null;
    }
    const instruction = buildCloseQueueHolesInstruction({ vault: address, queueHoles, payer: list.payer });
    const signature = await client.sendAndConfirm(
      `closing the hole list of ${vault}`,
      [instruction],
      manager,
    );
    processMetrics().keeperActions.inc({ vault, action: "close hole list", outcome: "sent" });
    const payer = list.payer.toBase58();
    this.log(
      `keeper: ${vault} hole list closed, ${account.lamports} lamports back to ${payer} (${signature})`,
    );
    return { vault, signature, payer, lamports: account.lamports };
  }

  private async deliverClaimable(address: PublicKey): Promise<DeliveryReport[]> {
    const max = this.settings.deliverMaxPerPass;
    if (max <= 0) {
      return [];
    }
    const state = await this.readVault(address);
    if (state === null || state.queueFunded <= state.queueClaimed || state.navSequence === 0n) {
      // Nothing funded and unclaimed, or no NAV ever struck: no receipt can be claimable.
      return [];
    }
    const reserve = await this.options.client.getAccount(state.reserve);
    const reserveBalance =
      reserve === null ? 0n : (decodeTokenAccount(reserve.owner, reserve.data)?.amount ?? 0n);
    const receipts = await readVaultReceipts(
      this.options.client.rpc,
      this.options.programId ?? VAULT_PROGRAM_ID,
      address,
    );
    // In request order, each claim leaving the reserve its net less for the next (the program refuses a
    // claim the reserve cannot pay, 6016).
    let reserveLeft = reserveBalance;
    const claimable: VaultReceipt[] = [];
    for (const entry of [...receipts].sort((a, b) =>
      a.receipt.queueStart < b.receipt.queueStart ? -1 : 1,
    )) {
      if (claimable.length >= max) {
        break;
      }
      if (claimBlockers(state, entry.receipt, reserveLeft).length === 0) {
        claimable.push(entry);
        reserveLeft -= claimAmounts(state, entry.receipt).net;
      }
    }
    const reports: DeliveryReport[] = [];
    for (const entry of claimable) {
      reports.push(await this.deliver(address, state, entry));
    }
    return reports;
  }

  /** Whether a receipt address now holds another request than `requestId` (the owner asked again). */
  private isOtherRequest(account: { owner: PublicKey; data: Uint8Array }, requestId: bigint): boolean {
    if (!account.owner.equals(this.options.programId ?? VAULT_PROGRAM_ID)) {
      return false;
    }
    try {
      return decodeReceiptState(account.data).requestId !== requestId;
    } catch {
      return false;
    }
  }

  /** Sends one receipt's claim into its owner's asset account, if the owner has one. */
  private async deliver(
    address: PublicKey,
    state: VaultState,
    { address: receiptAddress, receipt }: VaultReceipt,
  ): Promise<DeliveryReport> {
    const { client, manager } = this.options;
    const metrics = processMetrics();
    const vault = address.toBase58();
    const owner = receipt.owner.toBase58();
    const base = { vault, owner, requestId: receipt.requestId };
    const skipKey = `${receiptAddress.toBase58()}:${receipt.requestId}`;
    // The program pays only into a token account of the asset that the owner holds (6005 otherwise).
    // The keeper does not open one for the owner: its rent would be the keeper's to pay, again for
    // every request of a wallet that closes it. The owner's own claim (the API's) opens it.
    const ownerAsset = findAssociatedTokenAddress(receipt.owner, state.assetMint);
    const assetAccount = await client.getAccount(ownerAsset);
    // As the program's checks::token_account reads it: a classic SPL Token account, initialized.
    const token =
      assetAccount === null || !assetAccount.owner.equals(TOKEN_PROGRAM_ID)
        ? null
        : decodeTokenAccount(assetAccount.owner, assetAccount.data);
    if (
      token === null ||
      token.state !== "initialized" ||
      !token.mint.equals(state.assetMint) ||
      !token.owner.equals(receipt.owner)
    ) {
      metrics.keeperActions.inc({ vault, action: "deliver", outcome: "skipped" });
      if (!this.loggedSkips.has(skipKey)) {
        this.loggedSkips.add(skipKey);
        this.log(
          `keeper: ${this.label(address, state)} request #${receipt.requestId} of ${owner} is claimable but not delivered: ${
            token === null
              ? `the owner has no ${state.assetMint.toBase58()} account at ${ownerAsset.toBase58()}`
              : `the owner's asset account ${ownerAsset.toBase58()} is ${token.state === "frozen" ? "frozen" : "not the owner's account of the asset"}`
          }, and the program pays only into one (the keeper does not pay its rent); left for the owner's own claim`,
        );
      }
      return { ...base, outcome: "no asset account", net: null, signature: null };
    }
    // The vault as the claim will find it (an earlier delivery of this pass moved its totals).
    const fresh = (await this.readVault(address)) ?? state;
    const net = claimAmounts(fresh, receipt).net;
    const instruction = buildClaimWithdrawalInstruction({
      owner: receipt.owner,
      vault: address,
      authority: state.authority,
      receipt: receiptAddress,
      shareMint: state.shareMint,
      escrow: state.escrow,
      reserve: state.reserve,
      ownerAsset,
    });
    let signature: string;
    try {
      signature = await client.sendAndConfirm(
        `delivery of request #${receipt.requestId} to ${owner}`,
        [instruction],
        manager,
      );
    } catch (error) {
      // Another keeper or the owner may have claimed it first: then the receipt is gone (or is a
      // newer request of the same owner), and there is nothing left to deliver.
      const now = await client.getAccount(receiptAddress).catch(() => undefined);
      const gone = now === null || (now !== undefined && this.isOtherRequest(now, receipt.requestId));
      if (gone) {
        metrics.keeperActions.inc({ vault, action: "deliver", outcome: "already claimed" });
        this.log(
          `keeper: ${this.label(address, state)} request #${receipt.requestId} of ${owner} was already claimed`,
        );
        return { ...base, outcome: "already claimed", net: null, signature: null };
      }
      metrics.keeperActions.inc({ vault, action: "deliver", outcome: "failed" });
      this.log(
        `keeper: ${this.label(address, state)} delivery of request #${receipt.requestId} to ${owner} failed: ${describe(error)}`,
      );
      return { ...base, outcome: "failed", net: null, signature: null };
    }
    this.loggedSkips.delete(skipKey);
    metrics.keeperActions.inc({ vault, action: "deliver", outcome: "sent" });
    this.log(
      `keeper: ${this.label(address, state)} delivered request #${receipt.requestId}: ${net} to ${owner} (${signature})`,
    );
    return { ...base, outcome: "delivered", net, signature };
  }
}
