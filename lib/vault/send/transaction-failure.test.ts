import { describe, expect, it } from "vitest";

import { VAULT_PROGRAM_ADDRESS } from "../program/program-id";
import { vaultErrorCode } from "../program/program-errors";
import {
  customErrorCode,
  decodeTransactionFailure,
  isVaultError,
  transactionErrorInText,
} from "./transaction-failure";

const SYSTEM = "11111111111111111111111111111111";
const TOKEN = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
const COMPUTE_BUDGET = "ComputeBudget111111111111111111111111111111";
const INSUFFICIENT_LIQUIDITY = vaultErrorCode("InsufficientLiquidity");

describe("decodeTransactionFailure", () => {
  it("names the vault's error by its IDL name when the vault program failed (the runtime's log line)", () => {
    const failure = decodeTransactionFailure(
      { InstructionError: [0, { Custom: INSUFFICIENT_LIQUIDITY }] },
      {
        logs: [
          `Program ${VAULT_PROGRAM_ADDRESS} failed: custom program error: 0x${INSUFFICIENT_LIQUIDITY.toString(16)}`,
        ],
      },
    );
    expect(failure).toMatchObject({
      kind: "custom",
      instructionIndex: 0,
      customCode: INSUFFICIENT_LIQUIDITY,
      program: VAULT_PROGRAM_ADDRESS,
      vaultError: { name: "InsufficientLiquidity", code: INSUFFICIENT_LIQUIDITY },
    });
    expect(failure.description).toContain(
      `vault program error ${INSUFFICIENT_LIQUIDITY} InsufficientLiquidity`,
    );
    expect(isVaultError(failure, "InsufficientLiquidity")).toBe(true);
  });

  it("reads the program from the instruction list when there are no logs (a landed transaction)", () => {
    const programs = [COMPUTE_BUDGET, COMPUTE_BUDGET, VAULT_PROGRAM_ADDRESS];
    expect(
      decodeTransactionFailure({ InstructionError: [2, { Custom: INSUFFICIENT_LIQUIDITY }] }, { programs })
        .vaultError?.name,
    ).toBe("InsufficientLiquidity");
  });

  it("does not take another program's code for the vault's: Token's 1 and a code from an unknown program", () => {
    const token = decodeTransactionFailure(
      { InstructionError: [1, { Custom: INSUFFICIENT_LIQUIDITY }] },
      { programs: [COMPUTE_BUDGET, TOKEN] },
    );
    expect(token).toMatchObject({
      kind: "other",
      customCode: INSUFFICIENT_LIQUIDITY,
      program: TOKEN,
      vaultError: null,
    });
    const unknown = decodeTransactionFailure({ InstructionError: [0, { Custom: INSUFFICIENT_LIQUIDITY }] });
    expect(unknown).toMatchObject({ kind: "other", program: null, vaultError: null });
    expect(unknown.description).toContain(`custom program error ${INSUFFICIENT_LIQUIDITY}`);
  });

  it("tells the payer's missing SOL apart: fee, rent, never funded, and the System program's 1 under the vault", () => {
    for (const variant of ["InsufficientFundsForFee", "AccountNotFound"]) {
      expect(decodeTransactionFailure(variant).kind).toBe("insufficient-sol");
    }
    expect(decodeTransactionFailure({ InsufficientFundsForRent: { account_index: 2 } }).kind).toBe(
      "insufficient-sol",
    );
    const nested = decodeTransactionFailure(
      { InstructionError: [2, { Custom: 1 }] },
      {
        logs: [`Program ${SYSTEM} failed: custom program error: 0x1`],
        programs: ["", "", VAULT_PROGRAM_ADDRESS],
      },
    );
    expect(nested).toMatchObject({ kind: "insufficient-sol", program: SYSTEM, vaultError: null });
  });

  it("marks an unknown blockhash, and anything else as other", () => {
    expect(decodeTransactionFailure("BlockhashNotFound").kind).toBe("blockhash");
    expect(decodeTransactionFailure({ InstructionError: [0, "InvalidAccountData"] })).toMatchObject({
      kind: "other",
      instructionIndex: 0,
      customCode: null,
    });
  });

  it("refuses a name the IDL does not define", () => {
    expect(() => isVaultError(decodeTransactionFailure("AccountNotFound"), "InsufficentLiquidity")).toThrow(
      /no error named InsufficentLiquidity/,
    );
  });
});

describe("the error in the node's words", () => {
  it("reads a custom error with its instruction, and the variants the flow tells apart", () => {
    expect(transactionErrorInText("Error processing Instruction 2: custom program error: 0x1790")).toEqual({
      InstructionError: [2, { Custom: 0x1790 }],
    });
    expect(transactionErrorInText("Transaction simulation failed: Blockhash not found")).toBe(
      "BlockhashNotFound",
    );
    expect(transactionErrorInText("custom program error: 0x1790")).toBeNull();
    expect(customErrorCode({ InstructionError: [0, { Custom: 7 }] })).toBe(7);
    expect(customErrorCode("AccountNotFound")).toBeNull();
  });
});
