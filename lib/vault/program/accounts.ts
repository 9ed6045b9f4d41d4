// Decoders for the accounts the vault program owns: raw account data in, typed objects with bigint
// amounts and PublicKeys out, through the decoders Codama generates from the IDL (../generated). Both
// refuse data of the wrong type or size.
import type { FixedSizeDecoder, ReadonlyUint8Array } from "@solana/kit";

import {
  PROTOCOL_DISCRIMINATOR,
  QUEUE_HOLES_DISCRIMINATOR,
  VAULT_DISCRIMINATOR,
  WITHDRAWAL_RECEIPT_DISCRIMINATOR,
  getProtocolDecoder,
  getQueueHolesDecoder,
  getVaultDecoder,
  getWithdrawalReceiptDecoder,
  type Protocol,
  type QueueHoles,
  type QueueRange,
  type Vault,
  type WithdrawalReceipt,
} from "../generated";
import { domainFields, type DomainFields } from "./decoded-values";

/**
 * A vault's state. The config a holder-hurting update scheduled (pending*) is meaningful only while
 * pendingEffectiveAt ≠ 0 (unix seconds when it applies). configNoticeSeconds and silenceSeconds of 0
 * mean the program's defaults (3 days of notice, 7 days of silence). A pause is in force while paused
 * and now < pauseUntil; maxPauseSeconds is the longest a manager's pause lasts (0 = 7 days);
 * adminPaused: the pause is the protocol admin's (set_admin_pause), which the manager cannot lift.
 */
export type VaultState = DomainFields<Vault>;

/** lastHolderExit: this request queued the holders' last shares, so its fee leaves NAV at the claim (surplus). */
export type ReceiptState = DomainFields<WithdrawalReceipt>;

export type ProtocolState = DomainFields<Protocol>;

/**
 * The holes cancelled requests left in a vault's queue: only those in use, in no order. payer: the wallet
 * that paid the list's rent, which close_queue_holes returns to it once the list is empty.
 */
export interface QueueHolesState {
  vault: DomainFields<QueueHoles>["vault"];
  bump: number;
  holes: QueueRange[];
  payer: DomainFields<QueueHoles>["payer"];
}

const vaultDecoder = getVaultDecoder();
const withdrawalReceiptDecoder = getWithdrawalReceiptDecoder();
const protocolDecoder = getProtocolDecoder();
const queueHolesDecoder = getQueueHolesDecoder();

function hasDiscriminator(data: Uint8Array, discriminator: ReadonlyUint8Array): boolean {
  return discriminator.every((byte, index) => data[index] === byte);
}

function decodeProgramAccount<T>(
  accountName: string,
  decoder: FixedSizeDecoder<T>,
  discriminator: ReadonlyUint8Array,
  data: Uint8Array,
): T {
  if (data.length !== decoder.fixedSize) {
    throw new Error(`A ${accountName} account is ${decoder.fixedSize} bytes, got ${data.length}`);
  }
  if (!hasDiscriminator(data, discriminator)) {
    throw new Error(`The account data is not a ${accountName}: its discriminator differs`);
  }
  return decoder.decode(data);
}

export function decodeVaultState(data: Uint8Array): VaultState {
  return domainFields(decodeProgramAccount("Vault", vaultDecoder, VAULT_DISCRIMINATOR, data));
}

export function decodeReceiptState(data: Uint8Array): ReceiptState {
  return domainFields(
    decodeProgramAccount(
      "WithdrawalReceipt",
      withdrawalReceiptDecoder,
      WITHDRAWAL_RECEIPT_DISCRIMINATOR,
      data,
    ),
  );
}

/**
 * A vault's queue holes ([start, end) share ranges no receipt holds, which staging passes for free):
 * shares between the funded frontier and a receipt's queue_start that lie in a hole are not ahead of it.
 */
export function decodeQueueHolesState(data: Uint8Array): QueueHolesState {
  const { vault, bump, count, holes, payer } = domainFields(
    decodeProgramAccount("QueueHoles", queueHolesDecoder, QUEUE_HOLES_DISCRIMINATOR, data),
  );
  return { vault, bump, holes: holes.slice(0, count), payer };
}

export function decodeProtocolState(data: Uint8Array): ProtocolState {
  return domainFields(decodeProgramAccount("Protocol", protocolDecoder, PROTOCOL_DISCRIMINATOR, data));
}
