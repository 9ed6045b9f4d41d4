// Refusals of the domain: a request that the vault's state or rules do not allow. Each has a stable
// code (the HTTP edge maps codes to statuses in one table), a message that names the problem, and
// optional details with the numbers behind it.
export const DOMAIN_ERROR_CODES = [
  "INVALID_AMOUNT",
  "VAULT_NOT_FOUND",
  "VAULT_PAUSED",
  "WITHDRAWAL_PENDING",
  "NO_PENDING_WITHDRAWAL",
  "WITHDRAWAL_NOT_CLAIMABLE",
  "INITIATE_NOT_RECORDED",
  "INSUFFICIENT_BALANCE",
  "INSUFFICIENT_SOL",
  "BELOW_MINIMUM",
  "AMOUNT_TOO_SMALL",
  "CAPACITY_EXCEEDED",
  "TRANSACTION_NOT_CONFIRMED",
  "TRANSACTION_FAILED",
  "NOT_A_VAULT_TRANSACTION",
  "SIGNATURE_CONFLICT",
  "WEBHOOK_NOT_FOUND",
  "DELIVERY_NOT_FOUND",
  "DELIVERY_IN_FLIGHT",
  "TARGET_REFUSED",
] as const;

export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}
