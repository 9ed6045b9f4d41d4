// Zod schemas for the values the Borsh coder hands back, converting them to the domain's types at
// the decoding boundary: integers of 64 bits become bigint, fixed name buffers become strings.
import { PublicKey } from "@solana/web3.js";
import BN from "bn.js";
import { z } from "zod";

export const u64Value = z.instanceof(BN).transform((value) => BigInt(value.toString()));

export const i64Value = u64Value;

export const smallIntegerValue = z.number().int();

export const publicKeyValue = z.instanceof(PublicKey);

const NAME_BYTES = 32;

/** A `[u8; 32]` name, zero-padded on chain. */
export const fixedNameValue = z
  .array(z.number().int().min(0).max(255))
  .length(NAME_BYTES)
  .transform((bytes) => {
    const end = bytes.indexOf(0);
    return new TextDecoder().decode(Uint8Array.from(end === -1 ? bytes : bytes.slice(0, end)));
  });
