// History entries: a confirmed signature is verified against the chain (successful, signed by the
// wallet, carrying our program's deposit / withdrawal / cancel events for that vault and wallet), each such
// event classified and stored once, keyed by signature and event index. A hand-built transaction may
// hold several (a claim, then a new request): every one is recorded, in order, so the ordering rule
// (a claim or a cancel only after its initiate) holds for each of them. A claim the owner did not sign
// (a delivery: the keeper's, or anyone's) cannot be posted; the indexer records it (deliveredActivity).
import type { PublicKey } from "@solana/web3.js";

import type { ConfirmedTransaction } from "../../chain/vault-chain";
import { DomainError } from "../model/domain-errors";
import { decodeVaultEvents, eventVault, type VaultEvent } from "../program/events";
import type { ActivityFields, OperationAction } from "../operations/operation";
import { operationOfEvent } from "../operations/operations";
import { tokenAmount, type TokenAmount, type TokenLabel } from "../model/token-amount";
import { shareDecimalsFor } from "../model/share-math";
import { loadVault, shareSymbol, type VaultDeps } from "../model/vault-state";
import { deliveredBy } from "../model/withdrawal-milestones";

/** A history row's kind: the operation, by the spec's word (lib/vault/operations/operations.ts). */
export type ActivityKind = OperationAction;

/** A history row as stored: raw amounts, mints and decimals; symbols are resolved when shown. */
export interface ActivityRecord {
  signature: string;
  /**
   * The event's position among the vault program's events in the transaction's logs (the indexer's
   * numbering). -1 marks a row recorded before events were numbered: the first event of its wallet
   * on its vault in that transaction, renumbered when the signature is posted again.
   */
  eventIndex: number;
  wallet: string;
  vault: string;
  kind: ActivityKind;
  requestId: bigint | null;
  assets: bigint;
  shares: bigint;
  fee: bigint | null;
  /**
   * Who sent the transaction when the wallet did not sign it — a claim delivered to its owner by the
   * keeper, or by anyone, as the program's claim is permissionless and pays only the owner: its fee
   * payer. Null for the wallet's own transactions.
   */
  deliveredBy: string | null;
  assetMint: string;
  shareMint: string;
  decimals: number;
  slot: number;
  blockTime: Date | null;
  recordedAt: Date;
}

export type NewActivityRecord = Omit<ActivityRecord, "recordedAt">;

/** The history store, as the domain uses it. */
export interface HistoryStore {
  /** Every stored row of the transaction, in event order. */
  findBySignature(signature: string): Promise<ActivityRecord[]>;
  hasInitiate(vault: string, wallet: string, requestId: bigint): Promise<boolean>;
  /**
   * Stores the rows of one transaction (of one wallet on one vault) that are not stored yet, all in
   * one statement; renumbers that pair's unnumbered row first. Returns that pair's rows of the
   * transaction as stored, in event order, and whether this call inserted any.
   */
  insertEvents(
    records: readonly NewActivityRecord[],
  ): Promise<{ inserted: boolean; records: ActivityRecord[] }>;
  /** Newest first; `before` continues after that entry (a cursor). */
  list(vault: string, wallet: string, limit: number, before?: HistoryPosition): Promise<ActivityRecord[]>;
}

/** Where a row sits in the feed (newest first: slot down, signature up, event index down). */
export interface HistoryPosition {
  slot: number;
  signature: string;
  eventIndex: number;
}

export interface Activity {
  signature: string;
  eventIndex: number;
  wallet: string;
  vaultId: string;
  kind: ActivityKind;
  requestId: string | null;
  assets: TokenAmount;
  shares: TokenAmount;
  fee: TokenAmount | null;
  deliveredBy: string | null;
  slot: number;
  blockTime: string | null;
  recordedAt: string;
}

export interface HistoryEntryRequest {
  wallet: PublicKey;
  vault: PublicKey;
  signature: string;
}

/** The transaction's signers, fee payer first. */
function signersOf(transaction: ConfirmedTransaction): string[] {
  return transaction.accountKeys.slice(0, transaction.numRequiredSignatures);
}

/** The vault's tokens as its history rows carry them. */
export interface HistoryTokens {
  assetMint: PublicKey;
  shareMint: PublicKey;
  decimals: number;
}

interface VaultAction {
  /** The event's position among the program's events in the transaction (the indexer's numbering). */
  eventIndex: number;
  owner: string;
  fields: ActivityFields;
}

/** Each vault action on `vault` among a transaction's events, in emission order. */
function vaultActions(events: readonly VaultEvent[], vault: string): VaultAction[] {
  const actions: VaultAction[] = [];
  events.forEach((event, eventIndex) => {
    const action = operationOfEvent(event.name)?.activityOf(event) ?? null;
    if (action !== null && eventVault(event)?.toBase58() === vault) {
      actions.push({ eventIndex, owner: action.owner.toBase58(), fields: action.fields });
    }
  });
  return actions;
}

/** The fields every row of one transaction on one vault shares. */
function rowBase(
  signature: string,
  transaction: ConfirmedTransaction,
  vault: string,
  tokens: HistoryTokens,
): Pick<
  NewActivityRecord,
  "signature" | "vault" | "assetMint" | "shareMint" | "decimals" | "slot" | "blockTime"
> {
  return {
    signature,
    vault,
    assetMint: tokens.assetMint.toBase58(),
    shareMint: tokens.shareMint.toBase58(),
    decimals: tokens.decimals,
    slot: transaction.slot,
    blockTime: transaction.blockTime === null ? null : new Date(transaction.blockTime * 1000),
  };
}

/**
 * The claims in a successful transaction that their owners did not sign, as rows of each owner's
 * history marked with who sent them (the fee payer), in emission order: the keeper (or anyone) may
 * deliver a claimable withdrawal, as the program's claim pays only the receipt's owner. POST
 * /api/history records what the wallet signed; these the indexer records as it reads the chain.
 */
export function deliveredActivity(
  signature: string,
  transaction: ConfirmedTransaction,
  events: readonly VaultEvent[],
  vault: PublicKey,
  tokens: HistoryTokens,
): NewActivityRecord[] {
  if (transaction.err !== null) {
    return [];
  }
  const signers = signersOf(transaction);
  const address = vault.toBase58();
  const base = rowBase(signature, transaction, address, tokens);
  const delivered: NewActivityRecord[] = [];
  for (const { eventIndex, owner, fields } of vaultActions(events, address)) {
    const sender = deliveredBy(signers, owner);
    // A claim is the one action anyone may send for its owner (an owner signing through a program
    // is not among the signers either; its other actions are not deliveries).
    if (fields.kind === "claim" && sender !== null) {
      delivered.push({ ...base, eventIndex, wallet: owner, ...fields, deliveredBy: sender });
    }
  }
  return delivered;
}

/**
 * Every vault action of this wallet on this vault that the transaction's events show, in emission
 * order, each with its index among the program's events; throws when there is none.
 */
export function classifyVaultTransaction(
  transaction: ConfirmedTransaction,
  request: HistoryEntryRequest,
  tokens: HistoryTokens,
): NewActivityRecord[] {
  if (transaction.err !== null) {
    throw new DomainError(
      "TRANSACTION_FAILED",
      "signature: the transaction failed on chain; only successful transactions are recorded",
      { details: JSON.stringify(transaction.err) },
    );
  }
  const wallet = request.wallet.toBase58();
  if (!signersOf(transaction).includes(wallet)) {
    throw new DomainError(
      "NOT_A_VAULT_TRANSACTION",
      "signature: the transaction is not signed by the wallet",
    );
  }
  let events: VaultEvent[];
  try {
    events = decodeVaultEvents(transaction.logMessages ?? []);
  } catch {
    events = [];
  }
  const vault = request.vault.toBase58();
  const base = { ...rowBase(request.signature, transaction, vault, tokens), wallet };
  // The wallet signed it: its own actions, delivered by no one.
  const records: NewActivityRecord[] = vaultActions(events, vault)
    .filter((action) => action.owner === wallet)
    .map(({ eventIndex, fields }) => ({ ...base, eventIndex, ...fields, deliveredBy: null }));
  if (records.length === 0) {
    throw new DomainError(
      "NOT_A_VAULT_TRANSACTION",
      "signature: the transaction holds no deposit, withdrawal request, claim or cancel of this wallet on this vault",
    );
  }
  return records;
}

export function activityView(record: ActivityRecord, symbolOf: (mint: string) => string): Activity {
  const assetSymbol = symbolOf(record.assetMint);
  const asset: TokenLabel = { mint: record.assetMint, symbol: assetSymbol, decimals: record.decimals };
  // Rows keep the asset's decimals; every vault's share mint has the program's offset on top.
  const shares: TokenLabel = {
    mint: record.shareMint,
    symbol: shareSymbol(assetSymbol),
    decimals: shareDecimalsFor(record.decimals),
  };
  return {
    signature: record.signature,
    eventIndex: record.eventIndex,
    wallet: record.wallet,
    vaultId: record.vault,
    kind: record.kind,
    requestId: record.requestId === null ? null : record.requestId.toString(),
    assets: tokenAmount(asset, record.assets),
    shares: tokenAmount(shares, record.shares),
    fee: record.fee === null ? null : tokenAmount(asset, record.fee),
    deliveredBy: record.deliveredBy,
    slot: record.slot,
    blockTime: record.blockTime === null ? null : record.blockTime.toISOString(),
    recordedAt: record.recordedAt.toISOString(),
  };
}

function sameOwnerAndVault(record: ActivityRecord, request: HistoryEntryRequest): boolean {
  return record.wallet === request.wallet.toBase58() && record.vault === request.vault.toBase58();
}

function conflict(): DomainError {
  return new DomainError(
    "SIGNATURE_CONFLICT",
    "signature: this transaction is recorded for another wallet or vault",
  );
}

/**
 * Refuses the batch when a claim or a cancel in it comes before its initiate is recorded (there or
 * earlier in it): the feed never shows a request ending that it did not show starting.
 */
async function requireInitiates(store: HistoryStore, records: readonly NewActivityRecord[]): Promise<void> {
  for (const [position, record] of records.entries()) {
    if ((record.kind !== "claim" && record.kind !== "cancel") || record.requestId === null) {
      continue;
    }
    const requestId = record.requestId;
    const initiatedEarlierHere = records
      .slice(0, position)
      .some((earlier) => earlier.kind === "initiate" && earlier.requestId === requestId);
    if (!initiatedEarlierHere && !(await store.hasInitiate(record.vault, record.wallet, requestId))) {
      throw new DomainError(
        "INITIATE_NOT_RECORDED",
        `The initiate of withdrawal request ${requestId} is not recorded; record its signature before the ${record.kind}'s`,
        { context: { requestId: requestId.toString() } },
      );
    }
  }
}

/**
 * Verifies and records a history entry: every vault action of the wallet on the vault in the
 * transaction, in order, or none of them. Idempotent: a transaction whose actions are already stored
 * (by this call's twin or earlier) returns `duplicate: true` with the stored rows.
 */
export async function verifyHistoryEntry(
  deps: VaultDeps,
  store: HistoryStore,
  request: HistoryEntryRequest,
): Promise<{ duplicate: boolean; records: ActivityRecord[] }> {
  const vault = await loadVault(deps, request.vault, "cached");
  const existing = await store.findBySignature(request.signature);
  const stored = existing.filter((record) => sameOwnerAndVault(record, request));
  if (stored.length > 0 && stored.every((record) => record.eventIndex >= 0)) {
    return { duplicate: true, records: stored };
  }
  const transaction = await deps.chain.getTransaction(request.signature);
  if (transaction === null) {
    throw new DomainError(
      "TRANSACTION_NOT_CONFIRMED",
      "signature: no confirmed transaction has this signature (yet); record it once it is confirmed",
    );
  }
  let records: NewActivityRecord[];
  try {
    records = classifyVaultTransaction(transaction, request, {
      assetMint: vault.state.assetMint,
      shareMint: vault.state.shareMint,
      decimals: vault.state.assetDecimals,
    });
  } catch (error) {
    // Recorded for its other wallet or vault, and nothing in it is this pair's.
    if (error instanceof DomainError && error.code === "NOT_A_VAULT_TRANSACTION" && existing.length > 0) {
      throw conflict();
    }
    throw error;
  }
  await requireInitiates(store, records);
  const result = await store.insertEvents(records);
  return { duplicate: !result.inserted, records: result.records };
}
