// The few parts of SPL Token the API needs: associated token addresses, the idempotent create
// instruction, and the amount and supply fields of token accounts and mints.
import { PublicKey, SystemProgram, TransactionInstruction } from "@solana/web3.js";

import { LruMap, base58Of } from "./bounded-memo";

export const TOKEN_PROGRAM_ID = new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
export const ASSOCIATED_TOKEN_PROGRAM_ID = new PublicKey("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");

export const TOKEN_ACCOUNT_SIZE = 165;
export const MINT_SIZE = 82;
const CREATE_IDEMPOTENT = 1;
const INITIALIZED = 1;

// Derivation is a search over bump seeds, each a SHA-256 and a curve check, so derived addresses are
// kept by mint, then owner: the few mints in use (each vault's asset and shares) each keep their most
// recently used owners. The keys are the texts base58Of keeps per key object, so a lookup neither
// builds nor hashes a new string.
const MINTS_KEPT = 64;
const OWNERS_PER_MINT = 20_000;
const associatedByMint = new Map<string, LruMap<string, PublicKey>>();

export function findAssociatedTokenAddress(owner: PublicKey, mint: PublicKey): PublicKey {
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
  let address = owners.get(ownerId);
  if (address === undefined) {
    [address] = PublicKey.findProgramAddressSync(
      [owner.toBuffer(), TOKEN_PROGRAM_ID.toBuffer(), mint.toBuffer()],
      ASSOCIATED_TOKEN_PROGRAM_ID,
    );
    owners.set(ownerId, address);
  }
  return address;
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

/** The amount of an initialized SPL Token account; null for anything else. */
export function tokenAccountAmount(programOwner: PublicKey, data: Uint8Array): bigint | null {
  if (!programOwner.equals(TOKEN_PROGRAM_ID) || data.length !== TOKEN_ACCOUNT_SIZE || data[108] === 0) {
    return null;
  }
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(64, true);
}

export interface MintFields {
  supply: bigint;
  decimals: number;
}

/** An initialized SPL Token mint's supply and decimals; null for anything else. */
export function decodeMint(programOwner: PublicKey, data: Uint8Array): MintFields | null {
  if (!programOwner.equals(TOKEN_PROGRAM_ID) || data.length !== MINT_SIZE || data[45] !== INITIALIZED) {
    return null;
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return { supply: view.getBigUint64(36, true), decimals: data[44] ?? 0 };
}
