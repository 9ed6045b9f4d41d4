// The few parts of SPL Token the API needs: associated token addresses, the idempotent create
// instruction, and the amount and supply fields of token accounts and mints.
import { PublicKey, SystemProgram, TransactionInstruction } from "@solana/web3.js";

import { base58Of, boundedMemo } from "./bounded-memo";

export const TOKEN_PROGRAM_ID = new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
export const ASSOCIATED_TOKEN_PROGRAM_ID = new PublicKey("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");

export const TOKEN_ACCOUNT_SIZE = 165;
export const MINT_SIZE = 82;
const CREATE_IDEMPOTENT = 1;
const INITIALIZED = 1;

const associatedAddresses = boundedMemo((key) => {
  const [owner = "", mint = ""] = key.split(":");
  const [address] = PublicKey.findProgramAddressSync(
    [new PublicKey(owner).toBuffer(), TOKEN_PROGRAM_ID.toBuffer(), new PublicKey(mint).toBuffer()],
    ASSOCIATED_TOKEN_PROGRAM_ID,
  );
  return address;
});

export function findAssociatedTokenAddress(owner: PublicKey, mint: PublicKey): PublicKey {
  return associatedAddresses(`${base58Of(owner)}:${base58Of(mint)}`);
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

export interface TokenAccountFields {
  mint: PublicKey;
  owner: PublicKey;
  amount: bigint;
}

/** An initialized SPL Token account's mint, owner and amount; null for anything else. */
export function decodeTokenAccount(programOwner: PublicKey, data: Uint8Array): TokenAccountFields | null {
  if (!programOwner.equals(TOKEN_PROGRAM_ID) || data.length !== TOKEN_ACCOUNT_SIZE || data[108] === 0) {
    return null;
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return {
    mint: new PublicKey(data.subarray(0, 32)),
    owner: new PublicKey(data.subarray(32, 64)),
    amount: view.getBigUint64(64, true),
  };
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
