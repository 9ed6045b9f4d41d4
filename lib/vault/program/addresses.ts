// Program-derived addresses of a vault, with the seeds from programs/vault/README.md.
import { PublicKey } from "@solana/web3.js";

import { base58Of } from "../../chain/base58";
import { boundedMemo } from "../../chain/bounded-memo";
import { VAULT_PROGRAM_ID } from "./idl";

const encoder = new TextEncoder();

function u64LittleEndian(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return bytes;
}

function findAddress(seeds: Uint8Array[]): PublicKey {
  const [address] = PublicKey.findProgramAddressSync(seeds, VAULT_PROGRAM_ID);
  return address;
}

/** The protocol account its creator made (the creator is its first admin). */
export function findProtocolAddress(creator: PublicKey): PublicKey {
  return findAddress([encoder.encode("protocol"), creator.toBytes()]);
}

/** The protocol's vault number `index` (its admin registers them in order). */
export function findVaultAddress(protocol: PublicKey, index: bigint): PublicKey {
  return findAddress([encoder.encode("vault"), protocol.toBytes(), u64LittleEndian(index)]);
}

export function findVaultAuthority(vault: PublicKey): PublicKey {
  return findAddress([encoder.encode("authority"), vault.toBytes()]);
}

export function findShareMint(vault: PublicKey): PublicKey {
  return findAddress([encoder.encode("shares"), vault.toBytes()]);
}

export function findReserve(vault: PublicKey): PublicKey {
  return findAddress([encoder.encode("reserve"), vault.toBytes()]);
}

export function findEscrow(vault: PublicKey): PublicKey {
  return findAddress([encoder.encode("escrow"), vault.toBytes()]);
}

/**
 * The holes cancelled requests left inside the vault's withdrawal queue (created by the first
 * cancel that leaves one); stage_withdrawals and cancel_withdrawal take it.
 */
export function findQueueHoles(vault: PublicKey): PublicKey {
  return findAddress([encoder.encode("queue_holes"), vault.toBytes()]);
}

/** A program-derived address and its bump seed (which sets what a search for it on chain costs). */
export interface ProgramAddress {
  address: PublicKey;
  bump: number;
}

const queueHoles = boundedMemo((vault): ProgramAddress => {
  const [address, bump] = PublicKey.findProgramAddressSync(
    [encoder.encode("queue_holes"), new PublicKey(vault).toBytes()],
    VAULT_PROGRAM_ID,
  );
  return { address, bump };
});

/**
 * The vault's queue-hole list and its bump: cancel_withdrawal searches for this bump on chain while
 * the list does not exist yet, so its compute units depend on it.
 */
export function findQueueHolesAndBump(vault: PublicKey): ProgramAddress {
  return queueHoles(base58Of(vault));
}

const receipts = boundedMemo((key): ProgramAddress => {
  const [vault = "", owner = ""] = key.split(":");
  const [address, bump] = PublicKey.findProgramAddressSync(
    [encoder.encode("receipt"), new PublicKey(vault).toBytes(), new PublicKey(owner).toBytes()],
    VAULT_PROGRAM_ID,
  );
  return { address, bump };
});

/**
 * The owner's withdrawal receipt in a vault and its bump, derived once per pair: request_withdrawal
 * searches for this bump on chain (find_program_address), so its compute units depend on it.
 */
export function findReceiptAndBump(vault: PublicKey, owner: PublicKey): ProgramAddress {
  return receipts(`${base58Of(vault)}:${base58Of(owner)}`);
}

export function findReceipt(vault: PublicKey, owner: PublicKey): PublicKey {
  return findReceiptAndBump(vault, owner).address;
}

export interface VaultAddresses {
  vault: PublicKey;
  authority: PublicKey;
  shareMint: PublicKey;
  reserve: PublicKey;
  escrow: PublicKey;
}

/** Every address a vault owns, derived from its protocol and its index there. */
export function deriveVaultAddresses(protocol: PublicKey, index: bigint): VaultAddresses {
  const vault = findVaultAddress(protocol, index);
  return {
    vault,
    authority: findVaultAuthority(vault),
    shareMint: findShareMint(vault),
    reserve: findReserve(vault),
    escrow: findEscrow(vault),
  };
}
