// What the generated decoders (../generated) hand back, in the domain's types at the decoding
// boundary: an Address becomes web3.js's PublicKey, a `name` (the program's zero-padded `[u8; 32]`)
// a string; 64-bit integers already are bigint and smaller ones number, field names camelCase.
import type { Address, ReadonlyUint8Array } from "@solana/kit";
import type { PublicKey } from "@solana/web3.js";

import { publicKeyOfAddress } from "./instructions";

/** The bytes an account starts with to say its type, and the padding kept for later fields. */
type LayoutField = "discriminator" | "reserved";

type NameBytes = ReadonlyUint8Array | readonly number[];

/**
 * A generated type as the domain reads it. A string that is not an address, or a `name` that is not
 * bytes, maps to never: the IDL gained a field whose conversion is not written here yet.
 */
export type DomainFields<T> = {
  [K in Exclude<keyof T, LayoutField>]: K extends "name"
    ? T[K] extends NameBytes
      ? string
      : never
    : T[K] extends Address
      ? PublicKey
      : T[K] extends string
        ? never
        : T[K];
};

/** A zero-padded name: the bytes before the first zero, as UTF-8. */
export function fixedNameText(bytes: NameBytes): string {
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(Uint8Array.from(end === -1 ? bytes : bytes.slice(0, end)));
}

function isNameBytes(value: unknown): value is NameBytes {
  return value instanceof Uint8Array || Array.isArray(value);
}

/** The decoded struct's fields in the domain's types, in the IDL's order, layout fields left out. */
export function domainFields<T extends object>(decoded: T): DomainFields<T> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(decoded)) {
    if (key === "discriminator" || key === "reserved") {
      continue;
    }
    if (key === "name" && isNameBytes(value)) {
      fields[key] = fixedNameText(value);
    } else if (typeof value === "string") {
      // The generated decoders return strings only for addresses (the IDL has no string fields).
      fields[key] = publicKeyOfAddress(value as Address);
    } else {
      fields[key] = value;
    }
  }
  return fields as DomainFields<T>;
}
