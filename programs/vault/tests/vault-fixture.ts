// One vault on a TestChain, with its manager and member wallets, and each instruction as a one-line
// action. `*Instruction` methods take account overrides so security tests can swap in impostors.
import { Keypair, type PublicKey, type TransactionInstruction } from "@solana/web3.js";

import type { VaultAccount, WithdrawalReceiptAccount } from "../../../lib/vault/accounts";
import {
  deriveVaultAddresses,
  findProtocolAddress,
  findReceipt,
  type VaultAddresses,
} from "../../../lib/vault/addresses";
import {
  buildClaimWithdrawalInstruction,
  buildDepositInstruction,
  buildInitializeProtocolInstruction,
  buildInitializeVaultInstruction,
  buildRequestWithdrawalInstruction,
  buildStageWithdrawalsInstruction,
  buildUpdateConfigInstruction,
  buildUpdateNavInstruction,
  type ClaimWithdrawalAccounts,
  type ConfigUpdate,
  type DepositAccounts,
  type InitializeVaultAccounts,
  type InitializeVaultArgs,
  type ManagerAccounts,
  type RequestWithdrawalAccounts,
  type UpdateNavAccounts,
  type StageWithdrawalsAccounts,
} from "../../../lib/vault/instructions";
import type { TestChain, TransactionOutcome } from "./harness";

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

/** The manager's own protocol (it is its admin), with bounds that let any strike through. */
export function initializeProtocolInstructionFor(manager: PublicKey): TransactionInstruction {
  return buildInitializeProtocolInstruction(
    { creator: manager, protocol: findProtocolAddress(manager) },
    { maxGainBps: 10_000, maxLossBps: 10_000, minNavIntervalSeconds: 0 },
  );
}

export function initializeVaultInstructionFor(
  manager: PublicKey,
  assetMint: PublicKey,
  index: bigint,
  settings: VaultSettings,
  overrides: Partial<InitializeVaultAccounts> = {},
): TransactionInstruction {
  const protocol = findProtocolAddress(manager);
  const { vault, authority, shareMint, reserve, escrow } = deriveVaultAddresses(protocol, index);
  return buildInitializeVaultInstruction(
    {
      payer: manager,
      admin: manager,
      protocol,
      vault,
      authority,
      shareMint,
      reserve,
      escrow,
      assetMint,
      ...overrides,
    },
    { index, manager, ...settings },
  );
}

export class TestVault {
  readonly chain: TestChain;
  readonly manager: Keypair;
  readonly index: bigint;
  readonly addresses: VaultAddresses;

  private constructor(chain: TestChain, manager: Keypair, index: bigint) {
    this.chain = chain;
    this.manager = manager;
    this.index = index;
    this.addresses = deriveVaultAddresses(findProtocolAddress(manager.publicKey), index);
  }

  /** Initializes a vault; throws if the program refuses. */
  static create(
    chain: TestChain,
    settings: Partial<VaultSettings> = {},
    options: { manager?: Keypair; index?: bigint } = {},
  ): { vault: TestVault; outcome: TransactionOutcome } {
    const manager = options.manager ?? chain.createFundedKeypair();
    const vault = new TestVault(chain, manager, options.index ?? 0n);
    const protocolMissing = chain.readAccount(findProtocolAddress(manager.publicKey)) === null;
    const outcome = chain.sendOrThrow(
      [
        ...(protocolMissing ? [initializeProtocolInstructionFor(manager.publicKey)] : []),
        vault.initializeInstruction({ ...DEFAULT_VAULT_SETTINGS, ...settings }),
      ],
      [manager],
    );
    return { vault, outcome };
  }

  /** A handle on the vault `manager` would create at `index`, initialised or not. */
  static at(chain: TestChain, manager: Keypair, index: bigint): TestVault {
    return new TestVault(chain, manager, index);
  }

  get key(): PublicKey {
    return this.addresses.vault;
  }

  initializeInstruction(
    settings: VaultSettings,
    overrides: Partial<InitializeVaultAccounts> = {},
  ): TransactionInstruction {
    return initializeVaultInstructionFor(
      this.manager.publicKey,
      this.chain.assetMint,
      this.index,
      settings,
      overrides,
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

  requestWithdrawalInstruction(
    member: Member,
    shares: bigint,
    overrides: Partial<RequestWithdrawalAccounts> = {},
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
      { shares },
    );
  }

  requestWithdrawal(member: Member, shares: bigint): TransactionOutcome {
    return this.chain.send([this.requestWithdrawalInstruction(member, shares)], [member.keypair]);
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

  claimWithdrawal(member: Member): TransactionOutcome {
    return this.chain.send([this.claimWithdrawalInstruction(member)], [member.keypair]);
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
        protocol: findProtocolAddress(this.manager.publicKey),
        ...this.managerAccounts(overrides),
        ...overrides,
      },
      { gain, loss },
    );
  }

  updateNav(gain: bigint, loss: bigint): TransactionOutcome {
    return this.chain.send([this.updateNavInstruction(gain, loss)], [this.manager]);
  }

  stageWithdrawalsInstruction(
    maxShares: bigint,
    overrides: Partial<StageWithdrawalsAccounts> = {},
  ): TransactionInstruction {
    const { vault, reserve } = this.addresses;
    return buildStageWithdrawalsInstruction(
      { manager: this.manager.publicKey, vault, reserve, ...overrides },
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

  state(): VaultAccount {
    return this.chain.readVault(this.addresses.vault);
  }

  receiptOf(member: Member): WithdrawalReceiptAccount | null {
    return this.chain.readReceipt(member.receipt);
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
