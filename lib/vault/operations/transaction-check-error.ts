// The refusal of a built transaction that is not what its signer asked for (verify-transaction.ts),
// free of imports so the pages' error words can name it without loading the check.
export type TransactionCheckCode =
  | "NOT_A_VAULT"
  | "INVALID_AMOUNT"
  | "LOOKUP_TABLES"
  | "FEE_PAYER"
  | "EXTRA_SIGNER"
  | "UNEXPECTED_PROGRAM"
  | "UNEXPECTED_INSTRUCTION"
  | "WRONG_VAULT_INSTRUCTION"
  | "MISSING_VAULT_INSTRUCTION"
  | "WRONG_ACCOUNT"
  | "WRONG_AMOUNT"
  | "FEE_ABOVE_VAULT"
  | "PARTNER_FEE_TOO_HIGH"
  | "PARTNER_FEE_NOT_SHOWN"
  | "MISSING_SHARE_ESTIMATE"
  | "MIN_SHARES_OUT_TOO_LOW"
  | "ESTIMATE_BELOW_SIMULATION"
  | "COMPUTE_PRICE_TOO_HIGH"
  | "COMPUTE_LIMIT_TOO_HIGH"
  | "SIMULATED_OUTFLOW";

export type TransactionCheckContext = Readonly<Record<string, string | number | null>>;

/** A built transaction that is not what was asked for: refused before any signer saw it. */
export class TransactionCheckError extends Error {
  constructor(
    readonly code: TransactionCheckCode,
    message: string,
    /** What did not match: the instruction's index, the account's name, the expected and found values. */
    readonly context: TransactionCheckContext,
  ) {
    super(message);
    this.name = "TransactionCheckError";
  }
}
