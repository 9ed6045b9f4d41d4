// The two-step hand-over of an authority (the protocol's admin, a vault's manager): the holder
// proposes a successor, who takes over only by signing the acceptance.
import { PublicKey, type TransactionInstruction } from "@solana/web3.js";

import { OperatorError } from "./errors";
import { runPlan, type CommandContext } from "./plan";

export interface Authority {
  /** The command line that hands it over: "protocol" or "vault". */
  cli: string;
  role: "admin" | "manager";
  /** The account that records it. */
  address: PublicKey;
  holder: PublicKey;
  /** The proposed successor (the default address: none). */
  pending: PublicKey;
}

/** `set-<role>`: the change shown is the proposal; the holder stays until `accept-<role>`. */
export async function proposeSuccessor(
  context: CommandContext,
  authority: Authority,
  next: PublicKey,
  instruction: TransactionInstruction,
): Promise<void> {
  const { cli, role, address } = authority;
  await runPlan(
    context,
    `${cli} set-${role} ${address.toBase58()}`,
    [
      { field: `pending_${role}`, from: authority.pending.toBase58(), to: next.toBase58() },
      {
        field: role,
        from: authority.holder.toBase58(),
        to: `(unchanged until ${next.toBase58()} runs accept-${role})`,
      },
    ],
    [instruction],
  );
}

/** `accept-<role>`, signed by the proposed successor. */
export async function acceptSuccession(
  context: CommandContext,
  authority: Authority,
  instruction: TransactionInstruction,
): Promise<void> {
  const { cli, role, address, pending } = authority;
  const signer = context.signer.publicKey;
  if (pending.equals(PublicKey.default)) {
    throw new OperatorError(`no ${role} is proposed for ${address.toBase58()}: run set-${role} first`);
  }
  if (!pending.equals(signer)) {
    throw new OperatorError(
      `--keypair is ${signer.toBase58()}, not the proposed ${role} of ${address.toBase58()} (${pending.toBase58()})`,
    );
  }
  await runPlan(
    context,
    `${cli} accept-${role} ${address.toBase58()}`,
    [
      { field: role, from: authority.holder.toBase58(), to: signer.toBase58() },
      { field: `pending_${role}`, from: signer.toBase58(), to: PublicKey.default.toBase58() },
    ],
    [instruction],
  );
}
