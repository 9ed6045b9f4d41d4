// program:deploy through the upgradeable loader: a buffer holding the program's bytes, written in
// chunks by parallel transactions, then DeployWithMaxDataLen (first deploy) or Upgrade, and a check
// that the program data account holds exactly those bytes.
//
// Resuming: the buffer's keypair is derived from the payer's secret key, the authority, the program id
// and the binary's hash, so a deploy run again after an interruption finds its own buffer, reads what
// it holds and writes only the chunks that differ; nothing is paid twice.
import { createHash } from "node:crypto";

import { Keypair, PublicKey } from "@solana/web3.js";

import {
  BUFFER_HEADER_SIZE,
  LOADER_V3_PROGRAM_ID,
  PROGRAM_ACCOUNT_SIZE,
  buildCreateBufferInstructions,
  buildDeployInstructions,
  buildExtendProgramInstruction,
  buildUpgradeInstruction,
  buildWriteInstruction,
  decodeLoaderV3State,
  findProgramDataAddress,
} from "../chain/loader-v3";
import { ChainClient, TransactionFailedError, type SignedTransaction } from "./chain-client";
import { OperatorError } from "./errors";
import { runPool } from "../work-pool";

/** Largest serialized transaction (PACKET_DATA_SIZE). */
const PACKET_DATA_SIZE = 1232;
const MAX_WRITE_ROUNDS = 8;
const MINIMUM_EXTEND_BYTES = 10_240;

export interface DeployOptions {
  client: ChainClient;
  payer: Keypair;
  /** Upgrade authority; signs the writes, the deploy and upgrades. */
  authority: Keypair;
  programId: PublicKey;
  /** Needed only for the first deploy, which creates the program account. */
  programKeypair: Keypair | null;
  programBytes: Uint8Array;
  /** Program room to reserve at the first deploy (default: the binary's length). */
  maxDataLength?: number;
  /** Write transactions in flight at once. */
  concurrency?: number;
  log?: (line: string) => void;
  /** Stops after this many write transactions have been sent (tests interrupt a deploy with it). */
  stopAfterWrites?: number;
}

export interface DeployResult {
  programId: PublicKey;
  programData: PublicKey;
  action: "deployed" | "upgraded" | "unchanged";
  buffer: PublicKey;
  /** Transactions sent by this run (buffer creation, writes with retries, extend, deploy or upgrade). */
  transactions: number;
  writeTransactions: number;
  /** Chunks found already written in a buffer left by an earlier run. */
  chunksResumed: number;
  chunks: number;
  seconds: number;
  sha256: string;
}

export class DeployInterrupted extends Error {}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export function deriveBufferKeypair(
  payer: Keypair,
  authority: PublicKey,
  programId: PublicKey,
  programBytes: Uint8Array,
): Keypair {
  const seed = createHash("sha256")
    .update("vault-gateway:deploy-buffer:v1")
    .update(payer.secretKey)
    .update(authority.toBytes())
    .update(programId.toBytes())
    .update(createHash("sha256").update(programBytes).digest())
    .digest();
  return Keypair.fromSeed(seed);
}

/** Program bytes one Write transaction carries, from the size of an empty one. */
export function writeChunkSize(
  client: ChainClient,
  payer: Keypair,
  authority: Keypair,
  buffer: PublicKey,
): number {
  const empty = client.sign(
    [buildWriteInstruction(buffer, authority.publicKey, 0, new Uint8Array(0))],
    payer,
    [authority],
    PublicKey.default.toBase58(),
  );
  // The instruction's data length is a compact-u16: one byte for the empty write, two for a chunk.
  return PACKET_DATA_SIZE - empty.wire.length - 1;
}

/** Whether `onChain` holds `expected` followed only by zeros (room reserved for larger builds). */
export function holdsExactly(onChain: Uint8Array, expected: Uint8Array): boolean {
  if (onChain.length < expected.length) {
    return false;
  }
  if (!Buffer.from(onChain.subarray(0, expected.length)).equals(Buffer.from(expected))) {
    return false;
  }
  return onChain.subarray(expected.length).every((byte) => byte === 0);
}

interface ProgramState {
  programData: PublicKey;
  /** Slot of the last deploy or upgrade: the loader refuses another in the same slot. */
  slot: bigint;
  authority: PublicKey | null;
  bytes: Uint8Array;
}

async function readProgram(client: ChainClient, programId: PublicKey): Promise<ProgramState | null> {
  const account = await client.getAccount(programId);
  if (account === null) {
    return null;
  }
  const state = account.owner.equals(LOADER_V3_PROGRAM_ID) ? decodeLoaderV3State(account.data) : null;
  if (state?.kind !== "program") {
    throw new OperatorError(
      `${programId.toBase58()} exists and is not an upgradeable program (owner ${account.owner.toBase58()})`,
    );
  }
  const dataAccount = await client.getAccount(state.programData);
  const data = dataAccount === null ? null : decodeLoaderV3State(dataAccount.data);
  if (data?.kind !== "programData") {
    throw new OperatorError(`program ${programId.toBase58()} has no program data account`);
  }
  return { programData: state.programData, slot: data.slot, authority: data.authority, bytes: data.bytes };
}

/** Fills the buffer: each round reads it, writes the chunks that differ, and confirms them. */
async function writeBuffer(
  options: DeployOptions,
  buffer: PublicKey,
  counters: { writes: number; resumed: number; chunks: number },
): Promise<void> {
  const { client, payer, authority, programBytes, log = () => undefined } = options;
  const chunkSize = writeChunkSize(client, payer, authority, buffer);
  const offsets: number[] = [];
  for (let offset = 0; offset < programBytes.length; offset += chunkSize) {
    offsets.push(offset);
  }
  counters.chunks = offsets.length;
  for (let round = 1; ; round += 1) {
    const account = await client.getAccount(buffer);
    const state = account === null ? null : decodeLoaderV3State(account.data);
    if (state?.kind !== "buffer") {
      throw new OperatorError(`buffer ${buffer.toBase58()} disappeared while writing`);
    }
    const missing = offsets.filter((offset) => {
      const end = Math.min(offset + chunkSize, programBytes.length);
      return !Buffer.from(state.bytes.subarray(offset, end)).equals(
        Buffer.from(programBytes.subarray(offset, end)),
      );
    });
    if (round === 1) {
      counters.resumed = offsets.length - missing.length;
      if (counters.resumed > 0) {
        log(
          `buffer ${buffer.toBase58()}: ${counters.resumed} of ${offsets.length} chunks already in place, writing the rest`,
        );
      }
    }
    if (missing.length === 0) {
      return;
    }
    if (round > MAX_WRITE_ROUNDS) {
      throw new OperatorError(`${missing.length} chunks still not written after ${MAX_WRITE_ROUNDS} rounds`);
    }
    log(`writing ${missing.length} chunks of ${chunkSize} bytes (round ${round})`);
    const { blockhash, lastValidBlockHeight } = await client.latestBlockhash();
    const sent: SignedTransaction[] = [];
    await runPool(missing, options.concurrency ?? 16, async (offset) => {
      if (options.stopAfterWrites !== undefined && counters.writes >= options.stopAfterWrites) {
        return;
      }
      const bytes = programBytes.subarray(offset, Math.min(offset + chunkSize, programBytes.length));
      const transaction = client.sign(
        [buildWriteInstruction(buffer, authority.publicKey, offset, bytes)],
        payer,
        [authority],
        blockhash,
      );
      counters.writes += 1;
      await client.send(`write at ${offset}`, transaction);
      sent.push(transaction);
    });
    const outcomes = await client.confirmAll(
      sent.map((transaction) => transaction.signature),
      lastValidBlockHeight,
    );
    for (const [signature, outcome] of outcomes) {
      if (outcome.status === "confirmed" && outcome.err !== null) {
        throw new TransactionFailedError(`write ${signature}`, outcome.err, []);
      }
    }
    if (options.stopAfterWrites !== undefined && counters.writes >= options.stopAfterWrites) {
      throw new DeployInterrupted(`stopped after ${counters.writes} writes`);
    }
  }
}

async function ensureBuffer(options: DeployOptions, buffer: Keypair): Promise<number> {
  const { client, payer, authority, programBytes } = options;
  const account = await client.getAccount(buffer.publicKey);
  if (account === null) {
    const size = BUFFER_HEADER_SIZE + programBytes.length;
    await client.sendAndConfirm(
      "create the buffer",
      buildCreateBufferInstructions(
        payer.publicKey,
        buffer.publicKey,
        authority.publicKey,
        programBytes.length,
        await client.rentExempt(size),
      ),
      payer,
      [buffer],
    );
    return 1;
  }
  const state = account.owner.equals(LOADER_V3_PROGRAM_ID) ? decodeLoaderV3State(account.data) : null;
  if (state?.kind !== "buffer" || state.bytes.length !== programBytes.length) {
    throw new OperatorError(`buffer ${buffer.publicKey.toBase58()} exists but is not this deploy's buffer`);
  }
  if (state.authority === null || !state.authority.equals(authority.publicKey)) {
    throw new OperatorError(`buffer ${buffer.publicKey.toBase58()} has another authority`);
  }
  return 0;
}

export async function deployProgram(options: DeployOptions): Promise<DeployResult> {
  const started = performance.now();
  const { client, payer, authority, programId, programBytes, log = () => undefined } = options;
  const sentBefore = client.sent;
  const programData = findProgramDataAddress(programId);
  const existing = await readProgram(client, programId);
  const base = {
    programId,
    programData,
    sha256: sha256Hex(programBytes),
  };
  const buffer = deriveBufferKeypair(payer, authority.publicKey, programId, programBytes);
  if (existing !== null) {
    if (existing.authority === null) {
      throw new OperatorError(`program ${programId.toBase58()} is final (no upgrade authority)`);
    }
    if (!existing.authority.equals(authority.publicKey)) {
      throw new OperatorError(
        `program ${programId.toBase58()}'s upgrade authority is ${existing.authority.toBase58()}, not ${authority.publicKey.toBase58()}`,
      );
    }
    if (holdsExactly(existing.bytes, programBytes)) {
      log(`program ${programId.toBase58()} already holds this build`);
      return {
        ...base,
        action: "unchanged",
        buffer: buffer.publicKey,
        transactions: 0,
        writeTransactions: 0,
        chunksResumed: 0,
        chunks: 0,
        seconds: (performance.now() - started) / 1000,
      };
    }
  } else if (options.programKeypair === null || !options.programKeypair.publicKey.equals(programId)) {
    throw new OperatorError(
      `program ${programId.toBase58()} does not exist; the first deploy needs its keypair (--program-keypair)`,
    );
  }

  const counters = { writes: 0, resumed: 0, chunks: 0 };
  await ensureBuffer(options, buffer);
  await writeBuffer(options, buffer.publicKey, counters);

  if (existing === null) {
    const maxDataLength = Math.max(options.maxDataLength ?? programBytes.length, programBytes.length);
    log(`deploying ${programId.toBase58()} (room for ${maxDataLength} bytes)`);
    await client.sendAndConfirm(
      "deploy",
      buildDeployInstructions(
        {
          payer: payer.publicKey,
          program: programId,
          buffer: buffer.publicKey,
          authority: authority.publicKey,
        },
        await client.rentExempt(PROGRAM_ACCOUNT_SIZE),
        maxDataLength,
      ),
      payer,
      [options.programKeypair ?? authority, authority],
    );
  } else {
    await client.waitForSlotAfter(existing.slot);
    if (existing.bytes.length < programBytes.length) {
      // The loader extends by at least 10 KiB per call (MINIMUM_EXTEND_PROGRAM_BYTES).
      const additional = Math.max(programBytes.length - existing.bytes.length, MINIMUM_EXTEND_BYTES);
      log(`extending the program data by ${additional} bytes`);
      await client.sendAndConfirm(
        "extend the program",
        [buildExtendProgramInstruction(programId, payer.publicKey, additional)],
        payer,
      );
    }
    log(`upgrading ${programId.toBase58()}`);
    await client.sendAndConfirm(
      "upgrade",
      [
        buildUpgradeInstruction({
          program: programId,
          buffer: buffer.publicKey,
          spill: payer.publicKey,
          authority: authority.publicKey,
        }),
      ],
      payer,
      [authority],
    );
  }
  await verifyDeployedBytes(client, programId, programBytes);
  return {
    ...base,
    action: existing === null ? "deployed" : "upgraded",
    buffer: buffer.publicKey,
    transactions: client.sent - sentBefore,
    writeTransactions: counters.writes,
    chunksResumed: counters.resumed,
    chunks: counters.chunks,
    seconds: (performance.now() - started) / 1000,
  };
}

/** As `solana program dump` and a compare: the program data after its header is the binary. */
export async function verifyDeployedBytes(
  client: ChainClient,
  programId: PublicKey,
  programBytes: Uint8Array,
): Promise<{ sha256: string; length: number }> {
  const state = await readProgram(client, programId);
  if (state === null) {
    throw new OperatorError(`program ${programId.toBase58()} is not on chain`);
  }
  const onChain = state.bytes.subarray(0, programBytes.length);
  if (!holdsExactly(state.bytes, programBytes)) {
    throw new OperatorError(
      `the bytes at ${state.programData.toBase58()} differ from the binary (on chain sha256 ${sha256Hex(onChain)}, file ${sha256Hex(programBytes)})`,
    );
  }
  return { sha256: sha256Hex(onChain), length: programBytes.length };
}
