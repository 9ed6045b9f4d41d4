// Builders for the vault program's instructions as web3.js TransactionInstructions: a thin, typed
// layer over the code Codama generates from programs/vault/idl.json (./generated, npm run
// program:generate), which places the accounts in the IDL's order with its signer and writable flags
// and encodes the arguments. Callers name the accounts with PublicKeys; a builder here only turns
// them into the generated builder's addresses and its instruction back into web3.js's form.
import {
  AccountRole,
  createNoopSigner,
  type Address,
  type Instruction,
  type ReadonlyUint8Array,
  type TransactionSigner,
} from "@solana/kit";
import { PublicKey, TransactionInstruction } from "@solana/web3.js";

import { base58Of } from "../../chain/base58";
import {
  getAcceptAdminInstruction,
  getAcceptManagerInstruction,
  getApplyConfigInstruction,
  getCancelWithdrawalInstruction,
  getClaimWithdrawalInstruction,
  getCloseQueueHolesInstruction,
  getDepositInstruction,
  getDepositWithPartnerFeeInstruction,
  getInitializeProtocolInstruction,
  getInitializeVaultInstruction,
  getProposeAdminInstruction,
  getProposeManagerInstruction,
  getRequestWithdrawalInstruction,
  getSetAdminPauseInstruction,
  getSetMaxPartnerFeeInstruction,
  getSetNavBoundsInstruction,
  getSetVaultPeriodsInstruction,
  getStageWithdrawalsInstruction,
  getUpdateConfigInstruction,
  getUpdateNavInstruction,
} from "../generated";
import { VAULT_PROGRAM_ID } from "./idl";

/** Accounts with a fixed address in the IDL; overridable only so tests can pass impostors. */
interface ProgramAccounts {
  tokenProgram?: PublicKey;
  systemProgram?: PublicKey;
}

export interface InitializeVaultAccounts extends ProgramAccounts {
  payer: PublicKey;
  /** The protocol's admin: only it registers vaults. */
  admin: PublicKey;
  protocol: PublicKey;
  vault: PublicKey;
  authority: PublicKey;
  shareMint: PublicKey;
  reserve: PublicKey;
  escrow: PublicKey;
  assetMint: PublicKey;
}

export interface InitializeVaultArgs {
  /** The protocol's vault_count: vaults are registered in order. */
  index: bigint;
  manager: PublicKey;
  name: string;
  feeBps: number;
  minWithdrawalShares: bigint;
  /** Net withdrawals per UTC hour and day, in asset units; 0 means no cap. */
  hourlyCap: bigint;
  dailyCap: bigint;
}

export interface DepositAccounts extends ProgramAccounts {
  depositor: PublicKey;
  vault: PublicKey;
  authority: PublicKey;
  shareMint: PublicKey;
  reserve: PublicKey;
  depositorAsset: PublicKey;
  depositorShares: PublicKey;
}

export interface DepositArgs {
  amount: bigint;
  minSharesOut: bigint;
}

/**
 * deposit_with_partner_fee: deposit's accounts, then the vault's protocol (its max_partner_fee_bps
 * bounds the fee), the partner's wallet and its associated token account of the vault's asset.
 */
export interface DepositWithPartnerFeeAccounts extends DepositAccounts {
  protocol: PublicKey;
  partner: PublicKey;
  partnerAsset: PublicKey;
}

export interface DepositWithPartnerFeeArgs extends DepositArgs {
  /** floor(amount × partnerFeeBps / 10000) goes to the partner; min_shares_out applies to the rest. */
  partnerFeeBps: number;
  /**
   * The bump seed of partnerAsset's associated-token-account address (findAssociatedTokenAddressAndBump):
   * the program re-derives the address with it in one hash instead of searching for it.
   */
  partnerAssetBump: number;
}

export interface RequestWithdrawalAccounts extends ProgramAccounts {
  owner: PublicKey;
  vault: PublicKey;
  receipt: PublicKey;
  ownerShares: PublicKey;
  escrow: PublicKey;
}

export interface RequestWithdrawalArgs {
  shares: bigint;
  /** The highest withdrawal fee the holder accepts (the fee it was shown): a higher fee refuses the request (6026). */
  maxFeeBps: number;
}

export interface ClaimWithdrawalAccounts extends ProgramAccounts {
  owner: PublicKey;
  vault: PublicKey;
  authority: PublicKey;
  receipt: PublicKey;
  shareMint: PublicKey;
  escrow: PublicKey;
  reserve: PublicKey;
  ownerAsset: PublicKey;
}

/**
 * cancel_withdrawal: the owner signs; `authority` signs the escrow's transfer back; `queueHoles` is
 * the vault's hole list (findQueueHoles), created by the first cancel that needs it (the owner pays).
 */
export interface CancelWithdrawalAccounts extends ProgramAccounts {
  owner: PublicKey;
  vault: PublicKey;
  receipt: PublicKey;
  ownerShares: PublicKey;
  escrow: PublicKey;
  authority: PublicKey;
  shareMint: PublicKey;
  queueHoles: PublicKey;
}

/**
 * close_queue_holes: anyone sends it once the vault's hole list (findQueueHoles) is empty; `payer` is
 * the wallet the list records as having paid its rent (decodeQueueHolesState(...).payer), which gets it back.
 */
export interface CloseQueueHolesAccounts {
  vault: PublicKey;
  queueHoles: PublicKey;
  payer: PublicKey;
}

export interface ManagerAccounts {
  manager: PublicKey;
  vault: PublicKey;
}

export interface UpdateNavAccounts extends ManagerAccounts {
  /** The vault's protocol, whose bounds the strike must keep. */
  protocol: PublicKey;
}

export interface UpdateNavArgs {
  gain: bigint;
  loss: bigint;
}

export interface StageWithdrawalsAccounts extends ManagerAccounts {
  reserve: PublicKey;
  /** The vault's hole list (findQueueHoles), passed at no asset cost; it need not exist yet. */
  queueHoles: PublicKey;
  /**
   * For anyone but the manager: a receipt not wholly funded (the queue's head, findReceipt) that has
   * waited the vault's silence period, which lets any signer stage. Omitted by the manager.
   */
  headReceipt?: PublicKey;
}

export interface StageWithdrawalsArgs {
  maxShares: bigint;
}

export interface InitializeProtocolAccounts extends Pick<ProgramAccounts, "systemProgram"> {
  creator: PublicKey;
  protocol: PublicKey;
}

/** What every NAV strike of the protocol's vaults must keep. */
export interface NavBounds {
  /** Largest gain per strike, in bps of total assets. */
  maxGainBps: number;
  maxLossBps: number;
  /** Least time between two strikes of a vault (after its first). */
  minNavIntervalSeconds: number;
  /**
   * The gain over time, as an annual rate in bps: a strike gains at most total × rate × elapsed /
   * (10,000 × 365 days), elapsed since the previous strike and at most a day (ceiling 10,000).
   */
  maxAnnualGainBps: number;
  /** The loss over time, per day in bps, counted the same way (ceiling 1,000). */
  maxDailyLossBps: number;
}

/** The program's ceilings on the protocol's rates over time (6018 above them). */
export const NAV_RATE_CEILINGS = { maxAnnualGainBps: 10_000, maxDailyLossBps: 1_000 } as const;

/**
 * Rates a real USDC vault can live with: 20% a year of gain (a keeper striking every minute at ~10% APY
 * uses half) and 0.5% a day of loss. A stolen manager key striking the maximum every interval moves
 * NAV by at most 0.11% up in 24 hours (two days' worth with the catch-up) and 0.44% in a week.
 */
export const DEFAULT_NAV_RATES = { maxAnnualGainBps: 2_000, maxDailyLossBps: 50 } as const;

export interface ProtocolAdminAccounts {
  admin: PublicKey;
  protocol: PublicKey;
}

/** Absent fields keep their stored value. */
export interface ConfigUpdate {
  feeBps?: number;
  minWithdrawalShares?: bigint;
  hourlyCap?: bigint;
  dailyCap?: bigint;
  paused?: boolean;
  name?: string;
}

/**
 * A PublicKey as the generated code's address: its base58, remembered per key object. A PublicKey's
 * base58 is an address by construction, so kit's address() check (a base58 decode per key, on every
 * deposit build) is not run again.
 */
export function addressOf(key: PublicKey): Address {
  return base58Of(key) as Address;
}

export function optionalAddress(key: PublicKey | undefined): Address | undefined {
  return key === undefined ? undefined : addressOf(key);
}

/** An account that signs: the generated builders take a signer; the wallet or keypair signs later. */
export function signerOf(key: PublicKey): TransactionSigner {
  return createNoopSigner(addressOf(key));
}

/** The protocol admin's signature and the protocol account, which every admin instruction takes. */
function protocolAdmin(accounts: ProtocolAdminAccounts): { admin: TransactionSigner; protocol: Address } {
  return { admin: signerOf(accounts.admin), protocol: addressOf(accounts.protocol) };
}

/** An address a generated decoder returns, as web3.js's PublicKey: addressOf's way back. */
export function publicKeyOfAddress(address: Address): PublicKey {
  return new PublicKey(address);
}

// Fixed program addresses the generated code fills in (Token, System), as PublicKeys once.
const knownKeys = new Map<string, PublicKey>();

function publicKeyOf(address: string, given: ReadonlyMap<string, PublicKey>): PublicKey {
  const key = given.get(address) ?? knownKeys.get(address);
  if (key !== undefined) {
    return key;
  }
  const created = new PublicKey(address);
  knownKeys.set(address, created);
  return created;
}

/**
 * The generated instruction as web3.js's, reusing the caller's PublicKey objects for its accounts.
 * Exported with addressOf, optionalAddress and signerOf so an instruction just generated can be sent
 * before its wrapper below is written: toTransactionInstruction(getXInstruction({...}), accounts).
 */
export function toTransactionInstruction(
  instruction: Instruction & {
    readonly accounts: readonly { address: Address; role: AccountRole }[];
    readonly data: ReadonlyUint8Array;
  },
  accounts: object,
): TransactionInstruction {
  const given = new Map<string, PublicKey>();
  for (const value of Object.values(accounts)) {
    if (value instanceof PublicKey) {
      given.set(base58Of(value), value);
    }
  }
  return new TransactionInstruction({
    programId: VAULT_PROGRAM_ID,
    keys: instruction.accounts.map(({ address, role }) => ({
      pubkey: publicKeyOf(address, given),
      isSigner: role === AccountRole.READONLY_SIGNER || role === AccountRole.WRITABLE_SIGNER,
      isWritable: role === AccountRole.WRITABLE || role === AccountRole.WRITABLE_SIGNER,
    })),
    data: Buffer.from(instruction.data),
  });
}

export function buildInitializeVaultInstruction(
  accounts: InitializeVaultAccounts,
  args: InitializeVaultArgs,
): TransactionInstruction {
  return toTransactionInstruction(
    getInitializeVaultInstruction({
      payer: signerOf(accounts.payer),
      ...protocolAdmin(accounts),
      vault: addressOf(accounts.vault),
      authority: addressOf(accounts.authority),
      shareMint: addressOf(accounts.shareMint),
      reserve: addressOf(accounts.reserve),
      escrow: addressOf(accounts.escrow),
      assetMint: addressOf(accounts.assetMint),
      tokenProgram: optionalAddress(accounts.tokenProgram),
      systemProgram: optionalAddress(accounts.systemProgram),
      index: args.index,
      manager: addressOf(args.manager),
      name: args.name,
      feeBps: args.feeBps,
      minWithdrawalShares: args.minWithdrawalShares,
      hourlyCap: args.hourlyCap,
      dailyCap: args.dailyCap,
    }),
    accounts,
  );
}

export function buildDepositInstruction(
  accounts: DepositAccounts,
  args: DepositArgs,
): TransactionInstruction {
  return toTransactionInstruction(
    getDepositInstruction({
      depositor: signerOf(accounts.depositor),
      vault: addressOf(accounts.vault),
      authority: addressOf(accounts.authority),
      shareMint: addressOf(accounts.shareMint),
      reserve: addressOf(accounts.reserve),
      depositorAsset: addressOf(accounts.depositorAsset),
      depositorShares: addressOf(accounts.depositorShares),
      tokenProgram: optionalAddress(accounts.tokenProgram),
      amount: args.amount,
      minSharesOut: args.minSharesOut,
    }),
    accounts,
  );
}

/** A u16 bps argument, refused with a RangeError rather than wrapped by the encoder. */
function bpsArgument(name: string, bps: number): number {
  if (!Number.isInteger(bps) || bps < 0 || bps > 0xffff) {
    throw new RangeError(`${name} must be an integer from 0 to 65535, got ${bps}`);
  }
  return bps;
}

/** A u8 bump argument, refused with a RangeError rather than wrapped by the encoder. */
function bumpArgument(name: string, bump: number): number {
  if (!Number.isInteger(bump) || bump < 0 || bump > 0xff) {
    throw new RangeError(`${name} must be an integer from 0 to 255, got ${bump}`);
  }
  return bump;
}

export function buildDepositWithPartnerFeeInstruction(
  accounts: DepositWithPartnerFeeAccounts,
  args: DepositWithPartnerFeeArgs,
): TransactionInstruction {
  const partnerFeeBps = bpsArgument("partnerFeeBps", args.partnerFeeBps);
  const partnerAssetBump = bumpArgument("partnerAssetBump", args.partnerAssetBump);
  return toTransactionInstruction(
    getDepositWithPartnerFeeInstruction({
      depositor: signerOf(accounts.depositor),
      vault: addressOf(accounts.vault),
      authority: addressOf(accounts.authority),
      shareMint: addressOf(accounts.shareMint),
      reserve: addressOf(accounts.reserve),
      depositorAsset: addressOf(accounts.depositorAsset),
      depositorShares: addressOf(accounts.depositorShares),
      tokenProgram: optionalAddress(accounts.tokenProgram),
      protocol: addressOf(accounts.protocol),
      partner: addressOf(accounts.partner),
      partnerAsset: addressOf(accounts.partnerAsset),
      amount: args.amount,
      minSharesOut: args.minSharesOut,
      partnerFeeBps,
      partnerAssetBump,
    }),
    accounts,
  );
}

export function buildRequestWithdrawalInstruction(
  accounts: RequestWithdrawalAccounts,
  args: RequestWithdrawalArgs,
): TransactionInstruction {
  const { maxFeeBps } = args;
  if (!Number.isInteger(maxFeeBps) || maxFeeBps < 0 || maxFeeBps > 0xffff) {
    throw new RangeError(`maxFeeBps must be an integer from 0 to 65535, got ${maxFeeBps}`);
  }
  return toTransactionInstruction(
    getRequestWithdrawalInstruction({
      owner: signerOf(accounts.owner),
      vault: addressOf(accounts.vault),
      receipt: addressOf(accounts.receipt),
      ownerShares: addressOf(accounts.ownerShares),
      escrow: addressOf(accounts.escrow),
      tokenProgram: optionalAddress(accounts.tokenProgram),
      systemProgram: optionalAddress(accounts.systemProgram),
      shares: args.shares,
      maxFeeBps,
    }),
    accounts,
  );
}

export function buildClaimWithdrawalInstruction(accounts: ClaimWithdrawalAccounts): TransactionInstruction {
  return toTransactionInstruction(
    getClaimWithdrawalInstruction({
      owner: addressOf(accounts.owner),
      vault: addressOf(accounts.vault),
      authority: addressOf(accounts.authority),
      receipt: addressOf(accounts.receipt),
      shareMint: addressOf(accounts.shareMint),
      escrow: addressOf(accounts.escrow),
      reserve: addressOf(accounts.reserve),
      ownerAsset: addressOf(accounts.ownerAsset),
      tokenProgram: optionalAddress(accounts.tokenProgram),
    }),
    accounts,
  );
}

/** The owner takes its pending request back (until it is claimed, also while paused). */
export function buildCancelWithdrawalInstruction(accounts: CancelWithdrawalAccounts): TransactionInstruction {
  return toTransactionInstruction(
    getCancelWithdrawalInstruction({
      owner: signerOf(accounts.owner),
      vault: addressOf(accounts.vault),
      receipt: addressOf(accounts.receipt),
      ownerShares: addressOf(accounts.ownerShares),
      escrow: addressOf(accounts.escrow),
      authority: addressOf(accounts.authority),
      shareMint: addressOf(accounts.shareMint),
      tokenProgram: optionalAddress(accounts.tokenProgram),
      queueHoles: addressOf(accounts.queueHoles),
      systemProgram: optionalAddress(accounts.systemProgram),
    }),
    accounts,
  );
}

/** Closes an empty hole list, its rent back to the wallet that paid it; no signer needed. */
export function buildCloseQueueHolesInstruction(accounts: CloseQueueHolesAccounts): TransactionInstruction {
  return toTransactionInstruction(
    getCloseQueueHolesInstruction({
      vault: addressOf(accounts.vault),
      queueHoles: addressOf(accounts.queueHoles),
      payer: addressOf(accounts.payer),
    }),
    accounts,
  );
}

export function buildUpdateNavInstruction(
  accounts: UpdateNavAccounts,
  args: UpdateNavArgs,
): TransactionInstruction {
  return toTransactionInstruction(
    getUpdateNavInstruction({
      manager: signerOf(accounts.manager),
      vault: addressOf(accounts.vault),
      protocol: addressOf(accounts.protocol),
      gain: args.gain,
      loss: args.loss,
    }),
    accounts,
  );
}

export function buildStageWithdrawalsInstruction(
  accounts: StageWithdrawalsAccounts,
  args: StageWithdrawalsArgs,
): TransactionInstruction {
  return toTransactionInstruction(
    getStageWithdrawalsInstruction({
      manager: signerOf(accounts.manager),
      vault: addressOf(accounts.vault),
      reserve: addressOf(accounts.reserve),
      queueHoles: addressOf(accounts.queueHoles),
      headReceipt: optionalAddress(accounts.headReceipt),
      maxShares: args.maxShares,
    }),
    accounts,
  );
}

export function buildUpdateConfigInstruction(
  accounts: ManagerAccounts,
  update: ConfigUpdate,
): TransactionInstruction {
  return toTransactionInstruction(
    getUpdateConfigInstruction({
      manager: signerOf(accounts.manager),
      vault: addressOf(accounts.vault),
      feeBps: update.feeBps ?? null,
      minWithdrawalShares: update.minWithdrawalShares ?? null,
      hourlyCap: update.hourlyCap ?? null,
      dailyCap: update.dailyCap ?? null,
      paused: update.paused ?? null,
      name: update.name ?? null,
    }),
    accounts,
  );
}

/** Anyone applies a vault's pending config once its effective time has come. */
export function buildApplyConfigInstruction(accounts: { vault: PublicKey }): TransactionInstruction {
  return toTransactionInstruction(getApplyConfigInstruction({ vault: addressOf(accounts.vault) }), accounts);
}

/** The vault's protocol admin sets its config notice and its manager-silence period (seconds). */
export function buildSetVaultPeriodsInstruction(
  accounts: { admin: PublicKey; protocol: PublicKey; vault: PublicKey },
  periods: { configNoticeSeconds: number; silenceSeconds: number },
): TransactionInstruction {
  return toTransactionInstruction(
    getSetVaultPeriodsInstruction({
      ...protocolAdmin(accounts),
      vault: addressOf(accounts.vault),
      configNoticeSeconds: periods.configNoticeSeconds,
      silenceSeconds: periods.silenceSeconds,
    }),
    accounts,
  );
}

/**
 * The vault's protocol admin pauses it until `until` (unix seconds, at most 30 days ahead; a pause the
 * manager cannot lift), or with `until` at or before now (0n) ends the pause in force.
 */
export function buildSetAdminPauseInstruction(
  accounts: { admin: PublicKey; protocol: PublicKey; vault: PublicKey },
  until: bigint,
): TransactionInstruction {
  return toTransactionInstruction(
    getSetAdminPauseInstruction({
      ...protocolAdmin(accounts),
      vault: addressOf(accounts.vault),
      until,
    }),
    accounts,
  );
}

/** The protocol admin sets the highest partner fee a deposit may pay (at most 500 bps). */
export function buildSetMaxPartnerFeeInstruction(
  accounts: ProtocolAdminAccounts,
  maxPartnerFeeBps: number,
): TransactionInstruction {
  return toTransactionInstruction(
    getSetMaxPartnerFeeInstruction({
      ...protocolAdmin(accounts),
      maxPartnerFeeBps: bpsArgument("maxPartnerFeeBps", maxPartnerFeeBps),
    }),
    accounts,
  );
}

export function buildInitializeProtocolInstruction(
  accounts: InitializeProtocolAccounts,
  bounds: NavBounds,
): TransactionInstruction {
  return toTransactionInstruction(
    getInitializeProtocolInstruction({
      creator: signerOf(accounts.creator),
      protocol: addressOf(accounts.protocol),
      systemProgram: optionalAddress(accounts.systemProgram),
      ...bounds,
    }),
    accounts,
  );
}

export function buildSetNavBoundsInstruction(
  accounts: ProtocolAdminAccounts,
  bounds: NavBounds,
): TransactionInstruction {
  return toTransactionInstruction(
    getSetNavBoundsInstruction({
      ...protocolAdmin(accounts),
      ...bounds,
    }),
    accounts,
  );
}

/** The admin names its successor (PublicKey.default withdraws the proposal). */
export function buildProposeAdminInstruction(
  accounts: ProtocolAdminAccounts,
  newAdmin: PublicKey,
): TransactionInstruction {
  return toTransactionInstruction(
    getProposeAdminInstruction({
      ...protocolAdmin(accounts),
      newAdmin: addressOf(newAdmin),
    }),
    accounts,
  );
}

export function buildAcceptAdminInstruction(accounts: {
  newAdmin: PublicKey;
  protocol: PublicKey;
}): TransactionInstruction {
  return toTransactionInstruction(
    getAcceptAdminInstruction({
      newAdmin: signerOf(accounts.newAdmin),
      protocol: addressOf(accounts.protocol),
    }),
    accounts,
  );
}

/** The manager or the protocol admin names the next manager (PublicKey.default withdraws it). */
export function buildProposeManagerInstruction(
  accounts: { proposer: PublicKey; vault: PublicKey; protocol: PublicKey },
  newManager: PublicKey,
): TransactionInstruction {
  return toTransactionInstruction(
    getProposeManagerInstruction({
      proposer: signerOf(accounts.proposer),
      vault: addressOf(accounts.vault),
      protocol: addressOf(accounts.protocol),
      newManager: addressOf(newManager),
    }),
    accounts,
  );
}

export function buildAcceptManagerInstruction(accounts: {
  newManager: PublicKey;
  vault: PublicKey;
}): TransactionInstruction {
  return toTransactionInstruction(
    getAcceptManagerInstruction({
      newManager: signerOf(accounts.newManager),
      vault: addressOf(accounts.vault),
    }),
    accounts,
  );
}
