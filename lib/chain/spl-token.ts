// The parts of SPL Token this project speaks, once: program ids, account and mint layouts (classic and
// Token-2022 base layouts), associated token addresses, and builders for the few instructions the API,
// the local chain and the program tests send.
import { PublicKey, SystemProgram, TransactionInstruction } from "@solana/web3.js";

import { base58Of } from "./base58";
import { LruMap } from "./bounded-memo";

export const TOKEN_PROGRAM_ID = new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
export const TOKEN_2022_PROGRAM_ID = new PublicKey("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb");
export const ASSOCIATED_TOKEN_PROGRAM_ID = new PublicKey("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");

export const MINT_SIZE = 82;
export const TOKEN_ACCOUNT_SIZE = 165;
export const TOKEN_ACCOUNT_MINT_OFFSET = 0;
export const TOKEN_ACCOUNT_OWNER_OFFSET = 32;
/** Token-2022 marks extended accounts with a type byte right after the base account layout. */
const ACCOUNT_TYPE_OFFSET = 165;
const ACCOUNT_TYPE_MINT = 1;
const ACCOUNT_TYPE_ACCOUNT = 2;

const TOKEN_PROGRAM = TOKEN_PROGRAM_ID.toBase58();
const TOKEN_2022_PROGRAM = TOKEN_2022_PROGRAM_ID.toBase58();

/** Whether an account's owner is either token program (base58 as RPC shapes carry it, or a key). */
export function isTokenProgram(owner: PublicKey | string): boolean {
  const address = typeof owner === "string" ? owner : base58Of(owner);
  return address === TOKEN_PROGRAM || address === TOKEN_2022_PROGRAM;
}

export interface TokenAccountState {
  mint: PublicKey;
  owner: PublicKey;
  amount: bigint;
  delegate: PublicKey | null;
  state: "initialized" | "frozen";
  isNative: bigint | null;
  delegatedAmount: bigint;
  closeAuthority: PublicKey | null;
}

export interface MintState {
  mintAuthority: PublicKey | null;
  supply: bigint;
  decimals: number;
  freezeAuthority: PublicKey | null;
}

function view(data: Uint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
}

function optionalKey(data: Uint8Array, tagOffset: number): PublicKey | null {
  return view(data).getUint32(tagOffset, true) === 1
    ? new PublicKey(data.subarray(tagOffset + 4, tagOffset + 36))
    : null;
}

/**
 * An initialized (or frozen) token account's state; null for anything else — another program's
 * account, a mint, an uninitialized account — because an absent balance is a normal answer to callers
 * probing a wallet's associated address. Callers that need the account to exist say so themselves.
 */
export function decodeTokenAccount(
  programOwner: PublicKey | string,
  data: Uint8Array,
): TokenAccountState | null {
  if (!isTokenProgram(programOwner) || data.length < TOKEN_ACCOUNT_SIZE) {
    return null;
  }
  if (data.length > TOKEN_ACCOUNT_SIZE && data[ACCOUNT_TYPE_OFFSET] !== ACCOUNT_TYPE_ACCOUNT) {
    return null;
  }
  const stateByte = data[108];
  if (stateByte !== 1 && stateByte !== 2) {
    return null;
  }
  const fields = view(data);
  return {
    mint: new PublicKey(data.subarray(0, 32)),
    owner: new PublicKey(data.subarray(32, 64)),
    amount: fields.getBigUint64(64, true),
    delegate: optionalKey(data, 72),
    state: stateByte === 1 ? "initialized" : "frozen",
    isNative: fields.getUint32(109, true) === 1 ? fields.getBigUint64(113, true) : null,
    delegatedAmount: fields.getBigUint64(121, true),
    closeAuthority: optionalKey(data, 129),
  };
}

/**
 * The amount of an initialized classic SPL Token account; null for anything else. The API's balance
 * checks need only this, so it reads the one field without making keys of the mint and owner.
 */
export function tokenAccountAmount(programOwner: PublicKey, data: Uint8Array): bigint | null {
  if (!programOwner.equals(TOKEN_PROGRAM_ID) || data.length !== TOKEN_ACCOUNT_SIZE || data[108] === 0) {
    return null;
  }
  return view(data).getBigUint64(64, true);
}

/** An initialized mint's state; null for anything else (see decodeTokenAccount). */
export function decodeMint(programOwner: PublicKey | string, data: Uint8Array): MintState | null {
  if (!isTokenProgram(programOwner) || data.length < MINT_SIZE) {
    return null;
  }
  if (
    data.length > MINT_SIZE &&
    (data.length <= ACCOUNT_TYPE_OFFSET || data[ACCOUNT_TYPE_OFFSET] !== ACCOUNT_TYPE_MINT)
  ) {
    return null;
  }
  if (data[45] !== 1) {
    return null;
  }
  return {
    mintAuthority: optionalKey(data, 0),
    supply: view(data).getBigUint64(36, true),
    decimals: data[44] ?? 0,
    freezeAuthority: optionalKey(data, 46),
  };
}

// Derivation is a search over bump seeds, each a SHA-256 and a curve check, so derived addresses are
// kept by mint, then owner: the few mints in use (each vault's asset and shares) each keep their most
// recently used owners. The keys are the texts base58Of keeps per key object, so a lookup neither
// builds nor hashes a new string.
const MINTS_KEPT = 64;
const OWNERS_PER_MINT = 20_000;
const associatedByMint = new Map<string, LruMap<string, AssociatedAddress>>();

interface AssociatedAddress {
  address: PublicKey;
  /** The bump seed the search found: 255 first, then down; each step costs the program 1,500 CU. */
  bump: number;
}

/** The associated token account of `owner` for `mint` under the classic token program. */
export function findAssociatedTokenAddress(owner: PublicKey, mint: PublicKey): PublicKey {
  return findAssociatedTokenAddressAndBump(owner, mint).address;
}

/** The associated token account and its bump seed (which sets what deriving it on chain costs). */
export function findAssociatedTokenAddressAndBump(owner: PublicKey, mint: PublicKey): AssociatedAddress {
  const mintId = base58Of(mint);
  let owners = associatedByMint.get(mintId);
  if (owners === undefined) {
    if (associatedByMint.size >= MINTS_KEPT) {
      associatedByMint.clear();
    }
    owners = new LruMap(OWNERS_PER_MINT);
    associatedByMint.set(mintId, owners);
  }
  const ownerId = base58Of(owner);
  let found = owners.get(ownerId);
  if (found === undefined) {
    const [address, bump] = PublicKey.findProgramAddressSync(
      [owner.toBuffer(), TOKEN_PROGRAM_ID.toBuffer(), mint.toBuffer()],
      ASSOCIATED_TOKEN_PROGRAM_ID,
    );
    found = { address, bump };
    owners.set(ownerId, found);
  }
  return found;
}

const TokenInstruction = {
  Transfer: 3,
  MintTo: 7,
  InitializeAccount3: 18,
  InitializeMint2: 20,
} as const;
const CREATE_IDEMPOTENT = 1;

function u64Bytes(value: bigint): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(value);
  return bytes;
}

export function buildCreateAssociatedTokenAccountIdempotentInstruction(
  payer: PublicKey,
  owner: PublicKey,
  mint: PublicKey,
  associatedAddress: PublicKey = findAssociatedTokenAddress(owner, mint),
): TransactionInstruction {
  return new TransactionInstruction({
    programId: ASSOCIATED_TOKEN_PROGRAM_ID,
    keys: [
      { pubkey: payer, isSigner: true, isWritable: true },
      { pubkey: associatedAddress, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: false, isWritable: false },
      { pubkey: mint, isSigner: false, isWritable: false },
      { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
      { pubkey: TOKEN_PROGRAM_ID, isSigner: false, isWritable: false },
    ],
    data: Buffer.from([CREATE_IDEMPOTENT]),
  });
}

export function buildInitializeMint2Instruction(
  mint: PublicKey,
  decimals: number,
  mintAuthority: PublicKey,
  freezeAuthority: PublicKey | null = null,
): TransactionInstruction {
  const freeze =
    freezeAuthority === null
      ? Buffer.from([0])
      : Buffer.concat([Buffer.from([1]), freezeAuthority.toBuffer()]);
  return new TransactionInstruction({
    programId: TOKEN_PROGRAM_ID,
    keys: [{ pubkey: mint, isSigner: false, isWritable: true }],
    data: Buffer.concat([
      Buffer.from([TokenInstruction.InitializeMint2, decimals]),
      mintAuthority.toBuffer(),
      freeze,
    ]),
  });
}

export function buildInitializeAccount3Instruction(
  account: PublicKey,
  mint: PublicKey,
  owner: PublicKey,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: TOKEN_PROGRAM_ID,
    keys: [
      { pubkey: account, isSigner: false, isWritable: true },
      { pubkey: mint, isSigner: false, isWritable: false },
    ],
    data: Buffer.concat([Buffer.from([TokenInstruction.InitializeAccount3]), owner.toBuffer()]),
  });
}

/** MintTo and Transfer: a written account (the mint, the source), the credited one, and the signer. */
function amountInstruction(
  instruction: number,
  written: PublicKey,
  destination: PublicKey,
  authority: PublicKey,
  amount: bigint,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: TOKEN_PROGRAM_ID,
    keys: [
      { pubkey: written, isSigner: false, isWritable: true },
      { pubkey: destination, isSigner: false, isWritable: true },
      { pubkey: authority, isSigner: true, isWritable: false },
    ],
    data: Buffer.concat([Buffer.from([instruction]), u64Bytes(amount)]),
  });
}

export function buildMintToInstruction(
  mint: PublicKey,
  destination: PublicKey,
  mintAuthority: PublicKey,
  amount: bigint,
): TransactionInstruction {
  return amountInstruction(TokenInstruction.MintTo, mint, destination, mintAuthority, amount);
}

/** SPL Token `Transfer` of `amount` raw units between two accounts of one mint, signed by `owner`. */
export function buildTransferInstruction(
  source: PublicKey,
  destination: PublicKey,
  owner: PublicKey,
  amount: bigint,
): TransactionInstruction {
  return amountInstruction(TokenInstruction.Transfer, source, destination, owner, amount);
}
