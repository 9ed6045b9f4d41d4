// What the API's settings (lib/config.ts) and the pages' (lib/web/server-config.ts) both read from the
// environment: the variables that are set, integer and URL values, and the localnet's addresses file.
import { readFileSync } from "node:fs";

import { z } from "zod";

export type Env = Readonly<Record<string, string | undefined>>;

export const DEFAULT_ADDRESSES_FILE = "localnet/.state/addresses.json";

/** The variables that are set; empty strings count as unset, as a shell's `VAR=` usually means. */
export function presentValues(env: Env): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== "",
    ),
  );
}

export const envInteger = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be an integer from ${min} to ${max}`)
    .transform(Number)
    .refine((value) => value >= min && value <= max, `must be an integer from ${min} to ${max}`);

export const envUrl = (protocols: readonly string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL (${protocols.join(" or ")})`,
  );

const addressesFileSchema = z.object({
  rpcUrl: z.string().optional(),
  wsUrl: z.string().optional(),
  faucetUrl: z.string().optional(),
  programId: z.string().optional(),
  protocolId: z.string().nullable().optional(),
  asset: z.object({ mint: z.string(), symbol: z.string(), decimals: z.number() }).optional(),
  defaultVaultId: z.string().nullable().optional(),
});

export type AddressesFile = z.infer<typeof addressesFileSchema>;

/** The localnet's addresses file: null when there is none to read, "invalid" when it is not one. */
export function readAddressesFile(path: string): AddressesFile | null | "invalid" {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return "invalid";
  }
  const parsed = addressesFileSchema.safeParse(json);
  return parsed.success ? parsed.data : "invalid";
}
