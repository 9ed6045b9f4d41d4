// Program-derived addresses of a vault. Their seeds are not written here: they are read from the
// IDL's account declarations (programs/vault/idl.json, the same source Codama's ../generated/pdas
// come from), so an address cannot drift from the program. This module is the synchronous web3.js
// side of them: Kit's generated finders are async, and the builders derive addresses on the hot path.
import { PublicKey } from "@solana/web3.js";

import { base58Of } from "../../chain/base58";
import { boundedMemo } from "../../chain/bounded-memo";
import { VAULT_PROGRAM_ID, vaultIdl } from "./idl";

/** The program accounts the IDL derives, by the name its instructions give them. */
type PdaName =
  "protocol" | "vault" | "authority" | "share_mint" | "reserve" | "escrow" | "receipt" | "queue_holes";

type PdaSeed = { kind: "const"; value: number[] } | { kind: "account" | "arg"; path: string };

/** Each PDA's seeds, by account name; every instruction that declares one must declare the same. */
const PDA_SEEDS: ReadonlyMap<string, readonly PdaSeed[]> = (() => {
  const seeds = new Map<string, readonly PdaSeed[]>();
  for (const account of vaultIdl.instructions.flatMap((instruction) => instruction.accounts)) {
    if (account.pda === undefined) continue;
    const known = seeds.get(account.name);
    if (known !== undefined && JSON.stringify(known) !== JSON.stringify(account.pda.seeds)) {
      throw new Error(`The vault IDL derives ${account.name} from two different seed lists`);
    }
    seeds.set(account.name, account.pda.seeds);
  }
  return seeds;
})();

function u64LittleEndian(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return bytes;
}

/** The values a PDA's account and argument seeds name (`vault`, `owner`, `index`, …). */
type SeedValues = Readonly<Record<string, PublicKey | bigint>>;

function seedsOf(name: PdaName, values: SeedValues): Uint8Array[] {
  const seeds = PDA_SEEDS.get(name);
  if (seeds === undefined) {
    throw new Error(`The vault IDL derives no account named ${name}`);
  }
  return seeds.map((seed) => {
    if (seed.kind === "const") return Uint8Array.from(seed.value);
    const value = values[seed.path];
    if (value === undefined) {
      throw new Error(`The ${name} address needs its ${seed.path} seed`);
    }
    return typeof value === "bigint" ? u64LittleEndian(value) : value.toBytes();
  });
}

/** A program-derived address and its bump seed (which sets what a search for it on chain costs). */
export interface ProgramAddress {
  address: PublicKey;
  bump: number;
}

function derive(name: PdaName, values: SeedValues): ProgramAddress {
  const [address, bump] = PublicKey.findProgramAddressSync(seedsOf(name, values), VAULT_PROGRAM_ID);
  return { address, bump };
}

/** The protocol account its creator made (the creator is its first admin). */
export function findProtocolAddress(creator: PublicKey): PublicKey {
  return derive("protocol", { creator }).address;
}

/** The protocol's vault number `index` (its admin registers them in order). */
export function findVaultAddress(protocol: PublicKey, index: bigint): PublicKey {
  return derive("vault", { protocol, index }).address;
}

export function findVaultAuthority(vault: PublicKey): PublicKey {
  return derive("authority", { vault }).address;
}

export function findShareMint(vault: PublicKey): PublicKey {
  return derive("share_mint", { vault }).address;
}

export function findReserve(vault: PublicKey): PublicKey {
  return derive("reserve", { vault }).address;
}

export function findEscrow(vault: PublicKey): PublicKey {
  return derive("escrow", { vault }).address;
}

const queueHoles = boundedMemo((vault): ProgramAddress =>
  derive("queue_holes", { vault: new PublicKey(vault) }),
);

/**
 * The vault's queue-hole list and its bump: the holes cancelled requests left inside the withdrawal
 * queue (created by the first cancel that leaves one; stage_withdrawals and cancel_withdrawal take
 * it). cancel_withdrawal searches for this bump on chain while the list does not exist yet, so its
 * compute units depend on it.
 */
export function findQueueHolesAndBump(vault: PublicKey): ProgramAddress {
  return queueHoles(base58Of(vault));
}

export function findQueueHoles(vault: PublicKey): PublicKey {
  return findQueueHolesAndBump(vault).address;
}

const receipts = boundedMemo((key): ProgramAddress => {
  const [vault = "", owner = ""] = key.split(":");
  return derive("receipt", { vault: new PublicKey(vault), owner: new PublicKey(owner) });
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
