// Events the vault program emits through `sol_log_data`, parsed from a transaction's log lines.
import type { PublicKey } from "@solana/web3.js";
import { z } from "zod";

import { fixedNameValue, i64Value, publicKeyValue, smallIntegerValue, u64Value } from "./coder-values";
import { VAULT_PROGRAM_ID, camelCaseKeys, vaultCoder } from "./idl";

const vaultEventSchemas = {
  VaultInitialized: z
    .object({
      vault: publicKeyValue,
      protocol: publicKeyValue,
      manager: publicKeyValue,
      asset_mint: publicKeyValue,
      share_mint: publicKeyValue,
      index: u64Value,
      share_decimals: smallIntegerValue,
      timestamp: i64Value,
    })
    .transform(camelCaseKeys),
  Deposited: z
    .object({
      vault: publicKeyValue,
      owner: publicKeyValue,
      assets: u64Value,
      shares: u64Value,
      total_assets: u64Value,
      total_shares: u64Value,
      hourly_used: u64Value,
      daily_used: u64Value,
      timestamp: i64Value,
    })
    .transform(camelCaseKeys),
  WithdrawalRequested: z
    .object({
      vault: publicKeyValue,
      owner: publicKeyValue,
      request_id: u64Value,
      shares: u64Value,
      assets: u64Value,
      nav_floor: u64Value,
      queue_start: u64Value,
      queue_end: u64Value,
      fee_bps: smallIntegerValue,
      hourly_used: u64Value,
      daily_used: u64Value,
      timestamp: i64Value,
    })
    .transform(camelCaseKeys),
  WithdrawalClaimed: z
    .object({
      vault: publicKeyValue,
      owner: publicKeyValue,
      request_id: u64Value,
      shares: u64Value,
      gross: u64Value,
      fee: u64Value,
      net: u64Value,
      total_assets: u64Value,
      total_shares: u64Value,
      timestamp: i64Value,
    })
    .transform(camelCaseKeys),
  WithdrawalCancelled: z
    .object({
      vault: publicKeyValue,
      owner: publicKeyValue,
      request_id: u64Value,
      shares: u64Value,
      fee_shares: u64Value,
      cancelled_at: i64Value,
    })
    .transform(camelCaseKeys),
  NavUpdated: z
    .object({
      vault: publicKeyValue,
      nav_sequence: u64Value,
      gain: u64Value,
      loss: u64Value,
      previous_total_assets: u64Value,
      total_assets: u64Value,
      total_shares: u64Value,
      timestamp: i64Value,
    })
    .transform(camelCaseKeys),
  WithdrawalsStaged: z
    .object({
      vault: publicKeyValue,
      staged_shares: u64Value,
      queue_funded: u64Value,
      queue_tail: u64Value,
      timestamp: i64Value,
    })
    .transform(camelCaseKeys),
  ConfigUpdated: z
    .object({
      vault: publicKeyValue,
      fee_bps: smallIntegerValue,
      min_withdrawal_shares: u64Value,
      hourly_cap: u64Value,
      daily_cap: u64Value,
      paused: z.boolean(),
      /** When the pause ends by itself: in force while paused and the event's timestamp < this. */
      pause_until: i64Value,
      /** The protocol admin's pause (set_admin_pause), which the manager cannot lift. */
      admin_paused: z.boolean(),
      name: fixedNameValue,
      timestamp: i64Value,
    })
    .transform(camelCaseKeys),
  ProtocolInitialized: z
    .object({
      protocol: publicKeyValue,
      creator: publicKeyValue,
      admin: publicKeyValue,
      max_gain_bps: smallIntegerValue,
      max_loss_bps: smallIntegerValue,
      min_nav_interval_seconds: smallIntegerValue,
      max_annual_gain_bps: smallIntegerValue,
      max_daily_loss_bps: smallIntegerValue,
      timestamp: i64Value,
    })
    .transform(camelCaseKeys),
  AdminProposed: z
    .object({
      protocol: publicKeyValue,
      admin: publicKeyValue,
      pending_admin: publicKeyValue,
      timestamp: i64Value,
    })
    .transform(camelCaseKeys),
  AdminAccepted: z
    .object({
      protocol: publicKeyValue,
      previous_admin: publicKeyValue,
      admin: publicKeyValue,
      timestamp: i64Value,
    })
    .transform(camelCaseKeys),
  NavBoundsUpdated: z
    .object({
      protocol: publicKeyValue,
      max_gain_bps: smallIntegerValue,
      max_loss_bps: smallIntegerValue,
      min_nav_interval_seconds: smallIntegerValue,
      max_annual_gain_bps: smallIntegerValue,
      max_daily_loss_bps: smallIntegerValue,
      timestamp: i64Value,
    })
    .transform(camelCaseKeys),
  ManagerProposed: z
    .object({
      vault: publicKeyValue,
      proposer: publicKeyValue,
      manager: publicKeyValue,
      pending_manager: publicKeyValue,
      timestamp: i64Value,
    })
    .transform(camelCaseKeys),
  ManagerAccepted: z
    .object({
      vault: publicKeyValue,
      previous_manager: publicKeyValue,
      manager: publicKeyValue,
      timestamp: i64Value,
    })
    .transform(camelCaseKeys),
  ConfigScheduled: z
    .object({
      vault: publicKeyValue,
      fee_bps: smallIntegerValue,
      min_withdrawal_shares: u64Value,
      hourly_cap: u64Value,
      daily_cap: u64Value,
      /** When the scheduled config applies; 0: the pending config was withdrawn. */
      effective_at: i64Value,
      timestamp: i64Value,
    })
    .transform(camelCaseKeys),
  VaultPeriodsUpdated: z
    .object({
      vault: publicKeyValue,
      config_notice_seconds: z.number().int().nonnegative(),
      silence_seconds: z.number().int().nonnegative(),
      timestamp: i64Value,
    })
    .transform(camelCaseKeys),
  SurplusRetained: z
    .object({
      vault: publicKeyValue,
      assets: u64Value,
      surplus_assets: u64Value,
      timestamp: i64Value,
    })
    .transform(camelCaseKeys),
};

export type VaultEventName = keyof typeof vaultEventSchemas;

export type VaultEvent = {
  [Name in VaultEventName]: { name: Name; data: z.output<(typeof vaultEventSchemas)[Name]> };
}[VaultEventName];

export const VAULT_EVENT_NAMES = Object.keys(vaultEventSchemas) as VaultEventName[];

/** The vault an event is about; null for the protocol's own events. */
export function eventVault(event: VaultEvent): PublicKey | null {
  return "vault" in event.data ? event.data.vault : null;
}

function isVaultEventName(name: string): name is VaultEventName {
  return Object.hasOwn(vaultEventSchemas, name);
}

function decodeVaultEvent(bytes: Buffer): VaultEvent {
  const decoded = vaultCoder.events.decode(bytes.toString("base64"));
  if (decoded === null || !isVaultEventName(decoded.name)) {
    throw new Error("A log line of the vault program does not hold a vault event");
  }
  // The union is discriminated by name; zod has checked the fields of exactly that event.
  return { name: decoded.name, data: vaultEventSchemas[decoded.name].parse(decoded.data) } as VaultEvent;
}

const INVOKE_LINE = /^Program (\S+) invoke \[\d+\]$/;
const EXIT_LINE = /^Program (\S+) (?:success|failed)/;
const DATA_PREFIX = "Program data: ";

/**
 * The events in a transaction's logs, in emission order. Only `Program data:` lines written while
 * the vault program itself is executing count; those of programs it invokes, or of other
 * instructions, are skipped. A line may carry several base64 slices; they are joined.
 */
export function decodeVaultEvents(logs: readonly string[]): VaultEvent[] {
  const programId = VAULT_PROGRAM_ID.toBase58();
  const invocationStack: string[] = [];
  const events: VaultEvent[] = [];
  for (const line of logs) {
    const invoke = INVOKE_LINE.exec(line);
    if (invoke !== null) {
      invocationStack.push(invoke[1] ?? "");
      continue;
    }
    if (EXIT_LINE.test(line)) {
      invocationStack.pop();
      continue;
    }
    if (line.startsWith(DATA_PREFIX) && invocationStack.at(-1) === programId) {
      const slices = line.slice(DATA_PREFIX.length).trim().split(/\s+/);
      events.push(decodeVaultEvent(Buffer.concat(slices.map((slice) => Buffer.from(slice, "base64")))));
    }
  }
  return events;
}
