// JSON with 64-bit integers: Solana RPC writes u64 values (lamports, rentEpoch, amounts in meta) as bare
// JSON numbers, which JSON.stringify cannot do for values above 2^53. Values held as bigint are written
// as bare digits here, exactly.
import { randomBytes } from "node:crypto";

const marker = `__u64_${randomBytes(6).toString("hex")}_`;
const markedBigint = new RegExp(`"${marker}(-?\\d+)"`, "g");

export function stringifyJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, field: unknown) =>
    typeof field === "bigint" ? `${marker}${field.toString()}` : field,
  );
  return text.replace(markedBigint, "$1");
}
