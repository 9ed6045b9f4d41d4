// How an administrative command changes the chain: it prints what it will change, simulates the
// transaction, and sends it only with --yes, printing the signature and an explorer link. The
// protocol and vault CLIs share it, with the flags and the context every such command starts from.
import type { Keypair, PublicKey, TransactionInstruction } from "@solana/web3.js";

import { observeRpcCall } from "../observability/metrics";
import { ChainClient, TransactionFailedError, programsOf } from "./chain-client";
import { requireFlag, resolveCluster, type Cluster, type OperatorEnv, type OptionsSpec } from "./cli";
import { readKeypairFile } from "./keypair-file";

/** The flags of every command that changes the chain. */
export const PLAN_FLAGS = {
  url: { type: "string" },
  keypair: { type: "string" },
  yes: { type: "boolean" },
} as const satisfies OptionsSpec;

export interface CommandContext {
  client: ChainClient;
  cluster: Cluster;
  /** The keypair named by --keypair: fee payer and the authority that signs. */
  signer: Keypair;
  /** --yes: send after simulating. */
  send: boolean;
  out: (line: string) => void;
}

/** A command that only reads: the chain client and cluster of --url (or RPC_URL, CLUSTER). */
export function readContext(
  url: string | undefined,
  env: OperatorEnv,
): Pick<CommandContext, "client" | "cluster"> {
  const cluster = resolveCluster(url, env);
  return { client: new ChainClient(cluster.rpcUrl, { observe: observeRpcCall }), cluster };
}

export async function commandContext(
  values: { url?: string; keypair?: string; yes?: boolean },
  out: (line: string) => void,
  env: OperatorEnv,
): Promise<CommandContext> {
  const reader = readContext(values.url, env);
  const signer = await readKeypairFile(requireFlag(values.keypair, "--keypair"));
  return { ...reader, signer, send: values.yes === true, out };
}

/** An account's description, then its explorer link. */
export function printAccount(
  context: Pick<CommandContext, "cluster"> & { out: (line: string) => void },
  address: PublicKey,
  lines: readonly string[],
): void {
  for (const line of lines) {
    context.out(line);
  }
  context.out(`  ${context.cluster.link({ address: address.toBase58() })}`);
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
