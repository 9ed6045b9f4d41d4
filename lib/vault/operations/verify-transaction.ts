// The one check of a transaction the gateway built, against what its signer asked for, made before any
// signer is asked (by the typed client and the pages' flow alike): every instruction is one the
// operation needs (the vault program's asked-for instruction, a compute budget, the wallet's own
// associated token account where the operation creates one), the vault instruction is the one asked
// for (a cancel: cancel_withdrawal, which returns the escrowed shares to the wallet), on the vault asked for, with exactly the accounts the program's seeds give for that vault and
// wallet, and the amount asked for; the wallet pays the fee and is the only signer; the compute-unit
// price stays under the caller's cap; a deposit's guard (min_shares_out) sits at most the caller's
// slippage below the shares the build's preview showed; a deposit that pays a partner fee
// (deposit_with_partner_fee) pays at most the caller's maxPartnerFeeBps (default 0: none), exactly the
// fee the build showed, to the associated token account of the partner the build named (with that
// address's canonical bump as partner_asset_bump), under the
// vault's own protocol; no lookup table hides an account. The
// instruction is recognised by its discriminator and its accounts are read in the IDL's order
// (programs/vault/idl.json), so an IDL change moves the check with it; an account the IDL names and
// this check cannot derive is refused.
// Top-level Token and System instructions are never needed (tokens move only inside the vault
// program's own calls, accounts are created only by the associated token program), so any is refused:
// a transfer, approve, close or authority change of the wallet's accounts cannot pass.
//
// Then the simulation's balance changes of the wallet (asset, shares, SOL) are checked against the
// operation's bounds and reported, so a person sees what will happen before the wallet opens; a
// deposit's preview may not understate the shares the simulation mints by more than the slippage (a
// gateway that lowered its estimate with the guard would otherwise pass).
import {
  ComputeBudgetProgram,
  PublicKey,
  SystemProgram,
  type Connection,
  type VersionedTransaction,
} from "@solana/web3.js";

import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  TOKEN_ACCOUNT_SIZE,
  TOKEN_PROGRAM_ID,
  findAssociatedTokenAddress,
  findAssociatedTokenAddressAndBump,
} from "../../chain/spl-token";
import { decodeVaultState, type VaultState } from "../program/accounts";
import {
  findEscrow,
  findQueueHoles,
  findReceipt,
  findReserve,
  findShareMint,
  findVaultAuthority,
} from "../program/addresses";
import { VAULT_PROGRAM_ID, vaultIdl, type IdlInstruction } from "../program/idl";
import { configInForce } from "../model/pending-config";
import { lessBasisPointsRoundDown } from "../model/share-math";
import { parseUiAmount } from "../model/token-amount";
import type { BalanceChanges, WatchedAccounts } from "./balance-changes";
import type { OperationAction } from "./operation";
import { operationOf, operationsOf, type Operation } from "./operations";
import {
  TransactionCheckError,
  type TransactionCheckCode,
  type TransactionCheckContext,
} from "./transaction-check-error";
import { LAMPORTS_PER_SIGNATURE, rentExemptMinimum } from "../model/vault-state";

/** The operations a wallet is asked to sign, by the spec's words (lib/vault/operations/operations.ts). */
export type VaultOperation = OperationAction;

/** An operation as asked for. A deposit's amount in raw units, or human units of the asset. */
export type OperationRequest =
  | { operation: "deposit"; amount: { raw: bigint } | { ui: number } }
  | { operation: "initiate"; shares: bigint }
  | { operation: "claim" }
  | { operation: "cancel" };

/** What the signer asked the gateway for: the operation, on this vault, for this wallet. */
export type ExpectedVaultTransaction = OperationRequest & { vault: PublicKey; wallet: PublicKey };

/** The vault's tokens as its account on chain has them (read by the caller's own RPC, not the gateway). */
export interface VaultTokens {
  vault: PublicKey;
  assetMint: PublicKey;
  assetDecimals: number;
  shareMint: PublicKey;
  shareDecimals: number;
  /** The withdrawal fee the vault charges now: the most a request may accept (its max_fee_bps). */
  feeBps: number;
  /** The vault's protocol (whose max_partner_fee_bps a partner fee is checked against on chain). */
  protocol: PublicKey;
}

/**
 * Default highest compute-unit price accepted: the gateway's own default cap
 * (PRIORITY_FEE_CAP_MICROLAMPORTS), so an honest gateway never exceeds it.
 */
export const DEFAULT_MAX_COMPUTE_UNIT_PRICE_MICRO_LAMPORTS = 100_000;

/**
 * Default most a deposit's min_shares_out may sit below the shares the build's preview showed, in basis
 * points: the gateway's own default (DEPOSIT_SLIPPAGE_BPS), whose honest builds sit exactly there.
 */
export const DEFAULT_MAX_SLIPPAGE_BPS = 50;

const BPS = 10_000;

/** The runtime's most compute units per transaction: a larger limit is a lie about the fee. */
export const MAX_COMPUTE_UNIT_LIMIT = 1_400_000;

/** The runtime's default limit per instruction when a transaction sets none. */
const DEFAULT_UNITS_PER_INSTRUCTION = 200_000;

export { TransactionCheckError, type TransactionCheckCode, type TransactionCheckContext };

export interface CheckOptions {
  /** The highest compute-unit price (micro-lamports) the caller accepts; default DEFAULT_MAX_…. */
  maxComputeUnitPriceMicroLamports?: number;
  /**
   * The most, in basis points (0–10000), a deposit's min_shares_out may sit below the shares the build's
   * preview showed (details.estimatedSharesReceived), and that preview below the simulation's; default
   * DEFAULT_MAX_SLIPPAGE_BPS.
   */
  maxSlippageBps?: number;
  /**
   * The highest partner fee, in basis points, a deposit may pay (deposit_with_partner_fee, built for a
   * partner's key); default 0: a deposit that pays any partner fee is refused.
   */
  maxPartnerFeeBps?: number;
  /**
   * The partner the caller expects a deposit's partner fee to go to (an embed's partner, as the page
   * showed it); when set, a build that names another partner is refused. Unset: the partner the build
   * names, checked against the transaction's accounts.
   */
  partner?: PublicKey;
}

/**
 * What a build answered beside its transaction (the endpoint's `data`): a deposit's
 * `details.estimatedSharesReceived` is the preview its guard is held to.
 */
export interface BuildAnswer {
  details?: unknown;
}

/** The partner fee a deposit pays, as checked. */
export interface CheckedPartnerFee {
  partner: PublicKey;
  partnerAsset: PublicKey;
  feeBps: number;
}

export interface VerifiedTransaction {
  operation: VaultOperation;
  tokens: VaultTokens;
  /** The vault instruction's arguments as decoded by the IDL (u64s as decimal strings). */
  args: Readonly<Record<string, string>>;
  computeUnitLimit: number;
  computeUnitPriceMicroLamports: number;
  /** The most the transaction can cost in fees (base fee plus the priority fee at its limit). */
  maxFeeLamports: bigint;
  /** The most SOL the wallet may lose: the fee plus the rent of the accounts the operation creates. */
  maxLamportsSpent: bigint;
  /** A deposit's preview (raw shares) its guard was held to; null for the other operations. */
  estimatedShares: bigint | null;
  /** The caller's slippage (bps) the guard and the preview were held to. */
  maxSlippageBps: number;
  /** The partner fee a deposit pays (deposit_with_partner_fee); null for any other transaction. */
  partnerFee: CheckedPartnerFee | null;
  watched: WatchedAccounts;
}

const COMPUTE_BUDGET_SET_LIMIT = 2;
const COMPUTE_BUDGET_SET_PRICE = 3;
const ATA_CREATE = 0;
const ATA_CREATE_IDEMPOTENT = 1;

function fail(code: TransactionCheckCode, message: string, context: TransactionCheckContext): never {
  throw new TransactionCheckError(code, message, context);
}

function decodeVaultOrNull(data: Uint8Array): VaultState | null {
  try {
    return decodeVaultState(data);
  } catch {
    return null;
  }
}

/** A build's estimate of the shares a deposit mints (details.estimatedSharesReceived.amount), if it shows one. */
export function estimatedSharesOf(built: BuildAnswer): bigint | null {
  const { details } = built;
  const estimate =
    typeof details === "object" && details !== null && "estimatedSharesReceived" in details
      ? details.estimatedSharesReceived
      : null;
  const amount =
    typeof estimate === "object" && estimate !== null && "amount" in estimate ? estimate.amount : null;
  return typeof amount === "string" && /^\d{1,20}$/.test(amount) ? BigInt(amount) : null;
}

/** What a build says about the partner fee it put in a deposit (details.partnerFee), if anything. */
export function partnerFeeShown(built: BuildAnswer): { partner: PublicKey; feeBps: number } | null {
  const { details } = built;
  const shown =
    typeof details === "object" && details !== null && "partnerFee" in details ? details.partnerFee : null;
  if (typeof shown !== "object" || shown === null || !("partner" in shown) || !("feeBps" in shown)) {
    return null;
  }
  const { partner, feeBps } = shown;
  if (typeof partner !== "string" || typeof feeBps !== "number" || !Number.isInteger(feeBps)) {
    return null;
  }
  try {
    return { partner: new PublicKey(partner), feeBps };
  } catch {
    return null;
  }
}

function partnerMaximumOf(options: CheckOptions): number {
  const bps = options.maxPartnerFeeBps ?? 0;
  if (!Number.isInteger(bps) || bps < 0 || bps > BPS) {
    throw new RangeError(
      `maxPartnerFeeBps must be a whole number of basis points from 0 to ${BPS}, not ${bps}`,
    );
  }
  return bps;
}

function slippageOf(options: CheckOptions): number {
  const bps = options.maxSlippageBps ?? DEFAULT_MAX_SLIPPAGE_BPS;
  if (!Number.isInteger(bps) || bps < 0 || bps > BPS) {
    throw new RangeError(
      `maxSlippageBps must be a whole number of basis points from 0 to ${BPS}, not ${bps}`,
    );
  }
  return bps;
}

/**
 * A deposit's guard against the build's preview: min_shares_out at least the estimate less the
 * caller's slippage, so a gateway cannot drop it (0) or lower it below what the person was shown.
 */
function checkSlippageGuard(
  args: Record<string, string>,
  guardArg: string,
  estimate: bigint | null,
  slippageBps: number,
): void {
  if (estimate === null) {
    fail(
      "MISSING_SHARE_ESTIMATE",
      `The deposit's build shows no estimate of the shares it mints (details.estimatedSharesReceived), so its ${guardArg} cannot be checked`,
      { argument: guardArg },
    );
  }
  const floor = lessBasisPointsRoundDown(estimate, slippageBps);
  const found = BigInt(args[guardArg] ?? "0");
  if (found < floor) {
    fail(
      "MIN_SHARES_OUT_TOO_LOW",
      `The deposit accepts as few as ${found} shares; the build showed ${estimate}, so at least ${floor} (${slippageBps} bps less) is expected`,
      {
        argument: guardArg,
        estimated: estimate.toString(),
        expected: floor.toString(),
        found: found.toString(),
        maxSlippageBps: slippageBps,
      },
    );
  }
}

/** The vault's tokens from its account, read through the caller's own connection. */
export async function readVaultTokens(
  connection: Pick<Connection, "getAccountInfo">,
  vault: PublicKey,
): Promise<VaultTokens> {
  const account = await connection.getAccountInfo(vault, "confirmed");
  if (account === null || !account.owner.equals(VAULT_PROGRAM_ID)) {
    fail("NOT_A_VAULT", `${vault.toBase58()} is not an account of the vault program`, {
      vault: vault.toBase58(),
    });
  }
  const state = decodeVaultOrNull(account.data);
  if (state === null) {
    fail("NOT_A_VAULT", `${vault.toBase58()} does not hold a vault`, { vault: vault.toBase58() });
  }
  return {
    vault,
    assetMint: state.assetMint,
    assetDecimals: state.assetDecimals,
    shareMint: findShareMint(vault),
    shareDecimals: state.shareDecimals,
    // A scheduled fee past its effective time is the one a request sent now pays (the program applies it first).
    feeBps: configInForce(state, Date.now()).feeBps,
    protocol: state.protocol,
  };
}

/**
 * The amount asked for in raw units (a request's shares, a deposit's amount: human units converted with
 * the decimals of the token its definition says it is of, from the chain); null when none is asked.
 */
function expectedAmount(expected: ExpectedVaultTransaction, tokens: VaultTokens): bigint | null {
  const token = operationOf(expected.operation).amount?.token;
  if (!("amount" in expected)) {
    return "shares" in expected ? expected.shares : null;
  }
  if ("raw" in expected.amount) {
    return expected.amount.raw;
  }
  const decimals = token === "shares" ? tokens.shareDecimals : tokens.assetDecimals;
  const parsed = parseUiAmount(expected.amount.ui, decimals);
  if (!parsed.ok) {
    fail("INVALID_AMOUNT", `The ${expected.operation}'s uiAmount ${parsed.reason}`, {
      uiAmount: expected.amount.ui,
    });
  }
  return parsed.amount;
}

/**
 * Where each account the IDL names must point for this vault and wallet: the seeds of
 * programs/vault/README.md (addresses.ts), the wallet's associated token accounts, or the IDL's fixed
 * address. Null for a name it cannot derive (the IDL grew an account this check does not know).
 */
function expectedAccount(
  name: string,
  fixed: string | undefined,
  expected: ExpectedVaultTransaction,
  tokens: VaultTokens,
  partner: PublicKey | null,
): PublicKey | null {
  const { vault, wallet } = expected;
  switch (name) {
    case "protocol":
      return tokens.protocol;
    case "partner":
      return partner;
    case "partner_asset":
      return partner === null ? null : findAssociatedTokenAddress(partner, tokens.assetMint);
    case "depositor":
    case "owner":
      return wallet;
    case "vault":
      return vault;
    case "authority":
      return findVaultAuthority(vault);
    case "share_mint":
      return findShareMint(vault);
    case "reserve":
      return findReserve(vault);
    case "escrow":
      return findEscrow(vault);
    case "queue_holes":
      return findQueueHoles(vault);
    case "receipt":
      return findReceipt(vault, wallet);
    case "depositor_asset":
    case "owner_asset":
      return findAssociatedTokenAddress(wallet, tokens.assetMint);
    case "depositor_shares":
    case "owner_shares":
      return findAssociatedTokenAddress(wallet, tokens.shareMint);
    default:
      return fixed === undefined ? null : new PublicKey(fixed);
  }
}

function sameBytes(left: Uint8Array, right: readonly number[]): boolean {
  return left.length >= right.length && right.every((byte, index) => left[index] === byte);
}

/** The vault instruction's name by its discriminator, for saying what was found instead. */
function vaultInstructionName(data: Uint8Array): string {
  return (
    vaultIdl.instructions.find((candidate) => sameBytes(data, candidate.discriminator))?.name ?? "unknown"
  );
}

/** The vault instruction's u64 (and other integer) arguments in the IDL's order, as decimal strings. */
function decodeIntegerArgs(
  definition: IdlInstruction,
  data: Uint8Array,
  index: number,
): Record<string, string> {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const widths: Record<string, number> = { u8: 1, u16: 2, u32: 4, u64: 8 };
  const args: Record<string, string> = {};
  let offset = definition.discriminator.length;
  for (const arg of definition.args) {
    const width = typeof arg.type === "string" ? widths[arg.type] : undefined;
    if (width === undefined || offset + width > data.length) {
      fail("WRONG_VAULT_INSTRUCTION", `The ${definition.name} instruction's arguments do not decode`, {
        instruction: index,
        argument: arg.name,
      });
    }
    const value =
      width === 8
        ? view.getBigUint64(offset, true)
        : BigInt(
            width === 4
              ? view.getUint32(offset, true)
              : width === 2
                ? view.getUint16(offset, true)
                : view.getUint8(offset),
          );
    args[arg.name] = value.toString();
    offset += width;
  }
  if (offset !== data.length) {
    fail(
      "WRONG_VAULT_INSTRUCTION",
      `The ${definition.name} instruction carries ${data.length - offset} extra bytes`,
      {
        instruction: index,
      },
    );
  }
  return args;
}

interface Instruction {
  index: number;
  program: PublicKey;
  accounts: PublicKey[];
  data: Uint8Array;
}

/** The message's instructions with their keys resolved (static keys only: lookups were refused). */
function instructionsOf(transaction: VersionedTransaction): Instruction[] {
  const keys = transaction.message.staticAccountKeys;
  const keyAt = (position: number, index: number): PublicKey => {
    const key = keys[position];
    if (key === undefined) {
      fail(
        "UNEXPECTED_INSTRUCTION",
        `Instruction ${index} names account ${position}, beyond the message's keys`,
        {
          instruction: index,
        },
      );
    }
    return key;
  };
  return transaction.message.compiledInstructions.map((instruction, index) => ({
    index,
    program: keyAt(instruction.programIdIndex, index),
    accounts: instruction.accountKeyIndexes.map((position) => keyAt(position, index)),
    data: instruction.data,
  }));
}

function checkAccounts(
  instruction: Instruction,
  definition: IdlInstruction,
  expected: ExpectedVaultTransaction,
  tokens: VaultTokens,
  partner: PublicKey | null,
): void {
  if (instruction.accounts.length !== definition.accounts.length) {
    fail(
      "WRONG_ACCOUNT",
      `The ${definition.name} instruction has ${instruction.accounts.length} accounts; the program takes ${definition.accounts.length}`,
      {
        instruction: instruction.index,
        expected: definition.accounts.length,
        found: instruction.accounts.length,
      },
    );
  }
  definition.accounts.forEach((account, position) => {
    const want = expectedAccount(account.name, account.address, expected, tokens, partner);
    const found = instruction.accounts[position];
    if (want === null) {
      fail(
        "WRONG_ACCOUNT",
        `The ${definition.name} instruction's account ${account.name} cannot be checked`,
        {
          instruction: instruction.index,
          account: account.name,
        },
      );
    }
    if (found === undefined || !found.equals(want)) {
      fail(
        "WRONG_ACCOUNT",
        `The ${definition.name} instruction's ${account.name} is ${found?.toBase58() ?? "missing"}, not ${want.toBase58()}`,
        {
          instruction: instruction.index,
          account: account.name,
          expected: want.toBase58(),
          found: found?.toBase58() ?? null,
        },
      );
    }
  });
}

/** What a partner fee is held to: the caller's maximum and what the build showed. */
interface PartnerFeeBounds {
  maxFeeBps: number;
  shown: { partner: PublicKey; feeBps: number } | null;
}

/**
 * A deposit with a partner fee: the fee at most the caller's maximum and exactly the one the build
 * showed, paid to the partner the build named (its accounts are checked against that partner).
 */
function checkPartnerFee(
  instruction: Instruction,
  asked: string | undefined,
  bounds: PartnerFeeBounds,
): number {
  const found = Number(asked ?? Number.NaN);
  if (!(found <= bounds.maxFeeBps)) {
    fail(
      "PARTNER_FEE_TOO_HIGH",
      `The deposit pays a partner fee of ${asked ?? "missing"} bps; at most ${bounds.maxFeeBps} is accepted`,
      { instruction: instruction.index, expected: bounds.maxFeeBps, found: asked ?? null },
    );
  }
  if (bounds.shown === null || bounds.shown.feeBps !== found) {
    fail(
      "PARTNER_FEE_NOT_SHOWN",
      `The deposit pays a partner fee of ${found} bps; the build showed ${bounds.shown === null ? "none" : `${bounds.shown.feeBps} bps`}`,
      { instruction: instruction.index, expected: bounds.shown?.feeBps ?? null, found },
    );
  }
  return found;
}

/**
 * The bump a deposit with a partner fee passes for the partner's associated token account is that
 * address's canonical bump. The program re-derives the account from it with one hash and refuses one
 * that does not give the account (a wrong bump, or a non-canonical one, where no token account can
 * exist); a gateway that sent either would have the wallet sign a transaction bound to fail.
 */
function checkPartnerAssetBump(
  instruction: Instruction,
  found: string | null,
  argument: string,
  partner: PublicKey,
  tokens: VaultTokens,
): void {
  const canonical = findAssociatedTokenAddressAndBump(partner, tokens.assetMint).bump;
  if (found !== String(canonical)) {
    fail(
      "WRONG_ACCOUNT",
      `The deposit names the partner's asset account with bump ${found ?? "missing"}; its address's bump is ${canonical}`,
      {
        instruction: instruction.index,
        account: "partner_asset",
        argument,
        expected: canonical,
        found: found === null ? null : Number(found),
      },
    );
  }
}

function checkVaultInstruction(
  instruction: Instruction,
  expected: ExpectedVaultTransaction,
  tokens: VaultTokens,
  amount: bigint | null,
  bounds: PartnerFeeBounds,
): { operation: Operation; args: Record<string, string>; partnerFee: CheckedPartnerFee | null } {
  // The operations the spec's word names (a deposit: with or without a partner fee), by discriminator.
  const candidates = operationsOf(expected.operation);
  const operation =
    candidates.find((candidate) => sameBytes(instruction.data, candidate.instruction.discriminator)) ?? null;
  if (operation === null) {
    const wanted = candidates.map((candidate) => candidate.instruction.name).join(" or ");
    fail(
      "WRONG_VAULT_INSTRUCTION",
      `Instruction ${instruction.index} is the vault's ${vaultInstructionName(instruction.data)}, not ${wanted}`,
      {
        instruction: instruction.index,
        // The operation the word names first (a plain deposit); the message names every one.
        expected: operationOf(expected.operation).instruction.name,
        found: vaultInstructionName(instruction.data),
      },
    );
  }
  const definition = operation.instruction;
  const { partnerFee, feeCapArg } = operation;
  // The partner's accounts are derived from the partner the build named; a build that names none
  // cannot have its fee's destination checked.
  const partner = partnerFee === null ? null : (bounds.shown?.partner ?? null);
  const args = decodeIntegerArgs(definition, instruction.data, instruction.index);
  const feeBps = partnerFee === null ? null : checkPartnerFee(instruction, args[partnerFee.bpsArg], bounds);
  checkAccounts(instruction, definition, expected, tokens, partner);
  if (partnerFee !== null && partner !== null) {
    const bump = partnerFee.assetBumpArg;
    checkPartnerAssetBump(instruction, args[bump] ?? null, bump, partner, tokens);
  }
  const amountArg = operation.amount?.arg ?? null;
  if (amountArg !== null && amount !== null && args[amountArg] !== amount.toString()) {
    fail(
      "WRONG_AMOUNT",
      `The ${definition.name} instruction's ${amountArg} is ${args[amountArg] ?? "missing"}, not the ${amount} asked for`,
      {
        instruction: instruction.index,
        argument: amountArg,
        expected: amount.toString(),
        found: args[amountArg] ?? null,
      },
    );
  }
  // A request accepts at most the fee the vault charges now (what the holder was shown): a gateway
  // that raised it would let a fee raised just before the request apply to it.
  const feeCap = feeCapArg === null ? undefined : args[feeCapArg];
  if (feeCapArg !== null && !(Number(feeCap ?? Number.NaN) <= tokens.feeBps)) {
    fail(
      "FEE_ABOVE_VAULT",
      `The request accepts a fee of up to ${feeCap ?? "missing"} bps; the vault charges ${tokens.feeBps}`,
      { instruction: instruction.index, expected: tokens.feeBps, found: feeCap ?? null },
    );
  }
  return {
    operation,
    args,
    partnerFee:
      partner === null || feeBps === null
        ? null
        : { partner, partnerAsset: findAssociatedTokenAddress(partner, tokens.assetMint), feeBps },
  };
}

function checkTokenAccountCreation(
  instruction: Instruction,
  expected: ExpectedVaultTransaction,
  tokens: VaultTokens,
): void {
  const created = operationOf(expected.operation).createdTokenAccount;
  const [kind] = instruction.data;
  if (
    created === null ||
    instruction.data.length !== 1 ||
    (kind !== ATA_CREATE && kind !== ATA_CREATE_IDEMPOTENT)
  ) {
    fail(
      "UNEXPECTED_INSTRUCTION",
      `Instruction ${instruction.index} is an associated token instruction a ${expected.operation} does not need`,
      {
        instruction: instruction.index,
        program: ASSOCIATED_TOKEN_PROGRAM_ID.toBase58(),
      },
    );
  }
  const mint = created === "asset" ? tokens.assetMint : tokens.shareMint;
  const { wallet } = expected;
  const want = [
    wallet,
    findAssociatedTokenAddress(wallet, mint),
    wallet,
    mint,
    SystemProgram.programId,
    TOKEN_PROGRAM_ID,
  ];
  const names = ["payer", "account", "owner", "mint", "system_program", "token_program"];
  if (instruction.accounts.length !== want.length) {
    fail(
      "WRONG_ACCOUNT",
      `Instruction ${instruction.index} creates a token account with ${instruction.accounts.length} accounts`,
      {
        instruction: instruction.index,
        expected: want.length,
        found: instruction.accounts.length,
      },
    );
  }
  want.forEach((key, position) => {
    const found = instruction.accounts[position];
    if (found === undefined || !found.equals(key)) {
      fail(
        "WRONG_ACCOUNT",
        `Instruction ${instruction.index} creates a token account whose ${names[position] ?? position} is ${found?.toBase58() ?? "missing"}, not ${key.toBase58()}`,
        {
          instruction: instruction.index,
          account: names[position] ?? String(position),
          expected: key.toBase58(),
          found: found?.toBase58() ?? null,
        },
      );
    }
  });
}

interface ComputeBudget {
  limit: number | null;
  price: number | null;
}

function readComputeBudget(instruction: Instruction, budget: ComputeBudget): void {
  const { data, index } = instruction;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const [kind] = data;
  if (
    instruction.accounts.length === 0 &&
    kind === COMPUTE_BUDGET_SET_LIMIT &&
    data.length === 5 &&
    budget.limit === null
  ) {
    budget.limit = view.getUint32(1, true);
    return;
  }
  if (
    instruction.accounts.length === 0 &&
    kind === COMPUTE_BUDGET_SET_PRICE &&
    data.length === 9 &&
    budget.price === null
  ) {
    const price = view.getBigUint64(1, true);
    // Above Number's safe range is above any cap: keep it saying so rather than losing digits.
    budget.price = price > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(price);
    return;
  }
  fail(
    "UNEXPECTED_INSTRUCTION",
    `Instruction ${index} is a compute-budget instruction the operation does not need`,
    {
      instruction: index,
      program: ComputeBudgetProgram.programId.toBase58(),
    },
  );
}

/**
 * Checks a built transaction against the request; returns what it will do, or throws a
 * TransactionCheckError naming what did not match. Nothing here asks a signer anything.
 */
export function verifyVaultTransaction(
  transaction: VersionedTransaction,
  expected: ExpectedVaultTransaction,
  tokens: VaultTokens,
  options: CheckOptions = {},
  built: BuildAnswer = {},
): VerifiedTransaction {
  const slippageBps = slippageOf(options);
  const partnerBounds: PartnerFeeBounds = {
    maxFeeBps: partnerMaximumOf(options),
    // What the build shows of a partner fee, when an operation of this word can pay one.
    shown: operationsOf(expected.operation).some((operation) => operation.partnerFee !== null)
      ? partnerFeeShown(built)
      : null,
  };
  const pinned = options.partner;
  if (pinned !== undefined && partnerBounds.shown !== null && !partnerBounds.shown.partner.equals(pinned)) {
    fail(
      "WRONG_ACCOUNT",
      `The build pays its partner fee to ${partnerBounds.shown.partner.toBase58()}, not to the partner shown, ${pinned.toBase58()}`,
      { account: "partner", expected: pinned.toBase58(), found: partnerBounds.shown.partner.toBase58() },
    );
  }
  if (!tokens.vault.equals(expected.vault)) {
    fail("NOT_A_VAULT", "The vault's tokens were read for another vault", {
      expected: expected.vault.toBase58(),
      found: tokens.vault.toBase58(),
    });
  }
  const { message } = transaction;
  if (message.version === 0 && message.addressTableLookups.length > 0) {
    fail(
      "LOOKUP_TABLES",
      "The transaction loads accounts from address lookup tables, which cannot be checked",
      {
        lookupTables: message.addressTableLookups.length,
      },
    );
  }
  const payer = message.staticAccountKeys[0];
  if (payer === undefined || !payer.equals(expected.wallet)) {
    fail("FEE_PAYER", `The fee payer is ${payer?.toBase58() ?? "missing"}, not the wallet`, {
      expected: expected.wallet.toBase58(),
      found: payer?.toBase58() ?? null,
    });
  }
  if (message.header.numRequiredSignatures !== 1) {
    fail(
      "EXTRA_SIGNER",
      `The transaction needs ${message.header.numRequiredSignatures} signatures; only the wallet's is expected`,
      {
        signatures: message.header.numRequiredSignatures,
        signer: message.staticAccountKeys[1]?.toBase58() ?? null,
      },
    );
  }
  const amount = expectedAmount(expected, tokens);
  const budget: ComputeBudget = { limit: null, price: null };
  let args: Record<string, string> | null = null;
  let operation: Operation | null = null;
  let partnerFee: CheckedPartnerFee | null = null;
  let createdAccounts = 0;
  const instructions = instructionsOf(transaction);
  for (const instruction of instructions) {
    if (instruction.program.equals(ComputeBudgetProgram.programId)) {
      readComputeBudget(instruction, budget);
    } else if (instruction.program.equals(VAULT_PROGRAM_ID)) {
      if (args !== null) {
        fail("UNEXPECTED_INSTRUCTION", `Instruction ${instruction.index} is a second vault instruction`, {
          instruction: instruction.index,
          program: VAULT_PROGRAM_ID.toBase58(),
        });
      }
      ({ operation, args, partnerFee } = checkVaultInstruction(
        instruction,
        expected,
        tokens,
        amount,
        partnerBounds,
      ));
    } else if (instruction.program.equals(ASSOCIATED_TOKEN_PROGRAM_ID) && createdAccounts === 0) {
      checkTokenAccountCreation(instruction, expected, tokens);
      createdAccounts += 1;
    } else {
      fail(
        "UNEXPECTED_PROGRAM",
        `Instruction ${instruction.index} calls ${instruction.program.toBase58()}, which a ${expected.operation} does not need`,
        {
          instruction: instruction.index,
          program: instruction.program.toBase58(),
        },
      );
    }
  }
  if (args === null || operation === null) {
    fail(
      "MISSING_VAULT_INSTRUCTION",
      `The transaction has no ${operationOf(expected.operation).instruction.name} instruction`,
      {
        expected: operationOf(expected.operation).instruction.name,
      },
    );
  }
  const { sharesGuardArg } = operation;
  const estimatedShares = sharesGuardArg === null ? null : estimatedSharesOf(built);
  if (sharesGuardArg !== null) {
    checkSlippageGuard(args, sharesGuardArg, estimatedShares, slippageBps);
  }
  const maxPrice = options.maxComputeUnitPriceMicroLamports ?? DEFAULT_MAX_COMPUTE_UNIT_PRICE_MICRO_LAMPORTS;
  const price = budget.price ?? 0;
  if (price > maxPrice) {
    fail(
      "COMPUTE_PRICE_TOO_HIGH",
      `The compute-unit price is ${price} micro-lamports; at most ${maxPrice} is accepted`,
      {
        expected: maxPrice,
        found: price,
      },
    );
  }
  const nonBudget = instructions.filter(
    (instruction) => !instruction.program.equals(ComputeBudgetProgram.programId),
  );
  const limit =
    budget.limit ?? Math.min(MAX_COMPUTE_UNIT_LIMIT, DEFAULT_UNITS_PER_INSTRUCTION * nonBudget.length);
  if (limit > MAX_COMPUTE_UNIT_LIMIT) {
    fail(
      "COMPUTE_LIMIT_TOO_HIGH",
      `The compute-unit limit is ${limit}; the runtime allows ${MAX_COMPUTE_UNIT_LIMIT}`,
      {
        expected: MAX_COMPUTE_UNIT_LIMIT,
        found: limit,
      },
    );
  }
  const maxFeeLamports = LAMPORTS_PER_SIGNATURE + (BigInt(limit) * BigInt(price) + 999_999n) / 1_000_000n;
  // The rent of the program accounts the operation may pay for (a request's receipt; the queue's hole
  // list, which the first cancel that leaves a hole creates) and of a token account it creates.
  const rent =
    operationOf(expected.operation).rentPaidFor.reduce((sum, size) => sum + rentExemptMinimum(size), 0n) +
    (createdAccounts > 0 ? rentExemptMinimum(TOKEN_ACCOUNT_SIZE) : 0n);
  return {
    operation: expected.operation,
    tokens,
    args,
    computeUnitLimit: limit,
    computeUnitPriceMicroLamports: price,
    maxFeeLamports,
    maxLamportsSpent: maxFeeLamports + rent,
    estimatedShares,
    maxSlippageBps: slippageBps,
    partnerFee,
    watched: {
      wallet: expected.wallet,
      asset: findAssociatedTokenAddress(expected.wallet, tokens.assetMint),
      shares: findAssociatedTokenAddress(expected.wallet, tokens.shareMint),
    },
  };
}

/**
 * The simulated changes against what the operation can do: a deposit pays at most its amount of the
 * asset and gains shares, a request gives at most its shares into escrow, a claim and a cancel only
 * gain (a cancel's shares come back from the escrow); no operation spends more SOL than its fee and
 * the rent of the account it creates. A deposit's preview, less the slippage, may not sit below the
 * shares the simulation mints: its guard was held to that preview.
 */
export function checkBalanceChanges(verified: VerifiedTransaction, changes: BalanceChanges): void {
  // The most the wallet pays of a token: the amount asked for, when the operation pays that token
  // (the operations of one word pay the same: a deposit with a partner fee pays its amount too).
  const { amount } = operationOf(verified.operation);
  const floor = (token: "asset" | "shares") =>
    amount?.token === token ? -BigInt(verified.args[amount.arg] ?? "0") : 0n;
  const assetFloor = floor("asset");
  const sharesFloor = floor("shares");
  const refuse = (what: string, floor: bigint, found: bigint) =>
    fail(
      "SIMULATED_OUTFLOW",
      `The simulation takes ${-found} of the wallet's ${what}; at most ${-floor} is expected`,
      {
        balance: what,
        expected: floor.toString(),
        found: found.toString(),
      },
    );
  if (changes.asset < assetFloor) {
    refuse("asset", assetFloor, changes.asset);
  }
  if (changes.shares < sharesFloor) {
    refuse("shares", sharesFloor, changes.shares);
  }
  if (changes.lamports < -verified.maxLamportsSpent) {
    refuse("lamports", -verified.maxLamportsSpent, changes.lamports);
  }
  const estimate = verified.estimatedShares;
  // Held only where the build showed a preview its guard was held to (sharesGuardArg).
  if (estimate !== null && estimate < lessBasisPointsRoundDown(changes.shares, verified.maxSlippageBps)) {
    fail(
      "ESTIMATE_BELOW_SIMULATION",
      `The build showed ${estimate} shares; the simulation mints ${changes.shares}, more than ${verified.maxSlippageBps} bps above it`,
      {
        estimated: estimate.toString(),
        found: changes.shares.toString(),
        maxSlippageBps: verified.maxSlippageBps,
      },
    );
  }
}

/**
 * The check a client runs on each transaction the gateway builds for one request: the vault's tokens
 * read once through the client's own connection, then verifyVaultTransaction on every (re)build.
 */
export function vaultTransactionVerifier(
  connection: Pick<Connection, "getAccountInfo">,
  expected: ExpectedVaultTransaction,
  options: CheckOptions = {},
): (transaction: VersionedTransaction, built: BuildAnswer) => Promise<VerifiedTransaction> {
  slippageOf(options);
  partnerMaximumOf(options);
  let tokens: Promise<VaultTokens> | null = null;
  return async (transaction, built) => {
    tokens ??= readVaultTokens(connection, expected.vault).catch((error: unknown) => {
      // A failed read (the RPC did not answer) is tried again on the next build.
      tokens = null;
      throw error;
    });
    return verifyVaultTransaction(transaction, expected, await tokens, options, built);
  };
}
