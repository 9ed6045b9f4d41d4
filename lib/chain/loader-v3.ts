// The upgradeable BPF loader (Loader v3): instruction builders and account-state decoding over the
// loader's documented bincode layout (solana-loader-v3-interface). @solana-program/loader-v3 needs
// @solana/kit 6 (this project is on 8), so the few instructions a deploy uses are written here.
import {
  PublicKey,
  SYSVAR_CLOCK_PUBKEY,
  SYSVAR_RENT_PUBKEY,
  SystemProgram,
  TransactionInstruction,
} from "@solana/web3.js";

export const LOADER_V3_PROGRAM_ID = new PublicKey("BPFLoaderUpgradeab1e11111111111111111111111");

/** Bytes before a buffer's program bytes: u32 tag, Option<Pubkey> authority. */
export const BUFFER_HEADER_SIZE = 37;
/** A program account: u32 tag, programdata address. */
export const PROGRAM_ACCOUNT_SIZE = 36;
/** Bytes before a program data account's program bytes: u32 tag, u64 slot, Option<Pubkey> authority. */
export const PROGRAM_DATA_HEADER_SIZE = 45;

const enum Tag {
  InitializeBuffer = 0,
  Write = 1,
  DeployWithMaxDataLen = 2,
  Upgrade = 3,
  SetAuthority = 4,
  ExtendProgram = 6,
}

function tagged(tag: Tag, payloadLength: number): Buffer {
  const data = Buffer.alloc(4 + payloadLength);
  data.writeUInt32LE(tag, 0);
  return data;
}

export function findProgramDataAddress(programId: PublicKey): PublicKey {
  return PublicKey.findProgramAddressSync([programId.toBytes()], LOADER_V3_PROGRAM_ID)[0];
}

/** Creates the buffer account (owned by the loader) sized for `programLength` bytes. */
export function buildCreateBufferInstructions(
  payer: PublicKey,
  buffer: PublicKey,
  authority: PublicKey,
  programLength: number,
  lamports: bigint,
): TransactionInstruction[] {
  return [
    SystemProgram.createAccount({
      fromPubkey: payer,
      newAccountPubkey: buffer,
      lamports: Number(lamports),
      space: BUFFER_HEADER_SIZE + programLength,
      programId: LOADER_V3_PROGRAM_ID,
    }),
    new TransactionInstruction({
      programId: LOADER_V3_PROGRAM_ID,
      keys: [
        { pubkey: buffer, isSigner: false, isWritable: true },
        { pubkey: authority, isSigner: false, isWritable: false },
      ],
      data: tagged(Tag.InitializeBuffer, 0),
    }),
  ];
}

/** Writes `bytes` at `offset` of the buffer's program bytes (bincode: u32 offset, u64 length, bytes). */
export function buildWriteInstruction(
  buffer: PublicKey,
  authority: PublicKey,
  offset: number,
  bytes: Uint8Array,
): TransactionInstruction {
  const data = tagged(Tag.Write, 4 + 8 + bytes.length);
  data.writeUInt32LE(offset, 4);
  data.writeBigUInt64LE(BigInt(bytes.length), 8);
  data.set(bytes, 16);
  return new TransactionInstruction({
    programId: LOADER_V3_PROGRAM_ID,
    keys: [
      { pubkey: buffer, isSigner: false, isWritable: true },
      { pubkey: authority, isSigner: true, isWritable: false },
    ],
    data,
  });
}

/**
 * Creates the program account and deploys the buffer into a new program data account of
 * `maxDataLength` bytes of program room (the Solana CLI's `program deploy` does the same pair).
 */
export function buildDeployInstructions(
  accounts: { payer: PublicKey; program: PublicKey; buffer: PublicKey; authority: PublicKey },
  programAccountLamports: bigint,
  maxDataLength: number,
): TransactionInstruction[] {
  const data = tagged(Tag.DeployWithMaxDataLen, 8);
  data.writeBigUInt64LE(BigInt(maxDataLength), 4);
  return [
    SystemProgram.createAccount({
      fromPubkey: accounts.payer,
      newAccountPubkey: accounts.program,
      lamports: Number(programAccountLamports),
      space: PROGRAM_ACCOUNT_SIZE,
      programId: LOADER_V3_PROGRAM_ID,
    }),
    new TransactionInstruction({
      programId: LOADER_V3_PROGRAM_ID,
      keys: [
        { pubkey: accounts.payer, isSigner: true, isWritable: true },
        { pubkey: findProgramDataAddress(accounts.program), isSigner: false, isWritable: true },
        { pubkey: accounts.program, isSigner: false, isWritable: true },
        { pubkey: accounts.buffer, isSigner: false, isWritable: true },
        { pubkey: SYSVAR_RENT_PUBKEY, isSigner: false, isWritable: false },
        { pubkey: SYSVAR_CLOCK_PUBKEY, isSigner: false, isWritable: false },
        { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
        { pubkey: accounts.authority, isSigner: true, isWritable: false },
      ],
      data,
    }),
  ];
}

/** Replaces the program's bytes with the buffer's; the buffer's lamports go to `spill`. */
export function buildUpgradeInstruction(accounts: {
  program: PublicKey;
  buffer: PublicKey;
  spill: PublicKey;
  authority: PublicKey;
}): TransactionInstruction {
  return new TransactionInstruction({
    programId: LOADER_V3_PROGRAM_ID,
    keys: [
      { pubkey: findProgramDataAddress(accounts.program), isSigner: false, isWritable: true },
      { pubkey: accounts.program, isSigner: false, isWritable: true },
      { pubkey: accounts.buffer, isSigner: false, isWritable: true },
      { pubkey: accounts.spill, isSigner: false, isWritable: true },
      { pubkey: SYSVAR_RENT_PUBKEY, isSigner: false, isWritable: false },
      { pubkey: SYSVAR_CLOCK_PUBKEY, isSigner: false, isWritable: false },
      { pubkey: accounts.authority, isSigner: true, isWritable: false },
    ],
    data: tagged(Tag.Upgrade, 0),
  });
}

/** Grows the program data account by `additionalBytes`, the payer covering the rent. */
export function buildExtendProgramInstruction(
  program: PublicKey,
  payer: PublicKey,
  additionalBytes: number,
): TransactionInstruction {
  const data = tagged(Tag.ExtendProgram, 4);
  data.writeUInt32LE(additionalBytes, 4);
  return new TransactionInstruction({
    programId: LOADER_V3_PROGRAM_ID,
    keys: [
      { pubkey: findProgramDataAddress(program), isSigner: false, isWritable: true },
      { pubkey: program, isSigner: false, isWritable: true },
      { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
      { pubkey: payer, isSigner: true, isWritable: true },
    ],
    data,
  });
}

/** Hands the program's (or a buffer's) authority to `newAuthority`; null makes the program final. */
export function buildSetAuthorityInstruction(
  account: PublicKey,
  currentAuthority: PublicKey,
  newAuthority: PublicKey | null,
): TransactionInstruction {
  const keys = [
    { pubkey: account, isSigner: false, isWritable: true },
    { pubkey: currentAuthority, isSigner: true, isWritable: false },
  ];
  if (newAuthority !== null) {
    keys.push({ pubkey: newAuthority, isSigner: false, isWritable: false });
  }
  return new TransactionInstruction({
    programId: LOADER_V3_PROGRAM_ID,
    keys,
    data: tagged(Tag.SetAuthority, 0),
  });
}

export type LoaderV3State =
  | { kind: "uninitialized" }
  | { kind: "buffer"; authority: PublicKey | null; bytes: Uint8Array }
  | { kind: "program"; programData: PublicKey }
  | { kind: "programData"; slot: bigint; authority: PublicKey | null; bytes: Uint8Array };

function optionalKey(data: Uint8Array, offset: number): PublicKey | null {
  return data[offset] === 1 ? new PublicKey(data.subarray(offset + 1, offset + 33)) : null;
}

/** Decodes a loader-owned account; null when the bytes are not a loader state. */
export function decodeLoaderV3State(data: Uint8Array): LoaderV3State | null {
  if (data.length < 4) {
    return null;
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  switch (view.getUint32(0, true)) {
    case 0:
      return { kind: "uninitialized" };
    case 1:
      return data.length < BUFFER_HEADER_SIZE
        ? null
        : { kind: "buffer", authority: optionalKey(data, 4), bytes: data.subarray(BUFFER_HEADER_SIZE) };
    case 2:
      return data.length < PROGRAM_ACCOUNT_SIZE
        ? null
        : { kind: "program", programData: new PublicKey(data.subarray(4, 36)) };
    case 3:
      return data.length < PROGRAM_DATA_HEADER_SIZE
        ? null
        : {
            kind: "programData",
            slot: view.getBigUint64(4, true),
            authority: optionalKey(data, 12),
            bytes: data.subarray(PROGRAM_DATA_HEADER_SIZE),
          };
    default:
      return null;
  }
}
