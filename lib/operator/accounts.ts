// The vault program's accounts as the operator commands read them: present, the program's, decoded,
// and whether the keypair is the protocol's admin.
import type { PublicKey } from "@solana/web3.js";

import {
  decodeProtocolState,
  decodeVaultState,
  type ProtocolState,
  type VaultState,
} from "../vault/program/accounts";
import { VAULT_PROGRAM_ID } from "../vault/program/idl";
import { OperatorError } from "./errors";
import type { CommandContext } from "./plan";

/** One kind of the program's accounts and the words that say why an address is not one. */
interface AccountKind<T> {
  name: string;
  decode(data: Uint8Array): T;
  /** After "no <name> at <address> on <cluster>": how to make one, if a command can. */
  missingHint: string;
  /** "<address> is not <notOwned> of program <id>". */
  notOwned: string;
}

const PROTOCOL: AccountKind<ProtocolState> = {
  name: "protocol",
  decode: decodeProtocolState,
  missingHint: ": create it with npm run protocol -- init",
  notOwned: "an account",
};

const VAULT: AccountKind<VaultState> = {
  name: "vault",
  decode: decodeVaultState,
  missingHint: "",
  notOwned: "a vault",
};

async function readProgramAccount<T>(
  context: Pick<CommandContext, "client" | "cluster">,
  address: PublicKey,
  kind: AccountKind<T>,
): Promise<T> {
  const account = await context.client.getAccount(address);
  if (account === null) {
    throw new OperatorError(
      `no ${kind.name} at ${address.toBase58()} on ${context.cluster.name}${kind.missingHint}`,
    );
  }
  if (!account.owner.equals(VAULT_PROGRAM_ID)) {
    throw new OperatorError(
      `${address.toBase58()} is not ${kind.notOwned} of program ${VAULT_PROGRAM_ID.toBase58()}`,
    );
  }
  try {
    return kind.decode(account.data);
  } catch {
    throw new OperatorError(`${address.toBase58()} is an account of the program but not a ${kind.name}`);
  }
}

export function readProtocolAccount(
  context: Pick<CommandContext, "client" | "cluster">,
  address: PublicKey,
): Promise<ProtocolState> {
  return readProgramAccount(context, address, PROTOCOL);
}

export function readVaultAccount(
  context: Pick<CommandContext, "client" | "cluster">,
  address: PublicKey,
): Promise<VaultState> {
  return readProgramAccount(context, address, VAULT);
}

export function requireAdmin(context: CommandContext, address: PublicKey, protocol: ProtocolState): void {
  if (!protocol.admin.equals(context.signer.publicKey)) {
    throw new OperatorError(
      `--keypair is ${context.signer.publicKey.toBase58()}, not the admin of protocol ${address.toBase58()} (${protocol.admin.toBase58()})`,
    );
  }
}
