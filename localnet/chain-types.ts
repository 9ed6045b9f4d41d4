// What the chain hands out and keeps: accounts, slots, blockhashes, transaction statuses, simulation
// results and snapshots, with the validator's age limits they are checked against.
import type { InnerInstructions, TokenBalance, TransactionRecord } from "./ledger";
import type { TransactionErrorJson } from "./transaction-error";

export type Commitment = "processed" | "confirmed" | "finalized";

/** Blocks a blockhash stays usable for (MAX_PROCESSING_AGE). */
export const MAX_PROCESSING_AGE = 150n;
/** Preflight simulation leaves room for forwarding (MAX_TRANSACTION_FORWARDING_DELAY). */
export const SIMULATION_MAX_AGE = MAX_PROCESSING_AGE - 6n;
export const SLOTS_PER_EPOCH = 432_000n;

export interface ChainAccount {
  lamports: bigint;
  data: Uint8Array;
  owner: string;
  executable: boolean;
  rentEpoch: bigint;
}

export interface SlotInfo {
  slot: bigint;
  parent: bigint;
  root: bigint;
}

export interface BlockhashInfo {
  blockhash: string;
  slot: bigint;
  blockHeight: bigint;
  lastValidBlockHeight: bigint;
}

export interface TransactionStatus {
  record: TransactionRecord;
  commitment: Commitment;
  /** Slots since execution; null once finalized, as a validator reports rooted transactions. */
  confirmations: number | null;
}

export interface ExecutionSnapshot {
  balances: bigint[];
  tokenBalances: TokenBalance[];
}

export interface SimulationResult {
  err: TransactionErrorJson | null;
  logs: string[];
  unitsConsumed: bigint;
  loadedAccountsDataSize: number;
  returnData: { programId: string; data: Uint8Array } | null;
  innerInstructions: InnerInstructions[];
  fee: bigint;
  accountKeys: string[];
  loadedAddresses: { writable: string[]; readonly: string[] };
  pre: ExecutionSnapshot;
  post: ExecutionSnapshot;
  /** Accounts as they would be after the transaction (absent: unchanged). */
  postAccounts: Map<string, ChainAccount>;
}

export type SubmitResult =
  | { status: "executed"; record: TransactionRecord }
  /** Not included in a block, as a validator drops it: no fee, no record. */
  | { status: "dropped"; err: TransactionErrorJson };

export interface ChainOptions {
  slotDurationMs: number;
  finalizationDepth: number;
}

export interface ChainIdentity {
  genesisHash: string;
  identity: string;
}

export interface ChainSnapshot {
  svm: Uint8Array;
  state: ChainState;
}

export interface ChainState {
  identity: ChainIdentity;
  slot: string;
  blockHeight: string;
  genesisTime: number;
  blockhashes: { blockhash: string; slot: string; blockHeight: string }[];
  slotTimes: [slot: string, unixTime: number][];
  ledger: unknown;
}
