// Decoders for the accounts the vault program owns: raw account data in, typed objects with bigint
// amounts out. Both refuse data of the wrong type or size.
import { z } from "zod";

import { fixedNameValue, i64Value, publicKeyValue, smallIntegerValue, u64Value } from "./coder-values";
import {
  PROTOCOL_ACCOUNT_SIZE,
  QUEUE_HOLES_ACCOUNT_SIZE,
  VAULT_ACCOUNT_SIZE,
  WITHDRAWAL_RECEIPT_ACCOUNT_SIZE,
  camelCaseKeys,
  vaultCoder,
} from "./idl";

const vaultSchema = z
  .object({
    protocol: publicKeyValue,
    manager: publicKeyValue,
    pending_manager: publicKeyValue,
    asset_mint: publicKeyValue,
    share_mint: publicKeyValue,
    reserve: publicKeyValue,
    escrow: publicKeyValue,
    authority: publicKeyValue,
    index: u64Value,
    bump: smallIntegerValue,
    authority_bump: smallIntegerValue,
    share_mint_bump: smallIntegerValue,
    reserve_bump: smallIntegerValue,
    escrow_bump: smallIntegerValue,
    asset_decimals: smallIntegerValue,
    share_decimals: smallIntegerValue,
    paused: z.boolean(),
    name: fixedNameValue,
    total_assets: u64Value,
    total_shares: u64Value,
    nav_sequence: u64Value,
    nav_updated_at: i64Value,
    fee_bps: smallIntegerValue,
    min_withdrawal_shares: u64Value,
    hourly_cap: u64Value,
    daily_cap: u64Value,
    hourly_window_start: i64Value,
    hourly_used: u64Value,
    daily_window_start: i64Value,
    daily_used: u64Value,
    queue_tail: u64Value,
    queue_funded: u64Value,
    queue_claimed: u64Value,
    next_request_id: u64Value,
    pending_requests: u64Value,
    surplus_assets: u64Value,
    /** The config a holder-hurting update scheduled; meaningful only while pending_effective_at ≠ 0. */
    pending_fee_bps: smallIntegerValue,
    pending_min_withdrawal_shares: u64Value,
    pending_hourly_cap: u64Value,
    pending_daily_cap: u64Value,
    /** When the pending config applies (unix seconds); 0 when nothing is pending. */
    pending_effective_at: i64Value,
    /** 0 means the program's defaults (3 days of notice, 7 days of silence). */
    config_notice_seconds: z.number().int().nonnegative(),
    silence_seconds: z.number().int().nonnegative(),
    staged_at: i64Value,
    /** When the manager's pause ends by itself: a pause is in force while paused and now < this. */
    pause_until: i64Value,
    /** The longest a manager's pause lasts (0 = 7 days); a new one waits as long after the last ends. */
    max_pause_seconds: z.number().int().nonnegative(),
    /** The pause in force is the protocol admin's (set_admin_pause): the manager cannot lift it. */
    admin_paused: z.boolean(),
  })
  .transform(camelCaseKeys);

const withdrawalReceiptSchema = z
  .object({
    vault: publicKeyValue,
    owner: publicKeyValue,
    shares: u64Value,
    assets_at_request: u64Value,
    nav_floor: u64Value,
    request_id: u64Value,
    requested_at: i64Value,
    queue_start: u64Value,
    queue_end: u64Value,
    fee_bps: smallIntegerValue,
    bump: smallIntegerValue,
    /** This request queued the holders' last shares: its fee leaves NAV at the claim (surplus). */
    last_holder_exit: z.boolean(),
  })
  .transform(camelCaseKeys);

const protocolSchema = z
  .object({
    creator: publicKeyValue,
    admin: publicKeyValue,
    pending_admin: publicKeyValue,
    max_gain_bps: smallIntegerValue,
    max_loss_bps: smallIntegerValue,
    min_nav_interval_seconds: z.number().int().nonnegative(),
    vault_count: u64Value,
    bump: smallIntegerValue,
    max_annual_gain_bps: smallIntegerValue,
    max_daily_loss_bps: smallIntegerValue,
  })
  .transform(camelCaseKeys);

const queueRangeSchema = z.object({ start: u64Value, end: u64Value });

/** The holes cancelled requests left in a vault's queue: only `holes[..count]` are in use, in no order. */
const queueHolesSchema = z
  .object({
    vault: publicKeyValue,
    bump: smallIntegerValue,
    count: smallIntegerValue,
    holes: z.array(queueRangeSchema),
  })
  .transform(({ vault, bump, count, holes }) => ({ vault, bump, holes: holes.slice(0, count) }));

export type VaultAccount = z.output<typeof vaultSchema>;
export type QueueHolesAccount = z.output<typeof queueHolesSchema>;
export type WithdrawalReceiptAccount = z.output<typeof withdrawalReceiptSchema>;
export type ProtocolAccount = z.output<typeof protocolSchema>;

function decodeProgramAccount(accountName: string, expectedSize: number, data: Uint8Array): unknown {
  if (data.length !== expectedSize) {
    throw new Error(`A ${accountName} account is ${expectedSize} bytes, got ${data.length}`);
  }
  return vaultCoder.accounts.decode(accountName, Buffer.from(data));
}

export function decodeVault(data: Uint8Array): VaultAccount {
  return vaultSchema.parse(decodeProgramAccount("Vault", VAULT_ACCOUNT_SIZE, data));
}

export function decodeReceipt(data: Uint8Array): WithdrawalReceiptAccount {
  return withdrawalReceiptSchema.parse(
    decodeProgramAccount("WithdrawalReceipt", WITHDRAWAL_RECEIPT_ACCOUNT_SIZE, data),
  );
}

/**
 * A vault's queue holes ([start, end) share ranges no receipt holds, which staging passes for free):
 * shares between the funded frontier and a receipt's queue_start that lie in a hole are not ahead of it.
 */
export function decodeQueueHoles(data: Uint8Array): QueueHolesAccount {
  return queueHolesSchema.parse(decodeProgramAccount("QueueHoles", QUEUE_HOLES_ACCOUNT_SIZE, data));
}

export function decodeProtocol(data: Uint8Array): ProtocolAccount {
  return protocolSchema.parse(decodeProgramAccount("Protocol", PROTOCOL_ACCOUNT_SIZE, data));
}
