// The pages' transaction flow is the one the typed client runs: lib/vault/send/transaction-flow.ts.
export * from "../vault/send/transaction-flow";
