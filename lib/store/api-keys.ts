// API keys: shown once at creation, stored only as a SHA-256 hash, looked up by that hash.
import { hash, randomBytes } from "node:crypto";

import bs58 from "bs58";

import type { Queryable } from "./db";

export type KeyScope = "read" | "write";
export type KeyEnvironment = "live" | "test";

/** A partner a key carries: its deposits pay this wallet a fee of `feeBps` (lib/vault/operations/deposit-with-partner-fee.ts). */
export interface KeyPartner {
  wallet: string;
  feeBps: number;
}

export interface ApiKeyRecord {
  id: string;
  name: string;
  keyPrefix: string;
  scope: KeyScope;
  /** Null: every vault. */
  vaults: string[] | null;
  /** Null: any wallet. */
  wallet: string | null;
  rpm: number;
  /** Null: no partner (its deposits pay no partner fee). */
  partner: KeyPartner | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

export interface NewApiKey {
  name: string;
  scope: KeyScope;
  vaults?: string[] | null;
  wallet?: string | null;
  rpm: number;
  partner?: KeyPartner | null;
  environment?: KeyEnvironment;
}

/** Key secrets: `vk_live_` or `vk_test_` then 32 random bytes in base58. */
export const API_KEY_PATTERN = /^vk_(live|test)_[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** SHA-256 of the secret in hex; crypto.hash, one call with no Hash object, on every partner request. */
export function hashApiKey(secret: string): string {
  return hash("sha256", secret, "hex");
}

interface ApiKeyRow {
  id: string;
  name: string;
  key_prefix: string;
  scope: KeyScope;
  vaults: string[] | null;
  wallet: string | null;
  rpm: number;
  partner_wallet: string | null;
  partner_fee_bps: number | null;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

const COLUMNS =
  "id, name, key_prefix, scope, vaults, wallet, rpm, partner_wallet, partner_fee_bps, created_at, revoked_at, last_used_at";

function fromRow(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    keyPrefix: row.key_prefix,
    scope: row.scope,
    vaults: row.vaults,
    wallet: row.wallet,
    rpm: Number(row.rpm),
    partner:
      row.partner_wallet === null || row.partner_fee_bps === null
        ? null
        : { wallet: row.partner_wallet, feeBps: Number(row.partner_fee_bps) },
    createdAt: new Date(row.created_at),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at),
  };
}

export class ApiKeyStore {
  constructor(private readonly db: Queryable) {}

  /** Creates a key; the secret is returned here and never again. */
  async create(input: NewApiKey): Promise<{ secret: string; record: ApiKeyRecord }> {
    const secret = `vk_${input.environment ?? "live"}_${bs58.encode(randomBytes(32))}`;
    const id = `key_${bs58.encode(randomBytes(12))}`;
    const [row] = await this.db.query<ApiKeyRow>(
      `INSERT INTO api_keys (id, name, key_prefix, key_hash, scope, vaults, wallet, rpm, partner_wallet, partner_fee_bps)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${COLUMNS}`,
      [
        id,
        input.name,
        secret.slice(0, 12),
        hashApiKey(secret),
        input.scope,
        input.vaults ?? null,
        input.wallet ?? null,
        input.rpm,
        input.partner?.wallet ?? null,
        input.partner?.feeBps ?? null,
      ],
    );
    if (row === undefined) {
      throw new Error("Creating the key returned no row");
    }
    return { secret, record: fromRow(row) };
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | null> {
    const [row] = await this.db.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE key_hash = $1`, [
      hash,
    ]);
    return row === undefined ? null : fromRow(row);
  }

  /** The partner of an active key that carries one (an embed names its partner by key id); else null. */
  async activePartnerOf(id: string): Promise<KeyPartner | null> {
    const [row] = await this.db.query<{ partner_wallet: string; partner_fee_bps: number }>(
      `SELECT partner_wallet, partner_fee_bps FROM api_keys
        WHERE id = $1 AND revoked_at IS NULL AND partner_wallet IS NOT NULL AND partner_fee_bps IS NOT NULL`,
      [id],
    );
    return row === undefined ? null : { wallet: row.partner_wallet, feeBps: Number(row.partner_fee_bps) };
  }

  async list(): Promise<ApiKeyRecord[]> {
    const rows = await this.db.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, id`);
    return rows.map(fromRow);
  }

  /** Revokes a key by id; false when no such key exists or it was already revoked. */
  async revoke(id: string): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      "UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id",
      [id],
    );
    return rows.length > 0;
  }

  async touchLastUsed(id: string, at: Date): Promise<void> {
    await this.db.query("UPDATE api_keys SET last_used_at = $2 WHERE id = $1", [id, at]);
  }
}
