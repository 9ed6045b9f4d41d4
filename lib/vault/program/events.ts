// Events the vault program emits through `sol_log_data`, parsed from a transaction's log lines.
import type { Decoder } from "@solana/kit";
import type { PublicKey } from "@solana/web3.js";

import {
  getAdminAcceptedDecoder,
  getAdminProposedDecoder,
  getConfigScheduledDecoder,
  getConfigUpdatedDecoder,
  getDepositedDecoder,
  getManagerAcceptedDecoder,
  getManagerProposedDecoder,
  getMaxPartnerFeeUpdatedDecoder,
  getNavBoundsUpdatedDecoder,
  getNavUpdatedDecoder,
  getPartnerFeePaidDecoder,
  getProtocolInitializedDecoder,
  getSurplusRetainedDecoder,
  getVaultInitializedDecoder,
  getVaultPeriodsUpdatedDecoder,
  getWithdrawalCancelledDecoder,
  getWithdrawalClaimedDecoder,
  getWithdrawalRequestedDecoder,
  getWithdrawalsStagedDecoder,
} from "../generated";
import { domainFields, type DomainFields } from "./decoded-values";
import { VAULT_PROGRAM_ID, vaultIdl } from "./idl";

/**
 * Each event's decoder, generated from its struct in the IDL (npm run program:generate). Of note:
 * ConfigUpdated's pauseUntil is when the pause ends by itself (in force while paused and the event's
 * timestamp < it) and its adminPaused the protocol admin's pause, which the manager cannot lift;
 * ConfigScheduled's effectiveAt is when the scheduled config applies (0: the pending one was withdrawn);
 * PartnerFeePaid's assets is the deposit's gross amount, of which fee went to the partner (the Deposited
 * event beside it carries the net amount).
 */
const vaultEventDecoders = {
  VaultInitialized: getVaultInitializedDecoder(),
  Deposited: getDepositedDecoder(),
  WithdrawalRequested: getWithdrawalRequestedDecoder(),
  WithdrawalClaimed: getWithdrawalClaimedDecoder(),
  WithdrawalCancelled: getWithdrawalCancelledDecoder(),
  NavUpdated: getNavUpdatedDecoder(),
  WithdrawalsStaged: getWithdrawalsStagedDecoder(),
  ConfigUpdated: getConfigUpdatedDecoder(),
  ProtocolInitialized: getProtocolInitializedDecoder(),
  AdminProposed: getAdminProposedDecoder(),
  AdminAccepted: getAdminAcceptedDecoder(),
  NavBoundsUpdated: getNavBoundsUpdatedDecoder(),
  ManagerProposed: getManagerProposedDecoder(),
  ManagerAccepted: getManagerAcceptedDecoder(),
  ConfigScheduled: getConfigScheduledDecoder(),
  VaultPeriodsUpdated: getVaultPeriodsUpdatedDecoder(),
  SurplusRetained: getSurplusRetainedDecoder(),
  PartnerFeePaid: getPartnerFeePaidDecoder(),
  MaxPartnerFeeUpdated: getMaxPartnerFeeUpdatedDecoder(),
};

export type VaultEventName = keyof typeof vaultEventDecoders;

type DecodedBy<D> = D extends Decoder<infer T> ? T : never;

export type VaultEvent = {
  [Name in VaultEventName]: { name: Name; data: DomainFields<DecodedBy<(typeof vaultEventDecoders)[Name]>> };
}[VaultEventName];

export const VAULT_EVENT_NAMES = Object.keys(vaultEventDecoders) as VaultEventName[];

/** The vault an event is about; null for the protocol's own events. */
export function eventVault(event: VaultEvent): PublicKey | null {
  return "vault" in event.data ? event.data.vault : null;
}

function isVaultEventName(name: string): name is VaultEventName {
  return Object.hasOwn(vaultEventDecoders, name);
}

const DISCRIMINATOR_BYTES = 8;

/** Each event by its 8-byte discriminator (sha256("event:<Name>")[..8], listed in the IDL), as hex. */
const eventNameByDiscriminator = new Map(
  vaultIdl.events.map(({ name, discriminator }) => [Buffer.from(discriminator).toString("hex"), name]),
);

function decodeVaultEvent(bytes: Buffer): VaultEvent {
  const name = eventNameByDiscriminator.get(bytes.subarray(0, DISCRIMINATOR_BYTES).toString("hex"));
  if (name === undefined || !isVaultEventName(name)) {
    throw new Error("A log line of the vault program does not hold a vault event");
  }
  // The union is discriminated by name; the decoder is exactly that event's.
  const data = vaultEventDecoders[name].decode(bytes.subarray(DISCRIMINATOR_BYTES));
  return { name, data: domainFields(data) } as VaultEvent;
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
