// The program's test client for what lib/vault does not build yet: instructions placed straight from
// the IDL by account name (every instruction, the protocol's included), the protocol and vault
// addresses, the protocol account and the vault fields lib/vault's decoder leaves out, and every
// event the IDL declares. It reads only programs/vault/idl.json, through lib/vault/idl's coder.
import { PublicKey, TransactionInstruction } from "@solana/web3.js";
import BN from "bn.js";
import { z } from "zod";

import { publicKeyValue, smallIntegerValue, u64Value } from "../../../lib/vault/coder-values";
import {
  VAULT_PROGRAM_ID,
  camelCaseKeys,
  camelCaseToIdlName,
  vaultCoder,
  vaultIdl,
} from "../../../lib/vault/idl";

const encoder = new TextEncoder();

function u64LittleEndian(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return bytes;
}

function findAddress(seeds: Uint8Array[]): PublicKey {
  return PublicKey.findProgramAddressSync(seeds, VAULT_PROGRAM_ID)[0];
}

export function findProtocolAddress(creator: PublicKey): PublicKey {
  return findAddress([encoder.encode("protocol"), creator.toBytes()]);
}

export function findRegisteredVaultAddress(protocol: PublicKey, index: bigint): PublicKey {
  return findAddress([encoder.encode("vault"), protocol.toBytes(), u64LittleEndian(index)]);
}

/** Numbers the coder writes as u64/i64 go in as BN; everything else as it is. */
function coderValue(value: unknown): unknown {
  if (typeof value === "bigint") {
    return new BN(value.toString());
  }
  return value;
}

/**
 * One instruction of the IDL: accounts by camelCase name (fixed-address programs filled in), args by
 * camelCase name in the IDL's order. A missing or unknown account name throws.
 */
export function programInstruction(
  name: string,
  accounts: Record<string, PublicKey>,
  args: Record<string, unknown> = {},
): TransactionInstruction {
  const definition = vaultIdl.instructions.find((candidate) => candidate.name === name);
  if (definition === undefined) {
    throw new Error(`The vault IDL has no instruction named ${name}`);
  }
  const given = new Map(Object.entries(accounts).map(([key, value]) => [camelCaseToIdlName(key), value]));
  for (const key of given.keys()) {
    if (!definition.accounts.some((account) => account.name === key)) {
      throw new Error(`${name} has no account named ${key}`);
    }
  }
  const keys = definition.accounts.map((account) => {
    const pubkey =
      given.get(account.name) ?? (account.address === undefined ? undefined : new PublicKey(account.address));
    if (pubkey === undefined) {
      throw new Error(`${name} needs the account ${account.name}`);
    }
    return { pubkey, isSigner: account.signer === true, isWritable: account.writable === true };
  });
  const data = Object.fromEntries(
    definition.args.map((arg) => {
      const key = Object.keys(args).find((candidate) => camelCaseToIdlName(candidate) === arg.name);
      if (key === undefined) {
        throw new Error(`${name} needs the argument ${arg.name}`);
      }
      return [arg.name, coderValue(args[key])];
    }),
  );
  return new TransactionInstruction({
    programId: VAULT_PROGRAM_ID,
    keys,
    data: vaultCoder.instruction.encode(name, data),
  });
}

export type { NavBounds } from "../../../lib/vault/instructions";

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
  })
  .transform(camelCaseKeys);

export type ProtocolAccount = z.output<typeof protocolSchema>;

export function decodeProtocol(data: Uint8Array): ProtocolAccount {
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
