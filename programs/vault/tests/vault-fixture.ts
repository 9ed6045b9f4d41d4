// One protocol and its vaults on a TestChain, with the admin, the manager and member wallets, and each
// instruction as a one-line action. `*Instruction` methods take account overrides so security tests
// can swap in impostors.
import { Keypair, type PublicKey, type TransactionInstruction } from "@solana/web3.js";

import { findAssociatedTokenAddressAndBump } from "../../../lib/chain/spl-token";
import {
  decodeQueueHolesState,
  type VaultState,
  type ReceiptState,
} from "../../../lib/vault/program/accounts";
import {
  findEscrow,
  findQueueHoles,
  findProtocolAddress,
  findReceipt,
  findReserve,
  findShareMint,
  findVaultAddress,
  findVaultAuthority,
  type VaultAddresses,
} from "../../../lib/vault/program/addresses";
import {
  buildCancelWithdrawalInstruction,
  buildAcceptAdminInstruction,
  buildAcceptManagerInstruction,
  buildClaimWithdrawalInstruction,
  buildCloseQueueHolesInstruction,
  buildDepositInstruction,
  buildDepositWithPartnerFeeInstruction,
  buildSetMaxPartnerFeeInstruction,
  buildInitializeProtocolInstruction,
  buildInitializeVaultInstruction,
  buildProposeAdminInstruction,
  buildProposeManagerInstruction,
  buildSetNavBoundsInstruction,
  buildUpdateNavInstruction,
  buildRequestWithdrawalInstruction,
  buildStageWithdrawalsInstruction,
  buildUpdateConfigInstruction,
  type CancelWithdrawalAccounts,
  buildApplyConfigInstruction,
  buildSetVaultPeriodsInstruction,
  buildSetAdminPauseInstruction,
  type ClaimWithdrawalAccounts,
  type ConfigUpdate,
  type DepositAccounts,
  type DepositWithPartnerFeeAccounts,
  type InitializeProtocolAccounts,
  type InitializeVaultAccounts,
  type InitializeVaultArgs,
  type ManagerAccounts,
  type ProtocolAdminAccounts,
  type UpdateNavAccounts,
  type RequestWithdrawalAccounts,
  type StageWithdrawalsAccounts,
} from "../../../lib/vault/program/instructions";
import type { TestChain, TransactionOutcome } from "./harness";
import { strikeLimits } from "./model";
import {
  decodeProtocolState,
  decodeReceiptFee,
  decodeVaultRegistration,
  type NavBounds,
  type ProtocolState,
  type VaultRegistration,
} from "./program-client";

export type VaultSettings = Omit<InitializeVaultArgs, "index" | "manager">;

export const DEFAULT_VAULT_SETTINGS: VaultSettings = {
  name: "Test USDC vault",
  feeBps: 0,
  minWithdrawalShares: 0n,
  hourlyCap: 0n,
  dailyCap: 0n,
};

export interface Member {
  keypair: Keypair;
  publicKey: PublicKey;
  assetAccount: PublicKey;
  shareAccount: PublicKey;
  receipt: PublicKey;
}

/** A partner of deposit_with_partner_fee: its wallet and its associated token account of the asset. */
export interface Partner {
  publicKey: PublicKey;
  assetAccount: PublicKey;
}

/**
 * A deposit_with_partner_fee's accounts and arguments other than the defaults; partnerAssetBump is by
 * default the canonical bump of the named partner's associated token account of the asset.
 */
export type PartnerDepositOptions = Partial<DepositWithPartnerFeeAccounts> & {
  minSharesOut?: bigint;
  partnerAssetBump?: number;
};

/**
 * Bounds loose enough for tests that are not about them: any strike up to ±100%, any time, and the
 * program's ceilings over time (100% a year of gain, 10% a day of loss, at most a day counted).
 */
export const OPEN_NAV_BOUNDS: NavBounds = {
  maxGainBps: 10_000,
  maxLossBps: 10_000,
  minNavIntervalSeconds: 0,
  maxAnnualGainBps: 10_000,
  maxDailyLossBps: 1_000,
};

export type ProtocolAccounts = InitializeProtocolAccounts;

export type AdminAccounts = ProtocolAdminAccounts;

const defaultProtocols = new WeakMap<TestChain, TestProtocol>();

/** A protocol at ["protocol", creator]; its creator is the first admin. */
export class TestProtocol {
  readonly chain: TestChain;
  readonly creator: Keypair;
  readonly key: PublicKey;

  private constructor(chain: TestChain, creator: Keypair) {
    this.chain = chain;
    this.creator = creator;
    this.key = findProtocolAddress(creator.publicKey);
  }

  /** A handle on the protocol `creator` would create, initialised or not. */
  static at(chain: TestChain, creator: Keypair): TestProtocol {
    return new TestProtocol(chain, creator);
  }

  /** Initializes a protocol; throws if the program refuses. */
  static create(
    chain: TestChain,
    bounds: NavBounds = OPEN_NAV_BOUNDS,
    creator: Keypair = chain.createFundedKeypair(),
  ): { protocol: TestProtocol; outcome: TransactionOutcome } {
    const protocol = new TestProtocol(chain, creator);
    const outcome = chain.sendOrThrow([protocol.initializeInstruction(bounds)], [creator]);
    return { protocol, outcome };
  }

  /** The chain's default protocol (open bounds), created on first use. */
  static of(chain: TestChain): TestProtocol {
    let protocol = defaultProtocols.get(chain);
    if (protocol === undefined) {
      protocol = TestProtocol.create(chain).protocol;
      defaultProtocols.set(chain, protocol);
    }
    return protocol;
  }

  /** The creator, who stays admin unless a test hands the protocol over. */
  get admin(): Keypair {
    return this.creator;
  }

  initializeInstruction(
    bounds: NavBounds,
    overrides: Partial<ProtocolAccounts> = {},
  ): TransactionInstruction {
    return buildInitializeProtocolInstruction(
      { creator: this.creator.publicKey, protocol: this.key, ...overrides },
      bounds,
    );
  }

  proposeAdminInstruction(
    newAdmin: PublicKey,
    overrides: Partial<AdminAccounts> = {},
  ): TransactionInstruction {
    return buildProposeAdminInstruction(
      { admin: this.creator.publicKey, protocol: this.key, ...overrides },
      newAdmin,
    );
  }

  acceptAdminInstruction(
    newAdmin: PublicKey,
    overrides: { protocol?: PublicKey } = {},
  ): TransactionInstruction {
    return buildAcceptAdminInstruction({ newAdmin, protocol: this.key, ...overrides });
  }

  setNavBoundsInstruction(bounds: NavBounds, overrides: Partial<AdminAccounts> = {}): TransactionInstruction {
    return buildSetNavBoundsInstruction(
      { admin: this.creator.publicKey, protocol: this.key, ...overrides },
      bounds,
    );
  }

  setMaxPartnerFeeInstruction(
    maxPartnerFeeBps: number,
    overrides: Partial<AdminAccounts> = {},
  ): TransactionInstruction {
    return buildSetMaxPartnerFeeInstruction(
      { admin: this.admin.publicKey, protocol: this.key, ...overrides },
      maxPartnerFeeBps,
    );
  }

  /** set_max_partner_fee signed by `signer` (the admin unless given). */
  setMaxPartnerFee(maxPartnerFeeBps: number, signer: Keypair = this.admin): TransactionOutcome {
    return this.chain.send(
      [this.setMaxPartnerFeeInstruction(maxPartnerFeeBps, { admin: signer.publicKey })],
      [signer],
    );
  }

  setNavBounds(bounds: NavBounds): TransactionOutcome {
    return this.chain.send([this.setNavBoundsInstruction(bounds)], [this.creator]);
  }

  state(): ProtocolState {
    const account = this.chain.readAccount(this.key);
    if (account === null) {
      throw new Error(`No protocol at ${this.key.toBase58()}`);
    }
    return decodeProtocolState(account.data);
  }
}

/** Every address a vault owns, derived from its protocol and index. */
export function deriveRegisteredVaultAddresses(protocol: PublicKey, index: bigint): VaultAddresses {
  const vault = findVaultAddress(protocol, index);
  return {
    vault,
    authority: findVaultAuthority(vault),
    shareMint: findShareMint(vault),
    reserve: findReserve(vault),
    escrow: findEscrow(vault),
  };
}

export type { InitializeVaultAccounts, UpdateNavAccounts };

export class TestVault {
  readonly chain: TestChain;
  readonly protocol: TestProtocol;
  readonly manager: Keypair;
  readonly index: bigint;
  readonly addresses: VaultAddresses;

  private constructor(chain: TestChain, protocol: TestProtocol, manager: Keypair, index: bigint) {
    this.chain = chain;
    this.protocol = protocol;
    this.manager = manager;
    this.index = index;
    this.addresses = deriveRegisteredVaultAddresses(protocol.key, index);
  }

  /** Registers a vault under the protocol (the chain's default one unless given); throws if refused. */
  static create(
    chain: TestChain,
    settings: Partial<VaultSettings> = {},
    options: { manager?: Keypair; protocol?: TestProtocol } = {},
  ): { vault: TestVault; outcome: TransactionOutcome } {
    const protocol = options.protocol ?? TestProtocol.of(chain);
    const manager = options.manager ?? chain.createFundedKeypair();
    const vault = new TestVault(chain, protocol, manager, protocol.state().vaultCount);
    const outcome = chain.sendOrThrow(
      [vault.initializeInstruction({ ...DEFAULT_VAULT_SETTINGS, ...settings })],
      [protocol.admin],
    );
    return { vault, outcome };
  }

  /** A handle on the vault the protocol would register at `index`, initialised or not. */
  static at(chain: TestChain, manager: Keypair, index: bigint, protocol = TestProtocol.of(chain)): TestVault {
    return new TestVault(chain, protocol, manager, index);
  }

  get key(): PublicKey {
    return this.addresses.vault;
  }

  /** Signed by the protocol admin, who also pays the rent. */
  initializeInstruction(
    settings: VaultSettings,
    overrides: Partial<InitializeVaultAccounts> = {},
    index: bigint = this.index,
  ): TransactionInstruction {
    const { vault, authority, shareMint, reserve, escrow } = this.addresses;
    return buildInitializeVaultInstruction(
      {
        payer: this.protocol.admin.publicKey,
        admin: this.protocol.admin.publicKey,
        protocol: this.protocol.key,
        vault,
        authority,
        shareMint,
        reserve,
        escrow,
        assetMint: this.chain.assetMint,
        ...overrides,
      },
      { index, manager: this.manager.publicKey, ...settings },
    );
  }

  /** A wallet with lamports, `assets` in its asset account and an empty share account. */
  addMember(assets: bigint): Member {
    const keypair = this.chain.createFundedKeypair();
    const assetAccount = this.chain.createAssociatedTokenAccount(keypair.publicKey, this.chain.assetMint);
    if (assets > 0n) {
      this.chain.mintAssets(assetAccount, assets);
    }
    return {
      keypair,
      publicKey: keypair.publicKey,
      assetAccount,
      shareAccount: this.chain.createAssociatedTokenAccount(keypair.publicKey, this.addresses.shareMint),
      receipt: findReceipt(this.addresses.vault, keypair.publicKey),
    };
  }

  depositInstruction(
    member: Member,
    amount: bigint,
    minSharesOut = 0n,
    overrides: Partial<DepositAccounts> = {},
  ): TransactionInstruction {
    const { vault, authority, shareMint, reserve } = this.addresses;
    return buildDepositInstruction(
      {
        depositor: member.publicKey,
        vault,
        authority,
        shareMint,
        reserve,
        depositorAsset: member.assetAccount,
        depositorShares: member.shareAccount,
        ...overrides,
      },
      { amount, minSharesOut },
    );
  }

  deposit(member: Member, amount: bigint, minSharesOut = 0n): TransactionOutcome {
    return this.chain.send([this.depositInstruction(member, amount, minSharesOut)], [member.keypair]);
  }

  /** A partner: a wallet (no lamports needed) with its associated token account of the asset. */
  addPartner(): Partner {
    const publicKey = Keypair.generate().publicKey;
    return {
      publicKey,
      assetAccount: this.chain.createAssociatedTokenAccount(publicKey, this.chain.assetMint),
    };
  }

  depositWithPartnerFeeInstruction(
    member: Member,
    partner: Partner,
    amount: bigint,
    partnerFeeBps: number,
    {
      minSharesOut = 0n,
      partnerAssetBump = findAssociatedTokenAddressAndBump(partner.publicKey, this.chain.assetMint).bump,
      ...overrides
    }: PartnerDepositOptions = {},
  ): TransactionInstruction {
    const { vault, authority, shareMint, reserve } = this.addresses;
    return buildDepositWithPartnerFeeInstruction(
      {
        depositor: member.publicKey,
        vault,
        authority,
        shareMint,
        reserve,
        depositorAsset: member.assetAccount,
        depositorShares: member.shareAccount,
        protocol: this.protocol.key,
        partner: partner.publicKey,
        partnerAsset: partner.assetAccount,
        ...overrides,
      },
      { amount, minSharesOut, partnerFeeBps, partnerAssetBump },
    );
  }

  depositWithPartnerFee(
    member: Member,
    partner: Partner,
    amount: bigint,
    partnerFeeBps: number,
    options: PartnerDepositOptions = {},
  ): TransactionOutcome {
    return this.chain.send(
      [this.depositWithPartnerFeeInstruction(member, partner, amount, partnerFeeBps, options)],
      [member.keypair],
    );
  }

  /** A request accepting at most `maxFeeBps`; by default the fee the vault charges now. */
  requestWithdrawalInstruction(
    member: Member,
    shares: bigint,
    overrides: Partial<RequestWithdrawalAccounts> = {},
    maxFeeBps: number = this.state().feeBps,
  ): TransactionInstruction {
    const { vault, escrow } = this.addresses;
    return buildRequestWithdrawalInstruction(
      {
        owner: member.publicKey,
        vault,
        receipt: member.receipt,
        ownerShares: member.shareAccount,
        escrow,
        ...overrides,
      },
      { shares, maxFeeBps },
    );
  }

  requestWithdrawal(member: Member, shares: bigint, maxFeeBps?: number): TransactionOutcome {
    return this.chain.send(
      [this.requestWithdrawalInstruction(member, shares, {}, maxFeeBps)],
      [member.keypair],
    );
  }

  claimWithdrawalInstruction(
    member: Member,
    overrides: Partial<ClaimWithdrawalAccounts> = {},
  ): TransactionInstruction {
    const { vault, authority, shareMint, escrow, reserve } = this.addresses;
    return buildClaimWithdrawalInstruction({
      owner: member.publicKey,
      vault,
      authority,
      receipt: member.receipt,
      shareMint,
      escrow,
      reserve,
      ownerAsset: member.assetAccount,
      ...overrides,
    });
  }

  /** The owner's own claim, as the API builds it: the owner signs (a delivery by anyone else does not). */
  claimWithdrawal(member: Member): TransactionOutcome {
    const instruction = this.claimWithdrawalInstruction(member);
    instruction.keys[0] = { pubkey: member.publicKey, isSigner: true, isWritable: true };
    return this.chain.send([instruction], [member.keypair]);
  }

  cancelWithdrawalInstruction(
    member: Member,
    overrides: Partial<CancelWithdrawalAccounts> = {},
  ): TransactionInstruction {
    const { vault, escrow, authority, shareMint } = this.addresses;
    return buildCancelWithdrawalInstruction({
      owner: member.publicKey,
      vault,
      receipt: member.receipt,
      ownerShares: member.shareAccount,
      escrow,
      authority,
      shareMint,
      queueHoles: findQueueHoles(vault),
      ...overrides,
    });
  }

  cancelWithdrawal(member: Member): TransactionOutcome {
    return this.chain.send([this.cancelWithdrawalInstruction(member)], [member.keypair]);
  }

  /** close_queue_holes naming `payer` (by default the payer the list records). */
  closeQueueHolesInstruction(payer?: PublicKey): TransactionInstruction {
    const queueHoles = findQueueHoles(this.addresses.vault);
    return buildCloseQueueHolesInstruction({
      vault: this.addresses.vault,
      queueHoles,
      payer: payer ?? this.queueHolesPayer(),
    });
  }

  /** Anyone (the chain's fee payer alone signs) closes the empty hole list. */
  closeQueueHoles(payer?: PublicKey): TransactionOutcome {
    return this.chain.send([this.closeQueueHolesInstruction(payer)], []);
  }

  /** The wallet the hole list records as having paid its rent; throws while there is no list. */
  queueHolesPayer(): PublicKey {
    const account = this.chain.readAccount(findQueueHoles(this.addresses.vault));
    if (account === null || account.data.length === 0) {
      throw new Error("The vault has no hole list");
    }
    return decodeQueueHolesState(account.data).payer;
  }

  private managerAccounts(overrides: Partial<ManagerAccounts>): ManagerAccounts {
    return { manager: this.manager.publicKey, vault: this.addresses.vault, ...overrides };
  }

  updateNavInstruction(
    gain: bigint,
    loss: bigint,
    overrides: Partial<UpdateNavAccounts> = {},
  ): TransactionInstruction {
    return buildUpdateNavInstruction(
      {
        manager: this.manager.publicKey,
        vault: this.addresses.vault,
        protocol: this.protocol.key,
        ...overrides,
      },
      { gain, loss },
    );
  }

  updateNav(gain: bigint, loss: bigint): TransactionOutcome {
    return this.chain.send([this.updateNavInstruction(gain, loss)], [this.manager]);
  }

  /**
   * Moves total assets to `target` through strikes the program accepts: a day apart, each the most the
   * protocol's rates over time allow (or what is left). Big moves take many days (0.27% a day up at
   * the ceiling rate), as they would for a real key.
   */
  moveNavTo(target: bigint): void {
    for (;;) {
      const total = this.state().totalAssets;
      if (total === target) {
        return;
      }
      this.chain.warpBy(86_400n);
      const limits = strikeLimits(this.state(), this.protocol.state(), this.chain.now());
      const gain = target > total ? (target - total < limits.gain ? target - total : limits.gain) : 0n;
      const loss = target < total ? (total - target < limits.loss ? total - target : limits.loss) : 0n;
      if (gain === 0n && loss === 0n) {
        throw new Error(`The bounds allow no move from ${total} towards ${target}`);
      }
      this.chain.sendOrThrow([this.updateNavInstruction(gain, loss)], [this.manager]);
    }
  }

  stageWithdrawalsInstruction(
    maxShares: bigint,
    overrides: Partial<StageWithdrawalsAccounts> = {},
  ): TransactionInstruction {
    const { vault, reserve } = this.addresses;
    return buildStageWithdrawalsInstruction(
      { manager: this.manager.publicKey, vault, reserve, queueHoles: findQueueHoles(vault), ...overrides },
      { maxShares },
    );
  }

  stageWithdrawals(maxShares: bigint): TransactionOutcome {
    return this.chain.send([this.stageWithdrawalsInstruction(maxShares)], [this.manager]);
  }

  updateConfigInstruction(
    update: ConfigUpdate,
    overrides: Partial<ManagerAccounts> = {},
  ): TransactionInstruction {
    return buildUpdateConfigInstruction(this.managerAccounts(overrides), update);
  }

  updateConfig(update: ConfigUpdate): TransactionOutcome {
    return this.chain.send([this.updateConfigInstruction(update)], [this.manager]);
  }

  /** Anyone (here a fresh funded wallet) applies the pending config once it is due. */
  applyConfig(): TransactionOutcome {
    return this.chain.send([buildApplyConfigInstruction({ vault: this.addresses.vault })], []);
  }

  setVaultPeriodsInstruction(
    periods: { configNoticeSeconds: number; silenceSeconds: number },
    admin: PublicKey = this.protocol.admin.publicKey,
  ): TransactionInstruction {
    return buildSetVaultPeriodsInstruction(
      { admin, protocol: this.protocol.key, vault: this.addresses.vault },
      periods,
    );
  }

  setVaultPeriods(periods: { configNoticeSeconds: number; silenceSeconds: number }): TransactionOutcome {
    return this.chain.send([this.setVaultPeriodsInstruction(periods)], [this.protocol.admin]);
  }

  setAdminPauseInstruction(
    until: bigint,
    admin: PublicKey = this.protocol.admin.publicKey,
  ): TransactionInstruction {
    return buildSetAdminPauseInstruction(
      { admin, protocol: this.protocol.key, vault: this.addresses.vault },
      until,
    );
  }

  /** set_admin_pause signed by `signer` (the protocol's admin unless given). */
  setAdminPause(until: bigint, signer: Keypair = this.protocol.admin): TransactionOutcome {
    return this.chain.send([this.setAdminPauseInstruction(until, signer.publicKey)], [signer]);
  }

  /** stage_withdrawals sent by `caller` instead of the manager (allowed after the manager's silence). */
  /** Staging by a signer other than the manager, naming `head`'s receipt when given (the hatch). */
  stageWithdrawalsBy(caller: Keypair, maxShares: bigint, head?: Member): TransactionOutcome {
    const headReceipt = head === undefined ? undefined : findReceipt(this.addresses.vault, head.publicKey);
    return this.chain.send(
      [this.stageWithdrawalsInstruction(maxShares, { manager: caller.publicKey, headReceipt })],
      [caller],
    );
  }

  proposeManagerInstruction(
    proposer: PublicKey,
    newManager: PublicKey,
    overrides: { vault?: PublicKey; protocol?: PublicKey } = {},
  ): TransactionInstruction {
    return buildProposeManagerInstruction(
      { proposer, vault: this.addresses.vault, protocol: this.protocol.key, ...overrides },
      newManager,
    );
  }

  acceptManagerInstruction(
    newManager: PublicKey,
    overrides: { vault?: PublicKey } = {},
  ): TransactionInstruction {
    return buildAcceptManagerInstruction({ newManager, vault: this.addresses.vault, ...overrides });
  }

  state(): VaultState {
    return this.chain.readVault(this.addresses.vault);
  }

  /** The fields lib/vault's decoder does not read: protocol, pending manager, share decimals, surplus. */
  registration(): VaultRegistration {
    const account = this.chain.readAccount(this.addresses.vault);
    if (account === null) {
      throw new Error(`No vault at ${this.addresses.vault.toBase58()}`);
    }
    return decodeVaultRegistration(account.data);
  }

  /** The fee the member's open receipt recorded, or null without one. */
  receiptFeeOf(member: Member): number | null {
    const account = this.chain.readAccount(member.receipt);
    return account === null ? null : decodeReceiptFee(account.data);
  }

  receiptOf(member: Member): ReceiptState | null {
    return this.chain.readReceipt(member.receipt);
  }

  /** The queue's holes as [start, end) pairs, sorted; null while the hole list does not exist. */
  queueHoles(): [bigint, bigint][] | null {
    const account = this.chain.readAccount(findQueueHoles(this.addresses.vault));
    if (account === null || account.data.length === 0) {
      return null;
    }
    return decodeQueueHolesState(account.data)
      .holes.map(({ start, end }): [bigint, bigint] => [start, end])
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  reserveBalance(): bigint {
    return this.chain.tokenBalance(this.addresses.reserve);
  }

  escrowBalance(): bigint {
    return this.chain.tokenBalance(this.addresses.escrow);
  }

  shareSupply(): bigint {
    return this.chain.mintSupply(this.addresses.shareMint);
  }
}
