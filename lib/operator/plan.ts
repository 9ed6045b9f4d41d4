// How an administrative command changes the chain: it prints what it will change, simulates the
// transaction, and sends it only with --yes, printing the signature and an explorer link.
import type { Keypair, TransactionInstruction } from "@solana/web3.js";

import type { ChainClient } from "./chain-client";
import { TransactionFailedError, programsOf } from "./chain-client";
import type { Cluster } from "./cli";

export interface CommandContext {
  client: ChainClient;
  cluster: Cluster;
  /** The keypair named by --keypair: fee payer and the authority that signs. */
  signer: Keypair;
  /** --yes: send after simulating. */
  send: boolean;
  out: (line: string) => void;
}

export interface Change {
  field: string;
  from: string;
  to: string;
}

export interface PlanResult {
  simulated: true;
  signature: string | null;
}

export async function runPlan(
  context: CommandContext,
  label: string,
  changes: readonly Change[],
  instructions: readonly TransactionInstruction[],
  extraSigners: readonly Keypair[] = [],
): Promise<PlanResult> {
  const { client, cluster, signer, send, out } = context;
  out(`${label} on ${cluster.name} (${cluster.rpcUrl}), signed by ${signer.publicKey.toBase58()}:`);
  for (const change of changes) {
    out(`  ${change.field}: ${change.from} -> ${change.to}`);
  }
  const simulation = await client.simulate(instructions, signer.publicKey);
  if (simulation.err !== null) {
    throw new TransactionFailedError(
      `${label} (simulated)`,
      simulation.err,
      simulation.logs,
      programsOf(instructions),
    );
  }
  out(`  simulated: ok (${simulation.unitsConsumed} compute units)`);
  if (!send) {
    out("  not sent: pass --yes to send it");
    return { simulated: true, signature: null };
  }
  const signature = await client.sendAndConfirm(label, instructions, signer, extraSigners);
  out(`  sent: ${signature}`);
  out(`  ${cluster.link({ signature })}`);
  return { simulated: true, signature };
}
