// A LiteSVM chain with the vault program, the SPL programs and a USDC-like asset mint, driven with
// web3.js transactions. Set VAULT_SO to test a build other than the committed programs/vault/vault.so.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { address, getTransactionDecoder, lamports } from "@solana/kit";
import { Keypair, PublicKey, SystemProgram, Transaction, type TransactionInstruction } from "@solana/web3.js";
import { FailedTransactionMetadata, LiteSVM, Rent, type TransactionMetadata } from "litesvm";

import {
  decodeReceiptState,
  decodeVaultState,
  type VaultState,
  type ReceiptState,
} from "../../../lib/vault/program/accounts";
import { VAULT_PROGRAM_ID } from "../../../lib/vault/program/idl";
import { decodeTransactionFailure } from "../../../lib/vault/send/transaction-failure";
import { transactionErrorFromLiteSvm } from "../../../localnet/transaction-error";
import {
  MINT_SIZE,
  TOKEN_ACCOUNT_SIZE,
  TOKEN_PROGRAM_ID,
  buildCreateAssociatedTokenAccountIdempotentInstruction,
  decodeMint,
  decodeTokenAccount,
  findAssociatedTokenAddress,
  buildInitializeMint2Instruction,
  buildInitializeAccount3Instruction,
  buildMintToInstruction,
} from "../../../lib/chain/spl-token";

export const ASSET_DECIMALS = 6;

/** 2026-01-01T00:10:00Z: ten minutes into a UTC day, so window tests start from a known offset. */
export const DEFAULT_START_TIME = 1_767_226_200n;

const WALLET_LAMPORTS = 100_000_000_000n;

export function vaultProgramPath(): string {
  const override = process.env.VAULT_SO;
  if (override !== undefined && override !== "") {
    return resolve(override);
  }
  return fileURLToPath(new URL("../vault.so", import.meta.url));
}

/**
 * How the rent sysvar is published: as LiteSVM and clusters since SIMD-0194 do ("simd-0194": 6960
 * lamports per byte-year, exemption threshold 1.0), or in the classic encoding ("classic": 3480,
 * threshold 2.0). Both give the same rent-exempt minimums; the program must accept either.
 */
export type RentEncoding = "classic" | "simd-0194";

const CLASSIC_LAMPORTS_PER_BYTE_YEAR = 3480n;
const CLASSIC_EXEMPTION_THRESHOLD = 2.0;
const RENT_BURN_PERCENT = 50;

export interface TestChainOptions {
  startTime?: bigint;
  programPath?: string;
  rentEncoding?: RentEncoding;
}

export interface TransactionError {
  /** The failing instruction, or null when the transaction failed before any instruction ran. */
  instructionIndex: number | null;
  /** The custom program error code, when the failure is one (of any program). */
  custom?: number;
  /** The vault program's error by its IDL name, when the vault program is the one that failed. */
  programErrorName: string | null;
  description: string;
}

export interface TransactionOutcome {
  ok: boolean;
  logs: string[];
  computeUnits: bigint;
  err: TransactionError | null;
}

export interface RawAccount {
  address: PublicKey;
  owner: PublicKey;
  lamports: bigint;
  data: Uint8Array;
  executable: boolean;
}

function toKitAddress(key: PublicKey) {
  return address(key.toBase58());
}

/**
 * LiteSVM's failure as a validator encodes it (localnet/transaction-error.ts), decoded by the decoder
 * every sender shares (lib/vault/send/transaction-failure.ts): the vault's errors by their IDL name.
 */
function describeFailure(failure: FailedTransactionMetadata, programs: readonly string[]): TransactionError {
  const decoded = decodeTransactionFailure(transactionErrorFromLiteSvm(failure.err()), {
    logs: failure.meta().logs(),
    programs,
  });
  return {
    instructionIndex: decoded.instructionIndex,
    ...(decoded.customCode === null ? {} : { custom: decoded.customCode }),
    programErrorName: decoded.vaultError?.name ?? null,
    description: decoded.description,
  };
}

function outcomeOf(
  result: TransactionMetadata | FailedTransactionMetadata,
  programs: readonly string[],
): TransactionOutcome {
  if (result instanceof FailedTransactionMetadata) {
    const meta = result.meta();
    return {
      ok: false,
      logs: meta.logs(),
      computeUnits: meta.computeUnitsConsumed(),
      err: describeFailure(result, programs),
    };
  }
  return { ok: true, logs: result.logs(), computeUnits: result.computeUnitsConsumed(), err: null };
}

export class TestChain {
  readonly svm: LiteSVM;
  /** Pays every transaction fee, so failed transactions leave the accounts under test untouched. */
  readonly payer: Keypair;
  readonly mintAuthority: Keypair;
  readonly assetMint: PublicKey;

  private constructor(svm: LiteSVM, startTime: bigint) {
    this.svm = svm;
    this.payer = Keypair.generate();
    this.airdrop(this.payer.publicKey, WALLET_LAMPORTS * 10n);
    this.warpTo(startTime);
    this.mintAuthority = Keypair.generate();
    this.assetMint = this.createMint(ASSET_DECIMALS, this.mintAuthority.publicKey);
  }

  static create(options: TestChainOptions = {}): TestChain {
    const programPath = options.programPath ?? vaultProgramPath();
    if (!existsSync(programPath)) {
      throw new Error(`The vault program is not built: ${programPath} does not exist`);
    }
    // History off: the property test legitimately repeats identical transactions.
    const svm = new LiteSVM().withTransactionHistory(0n);
    if (options.rentEncoding === "classic") {
      svm.setRent(new Rent(CLASSIC_LAMPORTS_PER_BYTE_YEAR, CLASSIC_EXEMPTION_THRESHOLD, RENT_BURN_PERCENT));
    }
    svm.addProgramFromFile(toKitAddress(VAULT_PROGRAM_ID), programPath);
    return new TestChain(svm, options.startTime ?? DEFAULT_START_TIME);
  }

  send(instructions: TransactionInstruction[], signers: Keypair[] = []): TransactionOutcome {
    const transaction = new Transaction({
      feePayer: this.payer.publicKey,
      blockhash: this.svm.latestBlockhash(),
      lastValidBlockHeight: 0,
    }).add(...instructions);
    // Only the keys an instruction marks as signing sign: a wallet that need not sign (the owner of a
    // claim anyone may send) is not made to.
    const signing = new Set(
      instructions.flatMap((instruction) =>
        instruction.keys.filter((meta) => meta.isSigner).map((meta) => meta.pubkey.toBase58()),
      ),
    );
    transaction.sign(this.payer, ...signers.filter((signer) => signing.has(signer.publicKey.toBase58())));
    const kitTransaction = getTransactionDecoder().decode(transaction.serialize());
    return outcomeOf(
      this.svm.sendTransaction(kitTransaction),
      instructions.map((instruction) => instruction.programId.toBase58()),
    );
  }

  /** For setup steps that must succeed; a failure throws with the program logs. */
  sendOrThrow(instructions: TransactionInstruction[], signers: Keypair[] = []): TransactionOutcome {
    const outcome = this.send(instructions, signers);
    if (!outcome.ok) {
      throw new Error(`Transaction failed: ${outcome.err?.description}\n${outcome.logs.join("\n")}`);
    }
    return outcome;
  }

  now(): bigint {
    return this.svm.getClock().unixTimestamp;
  }

  warpTo(unixTimestamp: bigint): void {
    const clock = this.svm.getClock();
    clock.unixTimestamp = unixTimestamp;
    this.svm.setClock(clock);
  }

  warpBy(seconds: bigint): void {
    this.warpTo(this.now() + seconds);
  }

  airdrop(recipient: PublicKey, amount: bigint = WALLET_LAMPORTS): void {
    this.svm.airdrop(toKitAddress(recipient), lamports(amount));
  }

  /** A keypair with lamports for rent. */
  createFundedKeypair(): Keypair {
    const keypair = Keypair.generate();
    this.airdrop(keypair.publicKey);
    return keypair;
  }

  createMint(decimals: number, mintAuthority: PublicKey): PublicKey {
    const mint = Keypair.generate();
    this.sendOrThrow(
      [
        SystemProgram.createAccount({
          fromPubkey: this.payer.publicKey,
          newAccountPubkey: mint.publicKey,
          lamports: Number(this.rentExemptBalance(MINT_SIZE)),
          space: MINT_SIZE,
          programId: TOKEN_PROGRAM_ID,
        }),
        buildInitializeMint2Instruction(mint.publicKey, decimals, mintAuthority),
      ],
      [mint],
    );
    return mint.publicKey;
  }

  createAssociatedTokenAccount(owner: PublicKey, mint: PublicKey): PublicKey {
    this.sendOrThrow([
      buildCreateAssociatedTokenAccountIdempotentInstruction(this.payer.publicKey, owner, mint),
    ]);
    return findAssociatedTokenAddress(owner, mint);
  }

  /** A token account at a fresh keypair address, for accounts that must not be the canonical ATA. */
  createTokenAccount(owner: PublicKey, mint: PublicKey): PublicKey {
    const account = Keypair.generate();
    this.sendOrThrow(
      [
        SystemProgram.createAccount({
          fromPubkey: this.payer.publicKey,
          newAccountPubkey: account.publicKey,
          lamports: Number(this.rentExemptBalance(TOKEN_ACCOUNT_SIZE)),
          space: TOKEN_ACCOUNT_SIZE,
          programId: TOKEN_PROGRAM_ID,
        }),
        buildInitializeAccount3Instruction(account.publicKey, mint, owner),
      ],
      [account],
    );
    return account.publicKey;
  }

  mintAssets(destination: PublicKey, amount: bigint): void {
    this.sendOrThrow(
      [buildMintToInstruction(this.assetMint, destination, this.mintAuthority.publicKey, amount)],
      [this.mintAuthority],
    );
  }

  rentExemptBalance(size: number): bigint {
    return this.svm.minimumBalanceForRentExemption(BigInt(size));
  }

  readAccount(key: PublicKey): RawAccount | null {
    const account = this.svm.getAccount(toKitAddress(key));
    if (!account.exists) {
      return null;
    }
    return {
      address: key,
      owner: new PublicKey(account.programAddress),
      lamports: account.lamports,
      data: Uint8Array.from(account.data),
      executable: account.executable,
    };
  }

  /** Overwrites an account, bypassing the runtime: for building states attackers could present. */
  writeAccount(account: RawAccount): void {
    this.svm.setAccount({
      address: toKitAddress(account.address),
      programAddress: toKitAddress(account.owner),
      lamports: lamports(account.lamports),
      data: account.data,
      executable: account.executable,
      space: BigInt(account.data.length),
    });
  }

  lamportsOf(key: PublicKey): bigint {
    return this.readAccount(key)?.lamports ?? 0n;
  }

  tokenBalance(tokenAccount: PublicKey): bigint {
    const account = this.readAccount(tokenAccount);
    if (account === null) {
      throw new Error(`No token account at ${tokenAccount.toBase58()}`);
    }
    const token = decodeTokenAccount(account.owner, account.data);
    if (token === null) {
      throw new Error(`${tokenAccount.toBase58()} is not a token account`);
    }
    return token.amount;
  }

  mintSupply(mint: PublicKey): bigint {
    const account = this.readAccount(mint);
    if (account === null) {
      throw new Error(`No mint at ${mint.toBase58()}`);
    }
    const state = decodeMint(account.owner, account.data);
    if (state === null) {
      throw new Error(`${mint.toBase58()} is not a mint`);
    }
    return state.supply;
  }

  readVault(vault: PublicKey): VaultState {
    const account = this.readAccount(vault);
    if (account === null) {
      throw new Error(`No vault at ${vault.toBase58()}`);
    }
    return decodeVaultState(account.data);
  }

  /** The receipt, or null once it is closed or before it is opened. */
  readReceipt(receipt: PublicKey): ReceiptState | null {
    const account = this.readAccount(receipt);
    return account === null ? null : decodeReceiptState(account.data);
  }
}
