// Test helper: drives LiteSVM (which speaks @solana/kit types) with @solana/web3.js v1 values.
import {
  Keypair,
  PublicKey,
  SystemProgram,
  SYSVAR_CLOCK_PUBKEY,
  SYSVAR_RENT_PUBKEY,
  Transaction,
  TransactionInstruction,
} from "@solana/web3.js";
import { LiteSVM, type FailedTransactionMetadata, type TransactionMetadata } from "litesvm";

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

const UPGRADEABLE_LOADER = new PublicKey("BPFLoaderUpgradeab1e11111111111111111111111");
const BUFFER_METADATA_SIZE = 37;
const PROGRAM_ACCOUNT_SIZE = 36;
const WRITE_CHUNK = 900;

/**
 * Deploys `program` the way `solana program deploy` does (buffer, writes, DeployWithMaxDataLen), so it
 * passes the runtime's deploy-time ELF checks rather than LiteSVM's `addProgram` shortcut.
 */
export function deployUpgradeable(svm: LiteSVM, payer: Keypair, program: Uint8Array): PublicKey {
  const buffer = Keypair.generate();
  const programKeypair = Keypair.generate();
  const bufferSize = BUFFER_METADATA_SIZE + program.length;
  expectSuccess(
    sendInstructions(
      svm,
      [payer, buffer],
      [
        SystemProgram.createAccount({
          fromPubkey: payer.publicKey,
          newAccountPubkey: buffer.publicKey,
          lamports: Number(svm.minimumBalanceForRentExemption(BigInt(bufferSize))),
          space: bufferSize,
          programId: UPGRADEABLE_LOADER,
        }),
        loaderInstruction(encodeLoaderInstruction(0), [
          { pubkey: buffer.publicKey, isSigner: false, isWritable: true },
          { pubkey: payer.publicKey, isSigner: false, isWritable: false },
        ]),
      ],
    ),
    "InitializeBuffer",
  );
  for (let offset = 0; offset < program.length; offset += WRITE_CHUNK) {
    const bytes = program.subarray(offset, offset + WRITE_CHUNK);
    const write = loaderInstruction(encodeLoaderInstruction(1, u32(offset), u64(bytes.length), bytes), [
      { pubkey: buffer.publicKey, isSigner: false, isWritable: true },
      { pubkey: payer.publicKey, isSigner: true, isWritable: false },
    ]);
    expectSuccess(sendInstructions(svm, [payer], [write]), `Write at ${offset}`);
  }
  const [programData] = PublicKey.findProgramAddressSync(
    [programKeypair.publicKey.toBuffer()],
    UPGRADEABLE_LOADER,
  );
  expectSuccess(
    sendInstructions(
      svm,
      [payer, programKeypair],
      [
        SystemProgram.createAccount({
          fromPubkey: payer.publicKey,
          newAccountPubkey: programKeypair.publicKey,
          lamports: Number(svm.minimumBalanceForRentExemption(BigInt(PROGRAM_ACCOUNT_SIZE))),
          space: PROGRAM_ACCOUNT_SIZE,
          programId: UPGRADEABLE_LOADER,
        }),
        loaderInstruction(encodeLoaderInstruction(2, u64(program.length * 2)), [
          { pubkey: payer.publicKey, isSigner: true, isWritable: true },
          { pubkey: programData, isSigner: false, isWritable: true },
          { pubkey: programKeypair.publicKey, isSigner: false, isWritable: true },
          { pubkey: buffer.publicKey, isSigner: false, isWritable: true },
          { pubkey: SYSVAR_RENT_PUBKEY, isSigner: false, isWritable: false },
          { pubkey: SYSVAR_CLOCK_PUBKEY, isSigner: false, isWritable: false },
          { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
          { pubkey: payer.publicKey, isSigner: true, isWritable: false },
        ]),
      ],
    ),
    "DeployWithMaxDataLen",
  );
  return programKeypair.publicKey;
}

function expectSuccess(result: TransactionResult, step: string): void {
  if (isFailure(result)) throw new Error(`${step} failed: ${result.toString()}`);
}

function loaderInstruction(data: Uint8Array, keys: TransactionInstruction["keys"]): TransactionInstruction {
  return new TransactionInstruction({ programId: UPGRADEABLE_LOADER, keys, data: Buffer.from(data) });
}

/** bincode: a u32 variant tag followed by the fields. */
function encodeLoaderInstruction(tag: number, ...fields: Uint8Array[]): Uint8Array {
  return Buffer.concat([u32(tag), ...fields]);
}

function u32(value: number): Uint8Array {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value);
  return bytes;
}

function u64(value: number): Uint8Array {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(BigInt(value));
  return bytes;
}
