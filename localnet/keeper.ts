// The keeper: the vault manager's routine, as real transactions through the program. Every
// `navIntervalSeconds` it strikes a NAV with the configured yield, minting that yield's USDC into the
// reserve in the same transaction so claims can be paid; every `stageIntervalSeconds` it funds the
// withdrawal queue by up to `stageMaxShares`. Strikes keep the protocol's bounds: a yield above the
// gain bound is struck at the bound and the rest carried to the next strike, and a strike waits out
// the minimum interval since the vault's previous one.
import type { PublicKey } from "@solana/web3.js";

import { decodeProtocol, decodeVault, type ProtocolAccount, type VaultAccount } from "../lib/vault/accounts";
import { buildStageWithdrawalsInstruction, buildUpdateNavInstruction } from "../lib/vault/instructions";
import type { Chain } from "./chain";
import type { KeeperConfig } from "./config";
import type { DevRoles, LocalnetVault } from "./genesis";
import type { TransactionRecord } from "./ledger";
import { LocalTransactionError, customErrorCode, submitLocalTransaction } from "./local-transactions";
import { buildMintToInstruction } from "../lib/chain/spl-token";

const SECONDS_PER_YEAR = 365n * 24n * 3600n;
const BPS = 10_000n;
/** The longest span one strike accrues, so a chain restored after days does not jump. */
const MAX_ACCRUAL_SECONDS = 24n * 3600n;
const INSUFFICIENT_LIQUIDITY = 6016;

/** Yield on `totalAssets` at `apyBps` a year over `seconds`, rounded down. */
export function accruedYield(totalAssets: bigint, apyBps: number, seconds: bigint): bigint {
  return (totalAssets * BigInt(apyBps) * seconds) / (BPS * SECONDS_PER_YEAR);
}

/** The largest gain one strike may report: `floor(total_assets × max_gain_bps / 10000)`, as the program checks. */
export function gainBound(totalAssets: bigint, maxGainBps: number): bigint {
  return (totalAssets * BigInt(maxGainBps)) / BPS;
}

/** What a strike reports of the yield owed (accrued plus carried) within the bound, and what it carries on. */
export function boundedGain(owed: bigint, bound: bigint): { gain: bigint; carry: bigint } {
  const gain = owed < bound ? owed : bound;
  return { gain, carry: owed - gain };
}

export interface KeeperOptions {
  chain: Chain;
  roles: DevRoles;
  usdcMint: PublicKey;
  vaults: readonly LocalnetVault[];
  config: KeeperConfig;
  log?: (line: string) => void;
}

export class Keeper {
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly log: (line: string) => void;
  /** Per vault, accrued yield a gain bound held back, reported by later strikes. */
  private readonly carried = new Map<string, bigint>();

  constructor(private readonly options: KeeperOptions) {
    this.log = options.log ?? ((line) => console.log(line));
  }

  start(): void {
    if (this.timers.length > 0) {
      return;
    }
    const { navIntervalSeconds, stageIntervalSeconds } = this.options.config;
    this.timers.push(
      setInterval(() => {
        for (const vault of this.options.vaults) {
          this.strikeNav(vault).catch((error: unknown) => this.logFailure("NAV strike", vault, error));
        }
      }, navIntervalSeconds * 1000),
    );
    this.timers.push(
      setInterval(
        () => this.forEachVault("staging", (vault) => this.stageWithdrawals(vault)),
        stageIntervalSeconds * 1000,
      ),
    );
  }

  stop(): void {
    for (const timer of this.timers.splice(0)) {
      clearInterval(timer);
    }
  }

  private logFailure(task: string, vault: LocalnetVault, error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    this.log(`keeper: ${task} for ${vault.spec.name} failed: ${reason}`);
  }

  private forEachVault(task: string, run: (vault: LocalnetVault) => TransactionRecord | null): void {
    for (const vault of this.options.vaults) {
      try {
        run(vault);
      } catch (error) {
        this.logFailure(task, vault, error);
      }
    }
  }

  readVault(vault: LocalnetVault): VaultAccount | null {
    const account = this.options.chain.getAccount(vault.vault.toBase58());
    return account === null ? null : decodeVault(account.data);
  }

  private readProtocol(state: VaultAccount): ProtocolAccount {
    const account = this.options.chain.getAccount(state.protocol.toBase58());
    if (account === null) {
      throw new Error(`the vault's protocol ${state.protocol.toBase58()} does not exist`);
    }
    return decodeProtocol(account.data);
  }

  private now(): bigint {
    const { chain } = this.options;
    return BigInt(chain.blockTime(chain.slot) ?? Math.floor(Date.now() / 1000));
  }

  /** Resolves once the chain's clock is at least `unixSeconds` (slots advance it on their timer). */
  private async clockAtLeast(unixSeconds: bigint): Promise<void> {
    while (this.now() < unixSeconds) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * Strikes a NAV once the protocol's minimum interval since the vault's previous strike has passed:
   * mints the accrued yield (and any carried) into the reserve and reports it as the gain, at most
   * the protocol's gain bound; the rest is carried to the next strike.
   */
  async strikeNav(vault: LocalnetVault): Promise<TransactionRecord | null> {
    const before = this.readVault(vault);
    if (before === null) {
      return null;
    }
    const { minNavIntervalSeconds } = this.readProtocol(before);
    if (before.navUpdatedAt > 0n) {
      await this.clockAtLeast(before.navUpdatedAt + BigInt(minNavIntervalSeconds));
    }
    const state = this.readVault(vault);
    if (state === null) {
      return null;
    }
    const { chain, roles, config, usdcMint } = this.options;
    const sinceLast =
      state.navUpdatedAt > 0n ? this.now() - state.navUpdatedAt : BigInt(config.navIntervalSeconds);
    const seconds = sinceLast < 0n ? 0n : sinceLast > MAX_ACCRUAL_SECONDS ? MAX_ACCRUAL_SECONDS : sinceLast;
    const key = vault.vault.toBase58();
    const owed = accruedYield(state.totalAssets, config.apyBps, seconds) + (this.carried.get(key) ?? 0n);
    const { gain, carry } = boundedGain(
      owed,
      gainBound(state.totalAssets, this.readProtocol(state).maxGainBps),
    );
    const strike = buildUpdateNavInstruction(
      { manager: roles.manager.publicKey, vault: vault.vault, protocol: state.protocol },
      { gain, loss: 0n },
    );
    // The yield is minted into the reserve in the same transaction, so the NAV is always backed.
    const record =
      gain > 0n
        ? submitLocalTransaction(
            chain,
            `keeper: NAV strike for ${vault.spec.name}`,
            [buildMintToInstruction(usdcMint, vault.reserve, roles.mintAuthority.publicKey, gain), strike],
            roles.manager,
            [roles.mintAuthority],
          )
        : submitLocalTransaction(chain, `keeper: NAV strike for ${vault.spec.name}`, [strike], roles.manager);
    this.carried.set(key, carry);
    this.log(
      `keeper: ${vault.spec.name} NAV #${state.navSequence + 1n}: +${gain} on ${state.totalAssets}${
        carry > 0n ? `, ${carry} carried (the protocol's gain bound)` : ""
      } (${record.signature})`,
    );
    return record;
  }

  /** Funds the withdrawal queue by up to `stageMaxShares`; null when nothing is queued. */
  stageWithdrawals(vault: LocalnetVault): TransactionRecord | null {
    const state = this.readVault(vault);
    if (state === null || state.queueTail <= state.queueFunded) {
      return null;
    }
    const { chain, roles, config } = this.options;
    try {
      const record = submitLocalTransaction(
        chain,
        `keeper: staging for ${vault.spec.name}`,
        [
          buildStageWithdrawalsInstruction(
            { manager: roles.manager.publicKey, vault: vault.vault, reserve: vault.reserve },
            { maxShares: config.stageMaxShares },
          ),
        ],
        roles.manager,
      );
      this.log(`keeper: ${vault.spec.name} staged the queue toward ${state.queueTail} (${record.signature})`);
      return record;
    } catch (error) {
      if (error instanceof LocalTransactionError && customErrorCode(error.err) === INSUFFICIENT_LIQUIDITY) {
        this.log(`keeper: ${vault.spec.name} queue waits for liquidity`);
        return null;
      }
      throw error;
    }
  }
}
