// The program's test client for what lib/vault does not decode yet: the protocol account, the vault
// fields lib/vault's decoder leaves out, and every event the IDL declares, through Anchor's coder
// (tests/fixtures/anchor-coder). Instructions and addresses come from lib/vault (instructions.ts over the Codama-generated
// layer, addresses.ts), the same code the app sends with.
import BN from "bn.js";
import { z } from "zod";

import { VAULT_PROGRAM_ID } from "../../../lib/vault/program/idl";
import {
  camelCaseKeys,
  publicKeyValue,
  smallIntegerValue,
  u64Value,
  vaultCoder,
} from "../../../tests/fixtures/anchor-coder";

export type { NavBounds } from "../../../lib/vault/program/instructions";

const protocolSchema = z
  .object({
    creator: publicKeyValue,
    admin: publicKeyValue,
    pending_admin: publicKeyValue,
    max_gain_bps: smallIntegerValue,
    max_loss_bps: smallIntegerValue,
    min_nav_interval_seconds: smallIntegerValue,
    vault_count: u64Value,
    bump: smallIntegerValue,
    max_annual_gain_bps: smallIntegerValue,
    max_daily_loss_bps: smallIntegerValue,
    max_partner_fee_bps: smallIntegerValue,
  })
  .transform(camelCaseKeys);

export type ProtocolState = z.output<typeof protocolSchema>;

export function decodeProtocolState(data: Uint8Array): ProtocolState {
  return protocolSchema.parse(vaultCoder.accounts.decode("Protocol", Buffer.from(data)));
}

/** The vault fields this change added, which lib/vault's decoder does not read yet. */
const vaultRegistrationSchema = z
  .object({
    protocol: publicKeyValue,
    pending_manager: publicKeyValue,
    share_decimals: smallIntegerValue,
    surplus_assets: u64Value,
  })
  .transform(camelCaseKeys);

export type VaultRegistration = z.output<typeof vaultRegistrationSchema>;

export function decodeVaultRegistration(data: Uint8Array): VaultRegistration {
  return vaultRegistrationSchema.parse(vaultCoder.accounts.decode("Vault", Buffer.from(data)));
}

const receiptFeeSchema = z.object({ fee_bps: smallIntegerValue }).transform(camelCaseKeys);

export function decodeReceiptFee(data: Uint8Array): number {
  return receiptFeeSchema.parse(vaultCoder.accounts.decode("WithdrawalReceipt", Buffer.from(data))).feeBps;
}

/** Any event of the IDL, fields as the coder gives them (u64 as bigint, keys as PublicKey). */
export interface ProgramEvent {
  name: string;
  data: Record<string, unknown>;
}

const DATA_PREFIX = "Program data: ";
const INVOKE_LINE = /^Program (\S+) invoke \[\d+\]$/;
const EXIT_LINE = /^Program (\S+) (?:success|failed)/;

function plainValue(value: unknown): unknown {
  if (BN.isBN(value)) {
    return BigInt(value.toString());
  }
  return value;
}

/** Every event the vault program itself logged, in order; a line that is not an IDL event throws. */
export function decodeProgramEvents(logs: readonly string[]): ProgramEvent[] {
  const programId = VAULT_PROGRAM_ID.toBase58();
  const stack: string[] = [];
  const events: ProgramEvent[] = [];
  for (const line of logs) {
    const invoke = INVOKE_LINE.exec(line);
    if (invoke !== null) {
      stack.push(invoke[1] ?? "");
    } else if (EXIT_LINE.test(line)) {
      stack.pop();
    } else if (line.startsWith(DATA_PREFIX) && stack.at(-1) === programId) {
      const decoded = vaultCoder.events.decode(line.slice(DATA_PREFIX.length).trim());
      if (decoded === null) {
        throw new Error(`Not a vault event: ${line}`);
      }
      const data = Object.fromEntries(
        Object.entries(decoded.data as Record<string, unknown>).map(([key, value]) => [
          key,
          plainValue(value),
        ]),
      );
      events.push({ name: decoded.name, data });
    }
  }
  return events;
}
