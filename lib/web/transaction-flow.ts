// The pages' transaction flow is the one the typed client runs: lib/vault/transaction-flow.ts.
export * from "../vault/transaction-flow";
