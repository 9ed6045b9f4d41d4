// The vault program's Anchor-format IDL: the one description of its wire format that every encoder,
// decoder and instruction builder in lib/vault reads from.
import { BorshCoder, type Idl } from "@coral-xyz/anchor";
import { PublicKey } from "@solana/web3.js";
import { z } from "zod";

import idlJson from "../../../programs/vault/idl.json";
import { VAULT_PROGRAM_ADDRESS } from "./program-id";

const discriminatorSchema = z.array(z.number().int().min(0).max(255)).length(8);

const idlAccountMetaSchema = z.object({
  name: z.string(),
  writable: z.boolean().optional(),
  signer: z.boolean().optional(),
  address: z.string().optional(),
});

const idlInstructionSchema = z.object({
  name: z.string(),
  discriminator: discriminatorSchema,
  accounts: z.array(idlAccountMetaSchema),
  args: z.array(z.object({ name: z.string(), type: z.unknown() })),
});

const idlNamedDiscriminatorSchema = z.object({ name: z.string(), discriminator: discriminatorSchema });

const idlErrorSchema = z.object({ code: z.number().int(), name: z.string(), msg: z.string() });

// Only the parts lib/vault navigates itself; the coder reads the full document.
const vaultIdlSchema = z.object({
  address: z.string(),
  instructions: z.array(idlInstructionSchema),
  accounts: z.array(idlNamedDiscriminatorSchema),
  events: z.array(idlNamedDiscriminatorSchema),
  errors: z.array(idlErrorSchema),
});

export type IdlInstruction = z.infer<typeof idlInstructionSchema>;
export type IdlAccountMeta = z.infer<typeof idlAccountMetaSchema>;

export const vaultIdl = vaultIdlSchema.parse(idlJson);

export const VAULT_PROGRAM_ID = new PublicKey(VAULT_PROGRAM_ADDRESS);

export const vaultCoder = new BorshCoder(idlJson as Idl);

export const VAULT_INSTRUCTION_NAMES = [
  "initialize_vault",
  "deposit",
  "request_withdrawal",
  "claim_withdrawal",
  "cancel_withdrawal",
  "update_nav",
  "stage_withdrawals",
  "update_config",
  "initialize_protocol",
  "propose_admin",
  "accept_admin",
  "set_nav_bounds",
  "propose_manager",
  "accept_manager",
  "apply_config",
  "set_vault_periods",
  "set_admin_pause",
] as const;

export type VaultInstructionName = (typeof VAULT_INSTRUCTION_NAMES)[number];

export function findIdlInstruction(name: VaultInstructionName): IdlInstruction {
  const instruction = vaultIdl.instructions.find((candidate) => candidate.name === name);
  if (instruction === undefined) {
    throw new Error(`The vault IDL has no instruction named ${name}`);
  }
  return instruction;
}

/** Account sizes, discriminator included, as the coder lays them out from the IDL. */
export const VAULT_ACCOUNT_SIZE = vaultCoder.accounts.size("Vault");
export const WITHDRAWAL_RECEIPT_ACCOUNT_SIZE = vaultCoder.accounts.size("WithdrawalReceipt");
export const PROTOCOL_ACCOUNT_SIZE = vaultCoder.accounts.size("Protocol");
export const QUEUE_HOLES_ACCOUNT_SIZE = vaultCoder.accounts.size("QueueHoles");

type SnakeToCamel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<SnakeToCamel<Tail>>}`
  : S;

export type CamelCaseKeys<T> = { [K in keyof T as K extends string ? SnakeToCamel<K> : K]: T[K] };

/** `total_assets` (IDL) → `totalAssets` (TypeScript). */
export function idlNameToCamelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/** `totalAssets` (TypeScript) → `total_assets` (IDL). */
export function camelCaseToIdlName(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

export function camelCaseKeys<T extends Record<string, unknown>>(value: T): CamelCaseKeys<T> {
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [idlNameToCamelCase(key), field]),
  ) as CamelCaseKeys<T>;
}
