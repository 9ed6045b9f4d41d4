// Builders for the vault program's instructions. Account order and writable/signer flags come
// from the IDL's instruction definitions; callers name the accounts, the IDL places them.
import { PublicKey, TransactionInstruction, type AccountMeta } from "@solana/web3.js";
import BN from "bn.js";

import {
  VAULT_PROGRAM_ID,
  camelCaseToIdlName,
  findIdlInstruction,
  vaultCoder,
  type IdlAccountMeta,
  type VaultInstructionName,
} from "./idl";

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
  queueHoles: PublicKey;
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

// Each instruction's account list, read from the IDL once: where each account name goes, and the
// keys of the program accounts with a fixed address. Building an instruction then only places keys.
interface AccountLayout {
  definitions: readonly IdlAccountMeta[];
  positions: ReadonlyMap<string, number>;
  fixed: readonly (PublicKey | undefined)[];
}

const layouts = new Map<VaultInstructionName, AccountLayout>();

function accountLayout(instructionName: VaultInstructionName): AccountLayout {
  let layout = layouts.get(instructionName);
  if (layout === undefined) {
    const definitions = findIdlInstruction(instructionName).accounts;
    layout = {
      definitions,
      positions: new Map(definitions.map((definition, position) => [definition.name, position])),
      fixed: definitions.map((definition) =>
        definition.address === undefined ? undefined : new PublicKey(definition.address),
      ),
    };
    layouts.set(instructionName, layout);
  }
  return layout;
}

// Account names are converted on every build; there are a dozen of them, so remember each.
const idlNames = new Map<string, string>();

function idlNameOf(name: string): string {
  let idlName = idlNames.get(name);
  if (idlName === undefined) {
    idlName = camelCaseToIdlName(name);
    idlNames.set(name, idlName);
  }
  return idlName;
}

/** The IDL's accounts in order, from the caller's camelCase names (an unknown or missing name throws). */
function accountMetasFromIdl(instructionName: VaultInstructionName, accounts: object): AccountMeta[] {
  const { definitions, positions, fixed } = accountLayout(instructionName);
  const keys = [...fixed];
  for (const [name, value] of Object.entries(accounts)) {
    const idlName = idlNameOf(name);
    const position = positions.get(idlName);
    if (position === undefined) {
      throw new Error(`${instructionName} has no account named ${idlName}`);
    }
    if (value instanceof PublicKey) {
      keys[position] = value;
    }
  }
  return definitions.map((definition, position) => {
    const pubkey = keys[position];
    if (pubkey === undefined) {
      throw new Error(`${instructionName} needs the account ${definition.name}`);
    }
    return { pubkey, isSigner: definition.signer === true, isWritable: definition.writable === true };
  });
}

function buildVaultInstruction(
  instructionName: VaultInstructionName,
  accounts: object,
  args: Record<string, unknown>,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: VAULT_PROGRAM_ID,
    keys: accountMetasFromIdl(instructionName, accounts),
    data: vaultCoder.instruction.encode(instructionName, args),
  });
}

/**
 * The data of an instruction whose arguments are all u64, as the Borsh coder lays it out (the IDL's
 * discriminator, then each argument little-endian in the IDL's order) without its per-call BN
 * conversions and layout walk: the deposit and withdrawal builds run this on every request.
 */
const u64Layouts = new Map<VaultInstructionName, { discriminator: Buffer; argCount: number }>();

function encodeU64Instruction(instructionName: VaultInstructionName, values: readonly bigint[]): Buffer {
  let layout = u64Layouts.get(instructionName);
  if (layout === undefined) {
    const definition = findIdlInstruction(instructionName);
    if (definition.args.some((arg) => arg.type !== "u64")) {
      throw new Error(`${instructionName} has arguments other than u64`);
    }
    layout = { discriminator: Buffer.from(definition.discriminator), argCount: definition.args.length };
    u64Layouts.set(instructionName, layout);
  }
  const { discriminator, argCount } = layout;
  if (values.length !== argCount) {
    throw new Error(`${instructionName} takes ${argCount} arguments, got ${values.length}`);
  }
  const data = Buffer.alloc(discriminator.length + 8 * argCount);
  discriminator.copy(data, 0);
  values.forEach((value, index) => data.writeBigUInt64LE(value, discriminator.length + 8 * index));
  return data;
}

const requestWithdrawalDiscriminator = Buffer.from(findIdlInstruction("request_withdrawal").discriminator);

/** request_withdrawal's data: the discriminator, shares (u64 LE), max_fee_bps (u16 LE), as the IDL lays it out. */
function encodeRequestWithdrawalData(args: RequestWithdrawalArgs): Buffer {
  const { maxFeeBps } = args;
  if (!Number.isInteger(maxFeeBps) || maxFeeBps < 0 || maxFeeBps > 0xffff) {
    throw new RangeError(`maxFeeBps must be an integer from 0 to 65535, got ${maxFeeBps}`);
  }
  const offset = requestWithdrawalDiscriminator.length;
  const data = Buffer.alloc(offset + 8 + 2);
  requestWithdrawalDiscriminator.copy(data, 0);
  data.writeBigUInt64LE(args.shares, offset);
  data.writeUInt16LE(maxFeeBps, offset + 8);
  return data;
}

function buildU64Instruction(
  instructionName: VaultInstructionName,
  accounts: object,
  values: readonly bigint[],
): TransactionInstruction {
  return new TransactionInstruction({
    programId: VAULT_PROGRAM_ID,
    keys: accountMetasFromIdl(instructionName, accounts),
    data: encodeU64Instruction(instructionName, values),
  });
}

function toBN(value: bigint): BN {
  return new BN(value.toString());
}

function optionalBN(value: bigint | undefined): BN | null {
  return value === undefined ? null : toBN(value);
}

export function buildInitializeVaultInstruction(
  accounts: InitializeVaultAccounts,
  args: InitializeVaultArgs,
): TransactionInstruction {
  return buildVaultInstruction("initialize_vault", accounts, {
    index: toBN(args.index),
    manager: args.manager,
    name: args.name,
    fee_bps: args.feeBps,
    min_withdrawal_shares: toBN(args.minWithdrawalShares),
    hourly_cap: toBN(args.hourlyCap),
    daily_cap: toBN(args.dailyCap),
  });
}

export function buildDepositInstruction(
  accounts: DepositAccounts,
  args: DepositArgs,
): TransactionInstruction {
  return buildU64Instruction("deposit", accounts, [args.amount, args.minSharesOut]);
}

export function buildRequestWithdrawalInstruction(
  accounts: RequestWithdrawalAccounts,
  args: RequestWithdrawalArgs,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: VAULT_PROGRAM_ID,
    keys: accountMetasFromIdl("request_withdrawal", accounts),
    data: encodeRequestWithdrawalData(args),
  });
}

export function buildClaimWithdrawalInstruction(accounts: ClaimWithdrawalAccounts): TransactionInstruction {
  return buildVaultInstruction("claim_withdrawal", accounts, {});
}

/** The owner takes its pending request back (until it is claimed, also while paused). */
export function buildCancelWithdrawalInstruction(accounts: CancelWithdrawalAccounts): TransactionInstruction {
  return buildVaultInstruction("cancel_withdrawal", accounts, {});
}

export function buildUpdateNavInstruction(
  accounts: UpdateNavAccounts,
  args: UpdateNavArgs,
): TransactionInstruction {
  return buildVaultInstruction("update_nav", accounts, { gain: toBN(args.gain), loss: toBN(args.loss) });
}

export function buildStageWithdrawalsInstruction(
  accounts: StageWithdrawalsAccounts,
  args: StageWithdrawalsArgs,
): TransactionInstruction {
  return buildVaultInstruction("stage_withdrawals", accounts, { max_shares: toBN(args.maxShares) });
}

export function buildUpdateConfigInstruction(
  accounts: ManagerAccounts,
  update: ConfigUpdate,
): TransactionInstruction {
  return buildVaultInstruction("update_config", accounts, {
    update: {
      fee_bps: update.feeBps ?? null,
      min_withdrawal_shares: optionalBN(update.minWithdrawalShares),
      hourly_cap: optionalBN(update.hourlyCap),
      daily_cap: optionalBN(update.dailyCap),
      paused: update.paused ?? null,
      name: update.name ?? null,
    },
  });
}

function boundsArgs(bounds: NavBounds): Record<string, unknown> {
  return {
    max_gain_bps: bounds.maxGainBps,
    max_loss_bps: bounds.maxLossBps,
    min_nav_interval_seconds: bounds.minNavIntervalSeconds,
    max_annual_gain_bps: bounds.maxAnnualGainBps,
    max_daily_loss_bps: bounds.maxDailyLossBps,
  };
}

export function buildInitializeProtocolInstruction(
  accounts: InitializeProtocolAccounts,
  bounds: NavBounds,
): TransactionInstruction {
  return buildVaultInstruction("initialize_protocol", accounts, boundsArgs(bounds));
}

export function buildSetNavBoundsInstruction(
  accounts: ProtocolAdminAccounts,
  bounds: NavBounds,
): TransactionInstruction {
  return buildVaultInstruction("set_nav_bounds", accounts, boundsArgs(bounds));
}

/** The admin names its successor (PublicKey.default withdraws the proposal). */
export function buildProposeAdminInstruction(
  accounts: ProtocolAdminAccounts,
  newAdmin: PublicKey,
): TransactionInstruction {
  return buildVaultInstruction("propose_admin", accounts, { new_admin: newAdmin });
}

export function buildAcceptAdminInstruction(accounts: {
  newAdmin: PublicKey;
  protocol: PublicKey;
}): TransactionInstruction {
  return buildVaultInstruction("accept_admin", accounts, {});
}

/** The manager or the protocol admin names the next manager (PublicKey.default withdraws it). */
export function buildProposeManagerInstruction(
  accounts: { proposer: PublicKey; vault: PublicKey; protocol: PublicKey },
  newManager: PublicKey,
): TransactionInstruction {
  return buildVaultInstruction("propose_manager", accounts, { new_manager: newManager });
}

export function buildAcceptManagerInstruction(accounts: {
  newManager: PublicKey;
  vault: PublicKey;
}): TransactionInstruction {
  return buildVaultInstruction("accept_manager", accounts, {});
}
