// Keypair files in the Solana CLI's format: a JSON array of the 64 secret-key bytes (seed, then
// public key). Reading one checks both halves agree, so a truncated or edited file is refused.
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";

import { Keypair } from "@solana/web3.js";

import { OperatorError } from "./errors";

export async function readKeypairFile(path: string, role = "keypair"): Promise<Keypair> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = error instanceof Error && "code" in error ? String(error.code) : "";
    throw new OperatorError(
      code === "ENOENT"
        ? `${role} file ${path} does not exist`
        : `${role} file ${path} cannot be read (${code})`,
    );
  }
  let bytes: unknown;
  try {
    bytes = JSON.parse(text);
  } catch {
    throw new OperatorError(`${role} file ${path} is not JSON (expected the Solana CLI's array of 64 bytes)`);
  }
  if (
    !Array.isArray(bytes) ||
    bytes.length !== 64 ||
    !bytes.every((byte) => Number.isInteger(byte) && byte >= 0 && byte <= 255)
  ) {
    throw new OperatorError(`${role} file ${path} is not a Solana CLI keypair (an array of 64 bytes)`);
  }
  const secretKey = Uint8Array.from(bytes as number[]);
  const keypair = Keypair.fromSeed(secretKey.subarray(0, 32));
  if (!Buffer.from(keypair.publicKey.toBytes()).equals(Buffer.from(secretKey.subarray(32)))) {
    throw new OperatorError(`${role} file ${path} is corrupt: its public key does not match its secret key`);
  }
  return keypair;
}

export async function writeKeypairFile(path: string, keypair: Keypair): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(Array.from(keypair.secretKey))}\n`, { mode: 0o600 });
}
