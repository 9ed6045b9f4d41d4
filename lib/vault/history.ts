// History entries: a confirmed signature is verified against the chain (successful, signed by the
// wallet, carrying one of our program's deposit / withdrawal events for that vault and wallet),
// classified from the event, and stored once. A claim is only recorded after its initiate.
import type { PublicKey } from "@solana/web3.js";

import type { ConfirmedTransaction } from "../chain/vault-chain";
import { DomainError } from "./domain-error";
import { decodeVaultEvents, type VaultEvent } from "./events";
import { tokenAmount, type TokenAmount, type TokenLabel } from "./token-amount";
import { loadVault, shareSymbol, type VaultDeps } from "./vault-state";

export type ActivityKind = "deposit" | "initiate" | "claim";

/** A history row as stored: raw amounts, mints and decimals; symbols are resolved when shown. */
export interface ActivityRecord {
  signature: string;
  wallet: string;
  vault: string;
  kind: ActivityKind;
  requestId: bigint | null;
  assets: bigint;
  shares: bigint;
  fee: bigint | null;
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
  findBySignature(signature: string): Promise<ActivityRecord | null>;
  hasInitiate(vault: string, wallet: string, requestId: bigint): Promise<boolean>;
  /** Inserts unless the signature exists; returns the stored row and whether this call inserted it. */
  insertOnce(record: NewActivityRecord): Promise<{ inserted: boolean; record: ActivityRecord }>;
  /** Newest first; `before` continues after that entry (a cursor). */
  list(
    vault: string,
    wallet: string,
    limit: number,
    before?: { slot: number; signature: string },
  ): Promise<ActivityRecord[]>;
}

export interface Activity {
  signature: string;
  wallet: string;
  vaultId: string;
  kind: ActivityKind;
  requestId: string | null;
  assets: TokenAmount;
  shares: TokenAmount;
  fee: TokenAmount | null;
  slot: number;
  blockTime: string | null;
  recordedAt: string;
}

export interface HistoryEntryRequest {
  wallet: PublicKey;
  vault: PublicKey;
  signature: string;
}

/** The one vault action of this wallet on this vault that the transaction's events show; throws otherwise. */
export function classifyVaultTransaction(
  transaction: ConfirmedTransaction,
  request: HistoryEntryRequest,
  tokens: { assetMint: PublicKey; shareMint: PublicKey; decimals: number },
): NewActivityRecord {
  if (transaction.err !== null) {
    throw new DomainError(
      "TRANSACTION_FAILED",
      "signature: the transaction failed on chain; only successful transactions are recorded",
      JSON.stringify(transaction.err),
    );
  }
  const wallet = request.wallet.toBase58();
  const signers = transaction.accountKeys.slice(0, transaction.numRequiredSignatures);
  if (!signers.includes(wallet)) {
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
  const action = events.find(
    (event) =>
      (event.name === "Deposited" ||
        event.name === "WithdrawalRequested" ||
        event.name === "WithdrawalClaimed") &&
      event.data.vault.toBase58() === vault &&
      event.data.owner.toBase58() === wallet,
  );
  if (action === undefined) {
    throw new DomainError(
      "NOT_A_VAULT_TRANSACTION",
      "signature: the transaction holds no deposit, withdrawal request or claim of this wallet on this vault",
    );
  }
  const base = {
    signature: request.signature,
    wallet,
    vault,
    assetMint: tokens.assetMint.toBase58(),
    shareMint: tokens.shareMint.toBase58(),
    decimals: tokens.decimals,
    slot: transaction.slot,
    blockTime: transaction.blockTime === null ? null : new Date(transaction.blockTime * 1000),
  };
  switch (action.name) {
    case "Deposited":
      return {
        ...base,
        kind: "deposit",
        requestId: null,
        assets: action.data.assets,
        shares: action.data.shares,
        fee: null,
      };
    case "WithdrawalRequested":
      return {
        ...base,
        kind: "initiate",
        requestId: action.data.requestId,
        assets: action.data.assets,
        shares: action.data.shares,
        fee: null,
      };
    case "WithdrawalClaimed":
      return {
        ...base,
        kind: "claim",
        requestId: action.data.requestId,
        assets: action.data.net,
        shares: action.data.shares,
        fee: action.data.fee,
      };
    default:
      throw new DomainError("NOT_A_VAULT_TRANSACTION", "signature: the transaction holds no vault action");
  }
}

export function activityView(record: ActivityRecord, symbolOf: (mint: string) => string): Activity {
  const assetSymbol = symbolOf(record.assetMint);
  const asset: TokenLabel = { mint: record.assetMint, symbol: assetSymbol, decimals: record.decimals };
  const shares: TokenLabel = {
    mint: record.shareMint,
    symbol: shareSymbol(assetSymbol),
    decimals: record.decimals,
  };
  return {
    signature: record.signature,
    wallet: record.wallet,
    vaultId: record.vault,
    kind: record.kind,
    requestId: record.requestId === null ? null : record.requestId.toString(),
    assets: tokenAmount(asset, record.assets),
    shares: tokenAmount(shares, record.shares),
    fee: record.fee === null ? null : tokenAmount(asset, record.fee),
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
 * Verifies and records a history entry. Idempotent: a signature already stored (by this call's twin
 * or earlier) returns `duplicate: true` with the stored entry.
 */
export async function verifyHistoryEntry(
  deps: VaultDeps,
  store: HistoryStore,
  request: HistoryEntryRequest,
): Promise<{ duplicate: boolean; record: ActivityRecord }> {
  const vault = await loadVault(deps, request.vault, "cached");
  const existing = await store.findBySignature(request.signature);
  if (existing !== null) {
    if (!sameOwnerAndVault(existing, request)) {
      throw conflict();
    }
    return { duplicate: true, record: existing };
  }
  const transaction = await deps.chain.getTransaction(request.signature);
  if (transaction === null) {
    throw new DomainError(
      "TRANSACTION_NOT_CONFIRMED",
      "signature: no confirmed transaction has this signature (yet); record it once it is confirmed",
    );
  }
  const record = classifyVaultTransaction(transaction, request, {
    assetMint: vault.state.assetMint,
    shareMint: vault.state.shareMint,
    decimals: vault.state.assetDecimals,
  });
  if (record.kind === "claim" && record.requestId !== null) {
    const initiated = await store.hasInitiate(record.vault, record.wallet, record.requestId);
    if (!initiated) {
      throw new DomainError(
        "INITIATE_NOT_RECORDED",
        `The initiate of withdrawal request ${record.requestId} is not recorded; record its signature before the claim's`,
      );
    }
  }
  const stored = await store.insertOnce(record);
  if (!sameOwnerAndVault(stored.record, request)) {
    throw conflict();
  }
  return { duplicate: !stored.inserted, record: stored.record };
}
