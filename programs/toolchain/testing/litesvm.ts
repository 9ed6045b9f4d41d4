// Test helper: drives LiteSVM (which speaks @solana/kit types) with @solana/web3.js v1 values.
import { Keypair, PublicKey, Transaction, TransactionInstruction } from "@solana/web3.js";
import { LiteSVM, type FailedTransactionMetadata, type TransactionMetadata } from "litesvm";

import {
  BUFFER_HEADER_SIZE,
  buildCreateBufferInstructions,
  buildDeployInstructions,
  buildWriteInstruction,
  PROGRAM_ACCOUNT_SIZE,
} from "../../../lib/chain/loader-v3";

// litesvm's own @solana/kit is not importable from here; take its types from the API instead.
type KitAddress = Parameters<LiteSVM["addProgram"]>[0];
type KitTransaction = Parameters<LiteSVM["sendTransaction"]>[0];
type Lamports = Parameters<LiteSVM["airdrop"]>[1];

export type TransactionResult = TransactionMetadata | FailedTransactionMetadata;

export function kitAddress(key: PublicKey): KitAddress {
  return key.toBase58() as KitAddress;
}

/** A LiteSVM with a funded fee payer. */
export function createTestValidator(): { svm: LiteSVM; payer: Keypair } {
  const svm = new LiteSVM();
  const payer = Keypair.generate();
  svm.airdrop(kitAddress(payer.publicKey), 10_000_000_000n as Lamports);
  return { svm, payer };
}

/** Signs `instructions` as one legacy transaction and sends it; a fresh blockhash every time. */
export function sendInstructions(
  svm: LiteSVM,
  signers: readonly [Keypair, ...Keypair[]],
  instructions: readonly TransactionInstruction[],
): TransactionResult {
  svm.expireBlockhash();
  const [payer] = signers;
  const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: svm.latestBlockhash() });
  tx.add(...instructions);
  tx.sign(...signers);
  return svm.sendTransaction(toKitTransaction(tx));
}

/** Calls `programId` with `data` and no accounts. */
export function invoke(
  svm: LiteSVM,
  payer: Keypair,
  programId: PublicKey,
  data: number[],
): TransactionResult {
  const instruction = new TransactionInstruction({ programId, keys: [], data: Buffer.from(data) });
  return sendInstructions(svm, [payer], [instruction]);
}

/** A signed web3.js transaction in kit's shape: message bytes plus signatures keyed by signer address. */
export function toKitTransaction(tx: Transaction): KitTransaction {
  const signatures: Record<string, Uint8Array | null> = {};
  for (const { publicKey, signature } of tx.signatures) signatures[publicKey.toBase58()] = signature;
  return {
    messageBytes: new Uint8Array(tx.serializeMessage()) as unknown as KitTransaction["messageBytes"],
    signatures: signatures as KitTransaction["signatures"],
  };
}

export function isFailure(result: TransactionResult): result is FailedTransactionMetadata {
  return "err" in result;
}

export function logsOf(result: TransactionResult): string[] {
  return isFailure(result) ? result.meta().logs() : result.logs();
}

/** The `Custom(n)` code of a failed instruction, or undefined for success and other errors. */
export function customErrorCode(result: TransactionResult): number | undefined {
  if (!isFailure(result)) return undefined;
  const error = result.err();
  if (typeof error !== "object" || !("err" in error) || typeof error.err !== "function") return undefined;
  const inner = error.err();
  return typeof inner === "object" && "code" in inner ? inner.code : undefined;
}

const WRITE_CHUNK = 900;

/**
 * Deploys `program` the way `solana program deploy` does (buffer, writes, DeployWithMaxDataLen), so it
 * passes the runtime's deploy-time ELF checks rather than LiteSVM's `addProgram` shortcut.
 */
export function deployUpgradeable(svm: LiteSVM, payer: Keypair, program: Uint8Array): PublicKey {
  const buffer = Keypair.generate();
  const programKeypair = Keypair.generate();
  const rentFor = (size: number): bigint => svm.minimumBalanceForRentExemption(BigInt(size));
  const bufferLamports = rentFor(BUFFER_HEADER_SIZE + program.length);
  expectSuccess(
    sendInstructions(
      svm,
      [payer, buffer],
      buildCreateBufferInstructions(
        payer.publicKey,
        buffer.publicKey,
        payer.publicKey,
        program.length,
        bufferLamports,
      ),
    ),
    "InitializeBuffer",
  );
  for (let offset = 0; offset < program.length; offset += WRITE_CHUNK) {
    const bytes = program.subarray(offset, offset + WRITE_CHUNK);
    const write = buildWriteInstruction(buffer.publicKey, payer.publicKey, offset, bytes);
    expectSuccess(sendInstructions(svm, [payer], [write]), `Write at ${offset}`);
  }
  const accounts = {
    payer: payer.publicKey,
    program: programKeypair.publicKey,
    buffer: buffer.publicKey,
    authority: payer.publicKey,
  };
  expectSuccess(
    sendInstructions(
      svm,
      [payer, programKeypair],
      buildDeployInstructions(accounts, rentFor(PROGRAM_ACCOUNT_SIZE), program.length * 2),
    ),
    "DeployWithMaxDataLen",
  );
  return programKeypair.publicKey;
}

function expectSuccess(result: TransactionResult, step: string): void {
  if (isFailure(result)) throw new Error(`${step} failed: ${result.toString()}`);
}
