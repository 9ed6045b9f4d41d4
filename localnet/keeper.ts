// The keeper: the vault manager's routine, as real transactions through the program. Every
// `navIntervalSeconds` it strikes a NAV with the configured yield, minting that yield's USDC into the
// reserve in the same transaction so claims can be paid; every `stageIntervalSeconds` it funds the
// withdrawal queue by up to `stageMaxShares`.
import type { PublicKey } from "@solana/web3.js";

import { decodeVault, type VaultAccount } from "../lib/vault/accounts";
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

  constructor(private readonly options: KeeperOptions) {
    this.log = options.log ?? ((line) => console.log(line));
  }

  start(): void {
    if (this.timers.length > 0) {
      return;
    }
    const { navIntervalSeconds, stageIntervalSeconds } = this.options.config;
    this.timers.push(
      setInterval(
        () => this.forEachVault("NAV strike", (vault) => this.strikeNav(vault)),
        navIntervalSeconds * 1000,
      ),
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

  private forEachVault(task: string, run: (vault: LocalnetVault) => TransactionRecord | null): void {
    for (const vault of this.options.vaults) {
      try {
        run(vault);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        this.log(`keeper: ${task} for ${vault.spec.name} failed: ${reason}`);
      }
    }
  }

  readVault(vault: LocalnetVault): VaultAccount | null {
    const account = this.options.chain.getAccount(vault.vault.toBase58());
    return account === null ? null : decodeVault(account.data);
  }

  private now(): bigint {
    const { chain } = this.options;
    return BigInt(chain.blockTime(chain.slot) ?? Math.floor(Date.now() / 1000));
  }

  /** Strikes a NAV: mints the accrued yield into the reserve and reports it as the gain. */
  strikeNav(vault: LocalnetVault): TransactionRecord | null {
    const state = this.readVault(vault);
    if (state === null) {
      return null;
    }
    const { chain, roles, config, usdcMint } = this.options;
    const sinceLast =
      state.navUpdatedAt > 0n ? this.now() - state.navUpdatedAt : BigInt(config.navIntervalSeconds);
    const seconds = sinceLast < 0n ? 0n : sinceLast > MAX_ACCRUAL_SECONDS ? MAX_ACCRUAL_SECONDS : sinceLast;
    const gain = accruedYield(state.totalAssets, config.apyBps, seconds);
    const strike = buildUpdateNavInstruction(
      { manager: roles.manager.publicKey, vault: vault.vault },
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
    this.log(
      `keeper: ${vault.spec.name} NAV #${state.navSequence + 1n}: +${gain} on ${state.totalAssets} (${record.signature})`,
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
