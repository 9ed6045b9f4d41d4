// What a failed transaction's error means, decoded in one place for every sender: the pages' and the
// typed client's flow (lib/vault/send/transaction-flow.ts), the operator CLIs and the keeper
// (lib/operator/chain-client.ts), the local chain's own transactions (localnet/local-transactions.ts)
// and the program tests' LiteSVM harness. The input is the TransactionError as the RPC encodes it
// (serde's JSON of agave's enum: a unit variant is a string, any other a one-key object); a custom
// code is the vault's only when the vault program is the one that failed, and is then named by the
// IDL (lib/vault/program/program-errors.ts), so no error number is written anywhere else.
import { VAULT_PROGRAM_ADDRESS } from "../program/program-id";
import { VAULT_ERRORS, vaultErrorFromCode, type VaultProgramError } from "../program/program-errors";

const SYSTEM_PROGRAM_ADDRESS = "11111111111111111111111111111111";

/** The System program's SystemError::ResultWithNegativeLamports: a transfer or account creation its payer cannot afford. */
const SYSTEM_INSUFFICIENT_LAMPORTS = 1;

/** The fee payer cannot pay: the fee, the rent an account it funds must keep, or it was never funded. */
const INSUFFICIENT_SOL: ReadonlySet<string> = new Set([
  "InsufficientFundsForFee",
  "InsufficientFundsForRent",
  "AccountNotFound",
]);

export type TransactionFailureKind =
  /** The vault program refused with one of its own errors (`vaultError` names it). */
  | "custom"
  /** The fee payer lacks the SOL for the fee, for rent, or for a transfer it makes. */
  | "insufficient-sol"
  /** The blockhash is unknown to the node (expired, or not yet seen): rebuild, never resend. */
  | "blockhash"
  | "other";

export interface TransactionFailure {
  kind: TransactionFailureKind;
  /** The variant's name (InstructionError, BlockhashNotFound, …); "" for a value that is no TransactionError. */
  variant: string;
  /** The failing top-level instruction, for an InstructionError. */
  instructionIndex: number | null;
  /** A custom program error's number, whichever program returned it. */
  customCode: number | null;
  /** The program that failed, when the logs or the instruction list say which; else null. */
  program: string | null;
  /** The vault program's error as its IDL declares it, when the vault program is the one that failed. */
  vaultError: VaultProgramError | null;
  /** One line for a person or a log: the variant, and the program error by name where there is one. */
  description: string;
}

/** Where the failure happened: the logs (simulation or preflight) and the transaction's top-level programs. */
export interface FailureSite {
  logs?: readonly string[] | null;
  /** Each top-level instruction's program id (base58), in order. */
  programs?: readonly string[];
}

function variantOf(error: unknown): { name: string; value: unknown } {
  if (typeof error === "string") {
    return { name: error, value: null };
  }
  if (typeof error !== "object" || error === null) {
    return { name: "", value: null };
  }
  const [entry] = Object.entries(error);
  return entry === undefined ? { name: "", value: null } : { name: entry[0], value: entry[1] };
}

/** `InstructionError: [index, inner]`'s index and, when inner is `{ Custom: n }`, n. */
function instructionErrorOf(error: unknown): { index: number; custom: number | null } | null {
  const { name, value } = variantOf(error);
  if (name !== "InstructionError" || !Array.isArray(value)) {
    return null;
  }
  const [index, inner]: unknown[] = value;
  if (typeof index !== "number") {
    return null;
  }
  const custom =
    typeof inner === "object" && inner !== null && "Custom" in inner && typeof inner.Custom === "number"
      ? inner.Custom
      : null;
  return { index, custom };
}

/** The custom program error number of `{ InstructionError: [i, { Custom: n }] }`, else null. */
export function customErrorCode(error: unknown): number | null {
  return instructionErrorOf(error)?.custom ?? null;
}

const FAILED_PROGRAM = /^Program ([1-9A-HJ-NP-Za-km-z]{32,44}) failed: /;

/**
 * The innermost program that failed, when the logs show one: a program the top-level instruction
 * invoked (the vault, or the associated token program creating an account through the System
 * program) fails with its own code under the top-level instruction's index, and no typed value names
 * it. The runtime writes this line itself; a program's own log lines all start "Program log:" or
 * "Program data:", so none can pass for it.
 */
function innermostFailedProgram(logs: readonly string[] | null | undefined): string | null {
  for (const line of logs ?? []) {
    const failed = FAILED_PROGRAM.exec(line);
    if (failed?.[1] !== undefined) {
      return failed[1];
    }
  }
  return null;
}

function describeValue(error: unknown): string {
  return typeof error === "string" ? error : JSON.stringify(error);
}

/** Decodes a TransactionError (as the RPC encodes it) at its site. */
export function decodeTransactionFailure(error: unknown, site: FailureSite = {}): TransactionFailure {
  const { name } = variantOf(error);
  const instruction = instructionErrorOf(error);
  const customCode = instruction?.custom ?? null;
  const program =
    instruction === null
      ? null
      : (innermostFailedProgram(site.logs) ?? site.programs?.[instruction.index] ?? null);
  const vaultError =
    customCode !== null && program === VAULT_PROGRAM_ADDRESS
      ? (vaultErrorFromCode(customCode) ?? null)
      : null;
  let kind: TransactionFailureKind = "other";
  if (name === "BlockhashNotFound") {
    kind = "blockhash";
  } else if (INSUFFICIENT_SOL.has(name)) {
    kind = "insufficient-sol";
  } else if (program === SYSTEM_PROGRAM_ADDRESS && customCode === SYSTEM_INSUFFICIENT_LAMPORTS) {
    kind = "insufficient-sol";
  } else if (customCode !== null && program === VAULT_PROGRAM_ADDRESS) {
    kind = "custom";
  }
  const named =
    vaultError !== null
      ? ` (vault program error ${vaultError.code} ${vaultError.name}: ${vaultError.message})`
      : customCode !== null
        ? ` (custom program error ${customCode}${program === null ? "" : ` from ${program}`})`
        : "";
  return {
    kind,
    variant: name,
    instructionIndex: instruction?.index ?? null,
    customCode,
    program,
    vaultError,
    description: `${describeValue(error)}${named}`,
  };
}

/**
 * The TransactionError a message states in the node's words (agave's Display of the enum), for the
 * variants decodeTransactionFailure tells apart; null for any other text. Only for the places that get
 * no typed value: a preflight refusal web3.js reports (its sendEncodedTransaction keeps the JSON-RPC
 * error's message and logs in SendTransactionError but drops its `data.err`) and a wallet that
 * simulated before signing (wallets report that only as text). A custom program error counts only
 * with its instruction's index, which names the program that refused.
 */
export function transactionErrorInText(
  text: string,
): string | { InstructionError: [number, { Custom: number }] } | null {
  const custom = /Error processing Instruction (\d+): custom program error: 0x([0-9a-f]+)/i.exec(text);
  if (custom?.[1] !== undefined && custom[2] !== undefined) {
    return { InstructionError: [Number(custom[1]), { Custom: Number.parseInt(custom[2], 16) }] };
  }
  const variants: readonly [RegExp, string][] = [
    [/Blockhash not found/i, "BlockhashNotFound"],
    [/Attempt to debit an account but found no record of a prior credit/i, "AccountNotFound"],
    [/Insufficient funds for fee/i, "InsufficientFundsForFee"],
    [/with insufficient funds for rent/i, "InsufficientFundsForRent"],
  ];
  return variants.find(([words]) => words.test(text))?.[1] ?? null;
}

/** Whether the vault program refused with the error its IDL calls `name` (a typo fails loudly). */
export function isVaultError(failure: TransactionFailure, name: string): boolean {
  if (!VAULT_ERRORS.some((error) => error.name === name)) {
    throw new Error(`The vault IDL has no error named ${name}`);
  }
  return failure.vaultError?.name === name;
}
