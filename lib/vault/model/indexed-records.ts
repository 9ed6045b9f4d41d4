// What the indexer records of the chain, as the domain's read models (directory, portfolio, position
// history) take it: a vault account as last read, a NAV/supply/queue snapshot, a program event. The
// store (lib/store/indexer.ts) writes and reads these rows; the domain never reaches into the store.
export interface IndexedVaultRow {
  vault: string;
  slot: number;
  accountData: Buffer;
  reserveBalance: bigint;
  holders: number;
  updatedAt: Date;
}

export interface VaultSnapshot {
  vault: string;
  source: "schedule" | "event";
  slot: number;
  takenAt: Date;
  navSequence: bigint;
  navUpdatedAt: Date | null;
  totalAssets: bigint;
  totalShares: bigint;
  queueTail: bigint | null;
  queueFunded: bigint | null;
  queueClaimed: bigint | null;
  reserveBalance: bigint | null;
}

export interface StoredEvent {
  signature: string;
  eventIndex: number;
  vault: string;
  name: string;
  owner: string | null;
  requestId: bigint | null;
  slot: number;
  blockTime: Date | null;
  /** The event's fields, integers as decimal strings and addresses in base58. */
  data: Record<string, unknown>;
}
