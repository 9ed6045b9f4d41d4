// Decoding and sanitizing a wire transaction the way a validator's RPC does before simulating or
// executing it, plus the facts about it the chain needs: signatures, blockhash, fee and memos.
import bs58 from "bs58";
import { PublicKey, VersionedMessage, type MessageCompiledInstruction } from "@solana/web3.js";

import type { TransactionErrorJson } from "./transaction-error";

/** Largest serialized transaction a validator accepts (PACKET_DATA_SIZE). */
export const PACKET_DATA_SIZE = 1232;
export const LAMPORTS_PER_SIGNATURE = 5000n;

const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111";
const SYSTEM_PROGRAM = "11111111111111111111111111111111";
const MEMO_PROGRAMS = new Set([
  "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",
  "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo",
]);
const SIGNATURE_PRECOMPILES = new Set([
  "Ed25519SigVerify111111111111111111111111111",
  "KeccakSecp256k11111111111111111111111111111",
  "Secp256r1SigVerify1111111111111111111111111",
]);
/** Programs whose instructions a validator budgets at 3,000 compute units rather than 200,000. */
const BUILTIN_PROGRAMS = new Set([
  SYSTEM_PROGRAM,
  COMPUTE_BUDGET_PROGRAM,
  "Vote111111111111111111111111111111111111111",
  "BPFLoaderUpgradeab1e11111111111111111111111",
  ...SIGNATURE_PRECOMPILES,
]);
const DEFAULT_INSTRUCTION_COMPUTE_UNITS = 200_000n;
const BUILTIN_INSTRUCTION_COMPUTE_UNITS = 3_000n;
const MAX_COMPUTE_UNITS = 1_400_000n;
const ADVANCE_NONCE_ACCOUNT = 4;

/** Raised for a transaction a validator's RPC refuses before execution (JSON-RPC -32602). */
export class TransactionDecodeError extends Error {}

export interface DecodedTransaction {
  wire: Uint8Array;
  message: VersionedMessage;
  /** The message exactly as signed. */
  messageBytes: Uint8Array;
  signatures: Uint8Array[];
  /** The first signature, base58: the transaction's id. */
  signature: string;
  version: "legacy" | 0;
  recentBlockhash: string;
  staticAccountKeys: PublicKey[];
  instructions: MessageCompiledInstruction[];
}

function readCompactU16(bytes: Uint8Array, offset: number): [value: number, size: number] {
  let value = 0;
  for (let size = 0; size < 3; size += 1) {
    const byte = bytes[offset + size];
    if (byte === undefined) {
      throw new TransactionDecodeError("io error: unexpected end of file");
    }
    value |= (byte & 0x7f) << (7 * size);
    if ((byte & 0x80) === 0) {
      return [value, size + 1];
    }
  }
  throw new TransactionDecodeError("invalid compact-u16");
}

function writeCompactU16(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    if (rest === 0) {
      bytes.push(byte);
      return bytes;
    }
    bytes.push(byte | 0x80);
  }
}

const TYPE_NAME = "solana_transaction::versioned::VersionedTransaction";

/** Parses wire bytes; throws TransactionDecodeError with the validator's wording on malformed input. */
export function decodeTransaction(wire: Uint8Array): DecodedTransaction {
  if (wire.length > PACKET_DATA_SIZE) {
    throw new TransactionDecodeError(
      `decoded ${TYPE_NAME} too large: ${wire.length} bytes (max: ${PACKET_DATA_SIZE} bytes)`,
    );
  }
  try {
    const [count, prefix] = readCompactU16(wire, 0);
    const messageStart = prefix + count * 64;
    if (messageStart > wire.length) {
      throw new TransactionDecodeError("io error: unexpected end of file");
    }
    const signatures: Uint8Array[] = [];
    for (let index = 0; index < count; index += 1) {
      signatures.push(wire.slice(prefix + index * 64, prefix + (index + 1) * 64));
    }
    const messageBytes = wire.subarray(messageStart);
    const version = VersionedMessage.deserializeMessageVersion(messageBytes);
    if (version !== "legacy" && version !== 0) {
      throw new TransactionDecodeError(`unsupported transaction version ${version}`);
    }
    const message = VersionedMessage.deserialize(messageBytes);
    const first = signatures[0] ?? new Uint8Array(64);
    return {
      wire,
      message,
      messageBytes,
      signatures,
      signature: bs58.encode(first),
      version,
      recentBlockhash: message.recentBlockhash,
      staticAccountKeys: message.staticAccountKeys,
      instructions: message.compiledInstructions,
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TransactionDecodeError(`failed to deserialize ${TYPE_NAME}: ${reason}`);
  }
}

/** The sanitize checks of SanitizedTransaction::try_create; returns the error a validator reports. */
export function sanitizeTransaction(transaction: DecodedTransaction): TransactionErrorJson | null {
  const { header } = transaction.message;
  const keyCount = transaction.staticAccountKeys.length;
  const loadedCount = transaction.message.addressTableLookups.reduce(
    (sum, lookup) => sum + lookup.writableIndexes.length + lookup.readonlyIndexes.length,
    0,
  );
  const totalKeys = keyCount + loadedCount;
  const headerIsSound =
    header.numRequiredSignatures >= 1 &&
    header.numRequiredSignatures === transaction.signatures.length &&
    header.numReadonlySignedAccounts < header.numRequiredSignatures &&
    header.numRequiredSignatures + header.numReadonlyUnsignedAccounts <= keyCount &&
    totalKeys <= 256;
  if (!headerIsSound) {
    return "SanitizeFailure";
  }
  for (const instruction of transaction.instructions) {
    // A program id must be a static key and may not be the fee payer.
    if (instruction.programIdIndex === 0 || instruction.programIdIndex >= keyCount) {
      return "SanitizeFailure";
    }
    if (instruction.accountKeyIndexes.some((index) => index >= totalKeys)) {
      return "SanitizeFailure";
    }
  }
  const distinct = new Set(transaction.staticAccountKeys.map((key) => key.toBase58()));
  if (distinct.size !== keyCount) {
    return "AccountLoadedTwice";
  }
  return null;
}

/** A copy of the transaction with another recent blockhash (its signatures no longer verify). */
export function withRecentBlockhash(transaction: DecodedTransaction, blockhash: string): DecodedTransaction {
  const message = VersionedMessage.deserialize(transaction.message.serialize());
  message.recentBlockhash = blockhash;
  const messageBytes = message.serialize();
  const signatureCount = writeCompactU16(transaction.signatures.length);
  const wire = new Uint8Array(
    signatureCount.length + transaction.signatures.length * 64 + messageBytes.length,
  );
  wire.set(signatureCount, 0);
  transaction.signatures.forEach((signature, index) =>
    wire.set(signature, signatureCount.length + index * 64),
  );
  wire.set(messageBytes, signatureCount.length + transaction.signatures.length * 64);
  return { ...transaction, wire, message, messageBytes, recentBlockhash: blockhash };
}

function programOf(transaction: DecodedTransaction, instruction: MessageCompiledInstruction): string {
  return transaction.staticAccountKeys[instruction.programIdIndex]?.toBase58() ?? "";
}

/** A durable-nonce transaction carries a nonce, not a recent blockhash, so the age check skips it. */
export function usesDurableNonce(transaction: DecodedTransaction): boolean {
  const first = transaction.instructions[0];
  if (first === undefined || programOf(transaction, first) !== SYSTEM_PROGRAM || first.data.length < 4) {
    return false;
  }
  return (
    new DataView(first.data.buffer, first.data.byteOffset, 4).getUint32(0, true) === ADVANCE_NONCE_ACCOUNT
  );
}

export interface ComputeBudget {
  unitLimit: bigint;
  /** Micro-lamports per compute unit. */
  unitPrice: bigint;
}

/** The compute-unit limit and price the transaction requests, with a validator's defaults. */
export function computeBudgetOf(transaction: DecodedTransaction): ComputeBudget {
  let requestedLimit: bigint | null = null;
  let unitPrice = 0n;
  let defaultLimit = 0n;
  for (const instruction of transaction.instructions) {
    const program = programOf(transaction, instruction);
    defaultLimit += BUILTIN_PROGRAMS.has(program)
      ? BUILTIN_INSTRUCTION_COMPUTE_UNITS
      : DEFAULT_INSTRUCTION_COMPUTE_UNITS;
    if (program !== COMPUTE_BUDGET_PROGRAM) {
      continue;
    }
    const data = instruction.data;
    const fields = new DataView(data.buffer, data.byteOffset, data.byteLength);
    if (data[0] === 2 && data.length >= 5) {
      requestedLimit = BigInt(fields.getUint32(1, true));
    } else if (data[0] === 3 && data.length >= 9) {
      unitPrice = fields.getBigUint64(1, true);
    }
  }
  const limit = requestedLimit ?? defaultLimit;
  return { unitLimit: limit > MAX_COMPUTE_UNITS ? MAX_COMPUTE_UNITS : limit, unitPrice };
}

/** Base fee (signatures, precompile signatures included) plus the prioritization fee. */
export function feeOf(transaction: DecodedTransaction): bigint {
  let signatureCount = BigInt(transaction.message.header.numRequiredSignatures);
  for (const instruction of transaction.instructions) {
    if (SIGNATURE_PRECOMPILES.has(programOf(transaction, instruction))) {
      signatureCount += BigInt(instruction.data[0] ?? 0);
    }
  }
  const { unitLimit, unitPrice } = computeBudgetOf(transaction);
  const prioritizationFee = (unitPrice * unitLimit + 999_999n) / 1_000_000n;
  return signatureCount * LAMPORTS_PER_SIGNATURE + prioritizationFee;
}

/** Memos as getSignaturesForAddress shows them: "[<bytes>] <text>" joined with "; ", or null. */
export function memoOf(transaction: DecodedTransaction): string | null {
  const memos = transaction.instructions
    .filter((instruction) => MEMO_PROGRAMS.has(programOf(transaction, instruction)))
    .map((instruction) => `[${instruction.data.length}] ${Buffer.from(instruction.data).toString("utf8")}`);
  return memos.length === 0 ? null : memos.join("; ");
}

/** Whether static key `index` is writable by the header, as the runtime locks it. */
export function isStaticKeyWritable(transaction: DecodedTransaction, index: number): boolean {
  const { header } = transaction.message;
  const keyCount = transaction.staticAccountKeys.length;
  if (index < header.numRequiredSignatures) {
    return index < header.numRequiredSignatures - header.numReadonlySignedAccounts;
  }
  return index < keyCount - header.numReadonlyUnsignedAccounts;
}

/** Whether every required signature verifies against the message (a validator's sigverify). */
export function hasValidSignatures(
  transaction: DecodedTransaction,
  verify: (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean,
): boolean {
  return transaction.signatures.every((signature, index) => {
    const signer = transaction.staticAccountKeys[index];
    return signer !== undefined && verify(signer.toBytes(), transaction.messageBytes, signature);
  });
}
