// The indexer's step that turns one transaction's stored program events into partner events and writes
// them, with their deliveries, inside the transaction that stores those program events (see
// SqlIndexerStore.recordTransaction): the outbox can neither lose an event nor hold one whose
// chain rows were rolled back.
import type { PublicKey } from "@solana/web3.js";

import { claimableEvent, partnerEventsOf, type VaultEventContext } from "../events/derive";
import type { Queryable } from "../store/db";
import type { StoredEvent } from "../store/indexer";
import { newlyClaimableRequests, pauseBefore, recordPartnerEvents } from "../store/partner-events";
import type { VaultState } from "../vault/program/accounts";
import { NO_PAUSE } from "../vault/model/pause";
import { vaultFromAccount } from "../vault/model/vault-state";
import { VAULT_PROGRAM_ID } from "../vault/program/idl";

export interface PartnerEventSettings {
  symbolOf(mint: PublicKey): string;
  /** vault.capacity_low under this share of a window's cap (basis points). */
  capacityLowBps: number;
}

export type VaultOutboxContext = Omit<VaultEventContext, "pauseBefore" | "signers">;

export function vaultOutboxContext(
  address: PublicKey,
  data: Buffer,
  state: VaultState,
  settings: PartnerEventSettings,
): VaultOutboxContext {
  // The same token labels (symbols, decimals) as the API's responses. The indexer reads only the
  // deployment's protocol's vaults, so the vault's own protocol is the one served here.
  const vault = vaultFromAccount({ symbolOf: settings.symbolOf, protocol: state.protocol }, address, {
    owner: VAULT_PROGRAM_ID,
    lamports: 0n,
    data,
  });
  return {
    asset: vault.asset,
    shares: vault.shares,
    hourlyCap: state.hourlyCap,
    dailyCap: state.dailyCap,
    capacityLowBps: settings.capacityLowBps,
  };
}

const CLAIMABILITY_TRIGGERS = new Set(["NavUpdated", "WithdrawalsStaged"]);

/** Writes one transaction's partner events (`signers`: its signers, fee payer first); returns how many deliveries it queued. */
export async function writePartnerEvents(
  tx: Queryable,
  vault: string,
  signature: string,
  stored: readonly StoredEvent[],
  signers: readonly string[],
  context: VaultOutboxContext,
): Promise<number> {
  if (stored.length === 0) {
    return 0;
  }
  const events = partnerEventsOf(stored, {
    ...context,
    signers,
    pauseBefore: stored.some((event) => event.name === "ConfigUpdated")
      ? await pauseBefore(tx, vault, signature)
      : NO_PAUSE,
  });
  const trigger = stored.find((event) => CLAIMABILITY_TRIGGERS.has(event.name));
  if (trigger !== undefined) {
    for (const request of await newlyClaimableRequests(tx, vault)) {
      events.push(claimableEvent(request, trigger, context));
    }
  }
  return recordPartnerEvents(tx, events);
}
