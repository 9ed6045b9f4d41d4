// Dev keypairs derived from fixed seeds, so every fresh localnet has the same mint, manager and vault
// addresses, and ed25519 signing through node:crypto (web3.js signs in JavaScript at ~7 ms a
// signature; the faucet, keeper and benchmark sign many transactions).
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from "node:crypto";

import { Keypair, type Transaction } from "@solana/web3.js";

const SEED_NAMESPACE = "vault-gateway";

/** The keypair of a dev role, e.g. `devKeypair("manager")`; the seed is public, so dev-only. */
export function devKeypair(role: string): Keypair {
  const seed = createHash("sha256").update(`${SEED_NAMESPACE}:${role}:v1`).digest();
  return Keypair.fromSeed(seed);
}

/** sha256 of a labelled dev seed, as 32 bytes; used for the genesis hash. */
export function devHash(label: string): Uint8Array {
  return createHash("sha256").update(`${SEED_NAMESPACE}:${label}:v1`).digest();
}

// RFC 8410 PKCS#8 wrapping of a raw 32-byte Ed25519 seed.
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const privateKeys = new WeakMap<Keypair, KeyObject>();

function privateKeyOf(keypair: Keypair): KeyObject {
  const cached = privateKeys.get(keypair);
  if (cached !== undefined) {
    return cached;
  }
  const seed = keypair.secretKey.subarray(0, 32);
  const key = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: "der",
    type: "pkcs8",
  });
  privateKeys.set(keypair, key);
  return key;
}

export function signBytes(keypair: Keypair, message: Uint8Array): Buffer {
  return sign(null, message, privateKeyOf(keypair));
}

/** Signs a legacy transaction (fee payer and blockhash already set) with each signer. */
export function signLegacyTransaction(transaction: Transaction, signers: readonly Keypair[]): Transaction {
  const message = transaction.serializeMessage();
  for (const signer of signers) {
    transaction.addSignature(signer.publicKey, signBytes(signer, message));
  }
  return transaction;
}

// RFC 8410 SPKI wrapping of a raw 32-byte Ed25519 public key.
const SPKI_ED25519_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

const publicKeys = new Map<string, KeyObject>();
const PUBLIC_KEY_CACHE_SIZE = 4096;

function publicKeyObject(publicKey: Uint8Array): KeyObject {
  const id = Buffer.from(publicKey).toString("base64");
  let key = publicKeys.get(id);
  if (key === undefined) {
    key = createPublicKey({
      key: Buffer.concat([SPKI_ED25519_PREFIX, publicKey]),
      format: "der",
      type: "spki",
    });
    if (publicKeys.size >= PUBLIC_KEY_CACHE_SIZE) {
      publicKeys.clear();
    }
    publicKeys.set(id, key);
  }
  return key;
}

export function verifySignature(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    return verify(null, message, publicKeyObject(publicKey), signature);
  } catch {
    return false;
  }
}
