// Program-derived addresses of a vault, with the seeds from programs/vault/README.md.
import { PublicKey } from "@solana/web3.js";

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

export function findReceipt(vault: PublicKey, owner: PublicKey): PublicKey {
  return findAddress([encoder.encode("receipt"), vault.toBytes(), owner.toBytes()]);
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
