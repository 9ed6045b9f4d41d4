// Transactions the localnet itself sends (genesis, faucet, keeper): built with web3.js, signed with
// the dev keys and executed through the same path as any client's transaction.
import { Transaction, type Keypair, type TransactionInstruction } from "@solana/web3.js";

import type { Chain } from "./chain";
import type { TransactionRecord } from "./ledger";
import { signLegacyTransaction } from "./keys";
import { decodeTransaction } from "./transaction";
import { describeTransactionError, type TransactionErrorJson } from "./transaction-error";
import { decodeTransactionFailure, type TransactionFailure } from "../lib/vault/send/transaction-failure";

export class LocalTransactionError extends Error {
  readonly err: TransactionErrorJson;
  readonly logs: string[];
  /** `err` decoded by the decoder every sender shares (the vault's errors by their IDL name). */
  readonly failure: TransactionFailure;

  constructor(label: string, err: TransactionErrorJson, logs: string[], programs: readonly string[]) {
    const failure = decodeTransactionFailure(err, { logs, programs });
    const named = failure.vaultError === null ? "" : ` (${failure.vaultError.name})`;
    super(
      `${label} failed: ${describeTransactionError(err)}${named}${logs.length > 0 ? `\n  ${logs.join("\n  ")}` : ""}`,
    );
    this.err = err;
    this.logs = logs;
    this.failure = failure;
  }
}

export function buildLocalTransaction(
  chain: Chain,
  instructions: readonly TransactionInstruction[],
  feePayer: Keypair,
  signers: readonly Keypair[],
  recentBlockhash: string = chain.latestBlockhash("processed").blockhash,
): Uint8Array {
  const transaction = new Transaction({ feePayer: feePayer.publicKey, recentBlockhash }).add(...instructions);
  const unique = [feePayer, ...signers.filter((signer) => !signer.publicKey.equals(feePayer.publicKey))];
  return signLegacyTransaction(transaction, unique).serialize();
}

/** Executes the instructions in the current slot; throws LocalTransactionError if they fail. */
export function submitLocalTransaction(
  chain: Chain,
  label: string,
  instructions: readonly TransactionInstruction[],
  feePayer: Keypair,
  signers: readonly Keypair[] = [],
): TransactionRecord {
  const wire = buildLocalTransaction(chain, instructions, feePayer, signers);
  const transaction = decodeTransaction(wire);
  const programs = instructions.map((instruction) => instruction.programId.toBase58());
  const simulation = chain.simulate(transaction, { sigVerify: false, balances: false });
  if (simulation.err !== null) {
    throw new LocalTransactionError(label, simulation.err, simulation.logs, programs);
  }
  const result = chain.submit(transaction);
  if (result.status === "dropped") {
    throw new LocalTransactionError(label, result.err, [], programs);
  }
  if (result.record.err !== null) {
    throw new LocalTransactionError(label, result.record.err, result.record.logs, programs);
  }
  return result.record;
}
