// The vault program's Anchor-format IDL: the one description of its wire format. Its layouts reach
// lib/vault through the code Codama generates from it (../generated, npm run program:generate); this
// module keeps the parts read as data (instruction account lists and their PDA seeds, event
// discriminators, errors).
import { PublicKey } from "@solana/web3.js";
import { z } from "zod";

import idlJson from "../../../programs/vault/idl.json";
import { getProtocolSize, getQueueHolesSize, getVaultSize, getWithdrawalReceiptSize } from "../generated";
import { VAULT_PROGRAM_ADDRESS } from "./program-id";

const discriminatorSchema = z.array(z.number().int().min(0).max(255)).length(8);

const idlPdaSeedSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("const"), value: z.array(z.number().int().min(0).max(255)) }),
  z.object({ kind: z.enum(["account", "arg"]), path: z.string() }),
]);

const idlAccountMetaSchema = z.object({
  name: z.string(),
  writable: z.boolean().optional(),
  signer: z.boolean().optional(),
  address: z.string().optional(),
  pda: z.object({ seeds: z.array(idlPdaSeedSchema) }).optional(),
});

const idlInstructionSchema = z.object({
  name: z.string(),
  discriminator: discriminatorSchema,
  accounts: z.array(idlAccountMetaSchema),
  args: z.array(z.object({ name: z.string(), type: z.unknown() })),
});

const idlNamedDiscriminatorSchema = z.object({ name: z.string(), discriminator: discriminatorSchema });

const idlErrorSchema = z.object({ code: z.number().int(), name: z.string(), msg: z.string() });

// Only the parts lib/vault navigates itself; the generated code holds the layouts.
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
  "close_queue_holes",
  "deposit_with_partner_fee",
  "set_max_partner_fee",
] as const;

export type VaultInstructionName = (typeof VAULT_INSTRUCTION_NAMES)[number];

export function findIdlInstruction(name: VaultInstructionName): IdlInstruction {
  const instruction = vaultIdl.instructions.find((candidate) => candidate.name === name);
  if (instruction === undefined) {
    throw new Error(`The vault IDL has no instruction named ${name}`);
  }
  return instruction;
}

/** Account sizes, discriminator included, as the generated decoders lay them out from the IDL. */
export const VAULT_ACCOUNT_SIZE = getVaultSize();
export const WITHDRAWAL_RECEIPT_ACCOUNT_SIZE = getWithdrawalReceiptSize();
export const PROTOCOL_ACCOUNT_SIZE = getProtocolSize();
export const QUEUE_HOLES_ACCOUNT_SIZE = getQueueHolesSize();
