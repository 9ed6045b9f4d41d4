// npm run program:deploy -- --url <rpc> --keypair <payer.json> [--program-keypair <file>]
//   [--program-id <address>] [--upgrade-authority <file>] [--program <vault.so>] [--max-len <bytes>]
// Deploys (or upgrades) the vault program through the upgradeable loader and checks the bytes on chain.
// Without --program-keypair or --program-id, the program keypair is .data/deploy/vault-program-keypair.json,
// created on the first run (as `solana program deploy` keeps target/deploy/<name>-keypair.json).
import { readFile, access } from "node:fs/promises";
import { resolve } from "node:path";

import { Keypair, PublicKey } from "@solana/web3.js";

import { ChainClient } from "../lib/operator/chain-client";
import { parseCommandLine, UsageError } from "../lib/cli/args";
import { requireFlag, resolveCluster, runCommand } from "../lib/operator/cli";
import { deployProgram } from "../lib/operator/deploy";
import { OperatorError } from "../lib/operator/errors";
import { readKeypairFile, writeKeypairFile } from "../lib/operator/keypair-file";

const DEFAULT_PROGRAM = "programs/vault/vault.so";
const DEFAULT_PROGRAM_KEYPAIR = ".data/deploy/vault-program-keypair.json";

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

async function programIdentity(values: {
  "program-keypair"?: string;
  "program-id"?: string;
}): Promise<{ programId: PublicKey; programKeypair: Keypair | null }> {
  if (values["program-id"] !== undefined) {
    let programId: PublicKey;
    try {
      programId = new PublicKey(values["program-id"]);
    } catch {
      throw new OperatorError(`--program-id is not a base58 address: "${values["program-id"]}"`);
    }
    const programKeypair =
      values["program-keypair"] === undefined
        ? null
        : await readKeypairFile(values["program-keypair"], "program keypair");
    if (programKeypair !== null && !programKeypair.publicKey.equals(programId)) {
      throw new OperatorError(
        `--program-keypair is ${programKeypair.publicKey.toBase58()}, not --program-id ${programId.toBase58()}`,
      );
    }
    return { programId, programKeypair };
  }
  const path = values["program-keypair"] ?? DEFAULT_PROGRAM_KEYPAIR;
  if (values["program-keypair"] === undefined && !(await exists(path))) {
    const created = Keypair.generate();
    await writeKeypairFile(path, created);
    console.log(`program keypair: created ${resolve(path)} (${created.publicKey.toBase58()}); keep it`);
  }
  const programKeypair = await readKeypairFile(path, "program keypair");
  return { programId: programKeypair.publicKey, programKeypair };
}

const DEPLOY_USAGE = `Usage: npm run program:deploy -- --url <rpc> --keypair <payer.json> [--program-keypair <file>]
  [--program-id <address>] [--upgrade-authority <file>] [--program <vault.so>] [--max-len <bytes>] [--concurrency <n>]`;

async function main(): Promise<void> {
  const { values } = parseCommandLine(process.argv.slice(2), {
    url: { type: "string" },
    keypair: { type: "string" },
    "program-keypair": { type: "string" },
    "program-id": { type: "string" },
    "upgrade-authority": { type: "string" },
    program: { type: "string" },
    "max-len": { type: "string" },
    concurrency: { type: "string" },
  });
  const cluster = resolveCluster(values.url, process.env);
  const payer = await readKeypairFile(requireFlag(values.keypair, "--keypair"), "payer keypair");
  const authority =
    values["upgrade-authority"] === undefined
      ? payer
      : await readKeypairFile(values["upgrade-authority"], "upgrade authority keypair");
  const { programId, programKeypair } = await programIdentity(values);
  const programPath = values.program ?? DEFAULT_PROGRAM;
  let programBytes: Uint8Array;
  try {
    programBytes = new Uint8Array(await readFile(programPath));
  } catch {
    throw new OperatorError(`program binary ${programPath} cannot be read`);
  }
  const integerFlag = (name: string, text: string | undefined): number | undefined => {
    if (text === undefined) {
      return undefined;
    }
    if (!/^\d+$/.test(text) || Number(text) < 1) {
      throw new UsageError(`${name} must be a positive integer; got "${text}"`);
    }
    return Number(text);
  };
  const client = new ChainClient(cluster.rpcUrl);
  console.log(
    `program:deploy ${programPath} (${programBytes.length} bytes) to ${programId.toBase58()} on ${cluster.name} (${cluster.rpcUrl})`,
  );
  console.log(`  payer ${payer.publicKey.toBase58()}, upgrade authority ${authority.publicKey.toBase58()}`);
  const result = await deployProgram({
    client,
    payer,
    authority,
    programId,
    programKeypair,
    programBytes,
    maxDataLength: integerFlag("--max-len", values["max-len"]),
    concurrency: integerFlag("--concurrency", values.concurrency),
    log: (line) => console.log(`  ${line}`),
  });
  console.log(`Program Id: ${result.programId.toBase58()} (${result.action})`);
  console.log(`  program data ${result.programData.toBase58()}`);
  console.log(
    `  ${result.transactions} transactions (${result.writeTransactions} writes of ${result.chunks} chunks, ${result.chunksResumed} already in place) in ${result.seconds.toFixed(2)} s`,
  );
  console.log(
    `  verified: the ${programBytes.length} bytes on chain equal ${programPath}, sha256 ${result.sha256}`,
  );
  console.log(`  ${cluster.link({ address: result.programId.toBase58() })}`);
}

runCommand("program:deploy", DEPLOY_USAGE, main);
