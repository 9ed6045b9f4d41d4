// The protocol account as the operator commands read it: present, the program's, decoded, and whether
// the keypair is its admin.
import type { PublicKey } from "@solana/web3.js";

import { decodeProtocolState, type ProtocolState } from "../vault/program/accounts";
import { VAULT_PROGRAM_ID } from "../vault/program/idl";
import { OperatorError } from "./errors";
import type { CommandContext } from "./plan";

export async function readProtocolAccount(
  context: Pick<CommandContext, "client" | "cluster">,
  address: PublicKey,
): Promise<ProtocolState> {
  const account = await context.client.getAccount(address);
  if (account === null) {
    throw new OperatorError(
      `no protocol at ${address.toBase58()} on ${context.cluster.name}: create it with npm run protocol -- init`,
    );
  }
  if (!account.owner.equals(VAULT_PROGRAM_ID)) {
    throw new OperatorError(
      `${address.toBase58()} is not an account of program ${VAULT_PROGRAM_ID.toBase58()}`,
    );
  }
  try {
    return decodeProtocolState(account.data);
  } catch {
    throw new OperatorError(`${address.toBase58()} is an account of the program but not a protocol`);
  }
}

export function requireAdmin(context: CommandContext, address: PublicKey, protocol: ProtocolState): void {
  if (!protocol.admin.equals(context.signer.publicKey)) {
    throw new OperatorError(
      `--keypair is ${context.signer.publicKey.toBase58()}, not the admin of protocol ${address.toBase58()} (${protocol.admin.toBase58()})`,
    );
  }
}
