// Assertions shared by the program suites: a refusal must carry the expected custom error and leave
// every account the transaction touched exactly as it was.
import type { Keypair, PublicKey, TransactionInstruction } from "@solana/web3.js";
import { expect } from "vitest";

import { vaultErrorCode } from "../../../lib/vault/program/program-errors";
import type { RawAccount, TestChain, TransactionOutcome } from "./harness";

export function expectSuccess(outcome: TransactionOutcome): TransactionOutcome {
  expect(outcome.err, outcome.logs.join("\n")).toBeNull();
  return outcome;
}

function accountsTouchedBy(instructions: readonly TransactionInstruction[]): PublicKey[] {
  const seen = new Map<string, PublicKey>();
  for (const meta of instructions.flatMap((instruction) => instruction.keys)) {
    seen.set(meta.pubkey.toBase58(), meta.pubkey);
  }
  return [...seen.values()];
}

export function snapshotAccounts(chain: TestChain, keys: readonly PublicKey[]): (RawAccount | null)[] {
  return keys.map((key) => chain.readAccount(key));
}

/**
 * Sends the instructions and expects the last one to fail with `errorName` from the IDL, with no
 * account the transaction names changed (the fee payer is not among them).
 */
export function expectRefused(
  chain: TestChain,
  instructions: readonly TransactionInstruction[],
  signers: Keypair[],
  errorName: string,
): TransactionOutcome {
  const touched = accountsTouchedBy(instructions);
  const before = snapshotAccounts(chain, touched);
  const outcome = chain.send([...instructions], signers);
  const detail = `${outcome.err?.description ?? "succeeded"}\n${outcome.logs.join("\n")}`;
  expect(outcome.err?.programErrorName, detail).toBe(errorName);
  expect(outcome.err?.custom, detail).toBe(vaultErrorCode(errorName));
  expect(outcome.err?.instructionIndex, detail).toBe(instructions.length - 1);
  expect(snapshotAccounts(chain, touched)).toEqual(before);
  return outcome;
}
