// npm run bench:localnet: starts a localnet in a child process (as `npm run localnet` runs it, 400 ms
// slots, no keeper) and measures, with @solana/web3.js as the client over HTTP and WebSocket:
//   - send-and-confirm throughput: transfers sent with preflight and confirmed at `confirmed`
//     through confirmTransaction, `concurrency` in flight;
//   - sendTransaction throughput alone;
//   - getAccountInfo latency (median, p99) of sequential calls.
// Options: --transactions N (default 2000), --concurrency N (default 64), --reads N (default 2000).
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
} from "@solana/web3.js";
import { z } from "zod";

import { exitOnCommandLineError, integerFlag, parseCommandLine } from "../lib/cli/args";
import { signLegacyTransaction } from "./keys";
import { runPool } from "../lib/work-pool";
import { spawnLocalnet, waitForAddresses } from "./process";

const USAGE = "Usage: npm run bench:localnet -- [--transactions <n>] [--concurrency <1-1024>] [--reads <n>]";

export function parseOptions(argv: readonly string[]): {
  transactions: number;
  concurrency: number;
  reads: number;
} {
  const { values } = parseCommandLine(argv, {
    transactions: { type: "string" },
    concurrency: { type: "string" },
    reads: { type: "string" },
  });
  return {
    transactions: integerFlag("--transactions", values.transactions, { min: 1, max: 1_000_000 }, 2000),
    concurrency: integerFlag("--concurrency", values.concurrency, { min: 1, max: 1024 }, 64),
    reads: integerFlag("--reads", values.reads, { min: 1, max: 1_000_000 }, 2000),
  };
}

const addressesSchema = z.object({
  rpcUrl: z.string(),
  wsUrl: z.string(),
  asset: z.object({ mint: z.string() }),
});

async function startLocalnetProcess(): Promise<{
  rpcUrl: string;
  wsUrl: string;
  mint: string;
  stop: () => Promise<void>;
}> {
  const localnet = await spawnLocalnet(["--no-keeper"], { tempPrefix: "localnet-bench-", stdout: "ignore" });
  const addresses = await waitForAddresses(localnet, addressesSchema, 60_000, 100);
  if (addresses === null) {
    throw new Error("The localnet did not start");
  }
  return {
    rpcUrl: addresses.rpcUrl,
    wsUrl: addresses.wsUrl,
    mint: addresses.asset.mint,
    stop: localnet.stop,
  };
}

function percentile(sorted: readonly number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

function summary(latencies: number[]): { median: number; p99: number; mean: number } {
  const sorted = [...latencies].sort((left, right) => left - right);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length);
  return { median: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), mean };
}

async function fund(connection: Connection, wallets: readonly PublicKey[], lamports: number): Promise<void> {
  const latest = await connection.getLatestBlockhash();
  await Promise.all(
    wallets.map(async (wallet) => {
      const signature = await connection.requestAirdrop(wallet, lamports);
      await connection.confirmTransaction({ signature, ...latest });
    }),
  );
}

/** Transfers of distinct amounts, so every signature is new; signed before the clock starts. */
async function signedTransfers(
  connection: Connection,
  payers: readonly Keypair[],
  recipients: readonly PublicKey[],
  count: number,
) {
  const latest = await connection.getLatestBlockhash();
  return Array.from({ length: count }, (_, index) => {
    const payer = payers[index % payers.length] ?? Keypair.generate();
    const transaction = new Transaction({ feePayer: payer.publicKey, recentBlockhash: latest.blockhash }).add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: recipients[index % recipients.length] ?? payer.publicKey,
        lamports: 1 + index,
      }),
    );
    return { wire: signLegacyTransaction(transaction, [payer]).serialize(), latest };
  });
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const localnet = await startLocalnetProcess();
  const connection = new Connection(localnet.rpcUrl, { commitment: "confirmed", wsEndpoint: localnet.wsUrl });
  try {
    const payers = Array.from({ length: 16 }, () => Keypair.generate());
    const recipients = Array.from({ length: 16 }, () => Keypair.generate().publicKey);
    await fund(
      connection,
      [...payers.map((payer) => payer.publicKey), ...recipients],
      100 * LAMPORTS_PER_SOL,
    );

    // Send and confirm.
    const confirmBatch = await signedTransfers(connection, payers, recipients, options.transactions);
    const confirmLatencies: number[] = [];
    let started = performance.now();
    await runPool(confirmBatch, options.concurrency, async ({ wire, latest }) => {
      const sent = performance.now();
      const signature = await connection.sendRawTransaction(wire);
      const { value } = await connection.confirmTransaction({ signature, ...latest }, "confirmed");
      if (value.err !== null) {
        throw new Error(`A benchmark transfer failed: ${JSON.stringify(value.err)}`);
      }
      confirmLatencies.push(performance.now() - sent);
    });
    const confirmSeconds = (performance.now() - started) / 1000;

    // Send only (preflight simulation included).
    const sendBatch = await signedTransfers(connection, payers, recipients, options.transactions);
    started = performance.now();
    await runPool(sendBatch, options.concurrency, async ({ wire }) => {
      await connection.sendRawTransaction(wire);
    });
    const sendSeconds = (performance.now() - started) / 1000;

    // getAccountInfo, one at a time.
    const mint = new PublicKey(localnet.mint);
    for (let warmup = 0; warmup < 100; warmup += 1) {
      await connection.getAccountInfo(mint);
    }
    const readLatencies: number[] = [];
    for (let read = 0; read < options.reads; read += 1) {
      const start = performance.now();
      await connection.getAccountInfo(mint);
      readLatencies.push(performance.now() - start);
    }

    const confirm = summary(confirmLatencies);
    const reads = summary(readLatencies);
    const format = (ms: number): string => `${ms.toFixed(2)} ms`;
    console.log(
      `localnet benchmark (${options.transactions} transfers, ${options.concurrency} in flight, 400 ms slots)`,
    );
    console.log(
      `  send-and-confirm (confirmed, web3.js confirmTransaction over WebSocket): ${(options.transactions / confirmSeconds).toFixed(0)} tx/s; latency median ${format(confirm.median)}, p99 ${format(confirm.p99)}`,
    );
    console.log(
      `  sendTransaction alone (with preflight): ${(options.transactions / sendSeconds).toFixed(0)} tx/s`,
    );
    console.log(
      `  getAccountInfo (${options.reads} sequential calls): median ${format(reads.median)}, p99 ${format(reads.p99)}, mean ${format(reads.mean)}`,
    );
  } finally {
    await localnet.stop();
  }
  process.exit(0);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    exitOnCommandLineError("bench:localnet", USAGE, error);
    console.error(error);
    process.exit(1);
  });
}
