// The program's custom errors (6000+), read from the IDL so codes and names cannot drift.
import { vaultIdl } from "./idl";

export interface VaultProgramError {
  code: number;
  name: string;
  message: string;
}

export const VAULT_ERRORS: readonly VaultProgramError[] = vaultIdl.errors.map(({ code, name, msg }) => ({
  code,
  name,
  message: msg,
}));

export function vaultErrorFromCode(code: number): VaultProgramError | undefined {
  return VAULT_ERRORS.find((error) => error.code === code);
}

/** The code of a named error; throws on a name the IDL does not define, so a typo fails loudly. */
export function vaultErrorCode(name: string): number {
  const error = VAULT_ERRORS.find((candidate) => candidate.name === name);
  if (error === undefined) {
    throw new Error(`The vault IDL has no error named ${name}`);
  }
  return error.code;
}
