// The few SPL Token and Associated Token Account instructions and layouts the tests need, written
// against the classic token program's documented wire format.
import { PublicKey, SystemProgram, TransactionInstruction } from "@solana/web3.js";

export const TOKEN_PROGRAM_ID = new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
export const ASSOCIATED_TOKEN_PROGRAM_ID = new PublicKey("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");

export const MINT_SIZE = 82;
export const TOKEN_ACCOUNT_SIZE = 165;

const TokenInstruction = {
  Transfer: 3,
  MintTo: 7,
  InitializeAccount3: 18,
  InitializeMint2: 20,
} as const;

function u64Bytes(value: bigint): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(value);
  return bytes;
}

export function findAssociatedTokenAddress(owner: PublicKey, mint: PublicKey): PublicKey {
  const [address] = PublicKey.findProgramAddressSync(
    [owner.toBuffer(), TOKEN_PROGRAM_ID.toBuffer(), mint.toBuffer()],
    ASSOCIATED_TOKEN_PROGRAM_ID,
  );
  return address;
}

export function createAssociatedTokenAccountIdempotentInstruction(
  payer: PublicKey,
  owner: PublicKey,
  mint: PublicKey,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: ASSOCIATED_TOKEN_PROGRAM_ID,
    keys: [
      { pubkey: payer, isSigner: true, isWritable: true },
      { pubkey: findAssociatedTokenAddress(owner, mint), isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: false, isWritable: false },
      { pubkey: mint, isSigner: false, isWritable: false },
      { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
      { pubkey: TOKEN_PROGRAM_ID, isSigner: false, isWritable: false },
    ],
    data: Buffer.from([1]),
  });
}

export function initializeMintInstruction(
  mint: PublicKey,
  decimals: number,
  mintAuthority: PublicKey,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: TOKEN_PROGRAM_ID,
    keys: [{ pubkey: mint, isSigner: false, isWritable: true }],
    // No freeze authority: the trailing COption tag is 0.
    data: Buffer.concat([
      Buffer.from([TokenInstruction.InitializeMint2, decimals]),
      mintAuthority.toBuffer(),
      Buffer.from([0]),
    ]),
  });
}

export function initializeTokenAccountInstruction(
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

export function mintToInstruction(
  mint: PublicKey,
  destination: PublicKey,
  mintAuthority: PublicKey,
  amount: bigint,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: TOKEN_PROGRAM_ID,
    keys: [
      { pubkey: mint, isSigner: false, isWritable: true },
      { pubkey: destination, isSigner: false, isWritable: true },
      { pubkey: mintAuthority, isSigner: true, isWritable: false },
    ],
    data: Buffer.concat([Buffer.from([TokenInstruction.MintTo]), u64Bytes(amount)]),
  });
}

export function transferInstruction(
  source: PublicKey,
  destination: PublicKey,
  owner: PublicKey,
  amount: bigint,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: TOKEN_PROGRAM_ID,
    keys: [
      { pubkey: source, isSigner: false, isWritable: true },
      { pubkey: destination, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: true, isWritable: false },
    ],
    data: Buffer.concat([Buffer.from([TokenInstruction.Transfer]), u64Bytes(amount)]),
  });
}

export interface TokenAccountState {
  mint: PublicKey;
  owner: PublicKey;
  amount: bigint;
}

export function decodeTokenAccount(data: Uint8Array): TokenAccountState {
  if (data.length !== TOKEN_ACCOUNT_SIZE) {
    throw new Error(`A token account is ${TOKEN_ACCOUNT_SIZE} bytes, got ${data.length}`);
  }
  const bytes = Buffer.from(data);
  return {
    mint: new PublicKey(bytes.subarray(0, 32)),
    owner: new PublicKey(bytes.subarray(32, 64)),
    amount: bytes.readBigUInt64LE(64),
  };
}

export interface MintState {
  mintAuthority: PublicKey | null;
  supply: bigint;
  decimals: number;
}

export function decodeMint(data: Uint8Array): MintState {
  if (data.length !== MINT_SIZE) {
    throw new Error(`A mint is ${MINT_SIZE} bytes, got ${data.length}`);
  }
  const bytes = Buffer.from(data);
  const hasMintAuthority = bytes.readUInt32LE(0) === 1;
  return {
    mintAuthority: hasMintAuthority ? new PublicKey(bytes.subarray(4, 36)) : null,
    supply: bytes.readBigUInt64LE(36),
    decimals: bytes.readUInt8(44),
  };
}
