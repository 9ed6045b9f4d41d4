// program:deploy against `localnet --empty` over JSON-RPC: an interrupted deploy resumed without a
// second buffer, the bytes on chain checked, the program executing, an upgrade to a larger build (the
// program data extended), and the refusals (no program keypair, another upgrade authority).
import { readFile } from "node:fs/promises";

import { Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, TransactionInstruction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { LOADER_V3_PROGRAM_ID, decodeLoaderV3State, findProgramDataAddress } from "../chain/loader-v3";
import { TOKEN_PROGRAM_ID } from "../chain/spl-token";
import { VAULT_PROGRAM_ID } from "../vault/program/idl";
import type { LocalnetHandle } from "../../localnet/localnet";
import { PROGRAM_BINARY, startTestLocalnet } from "../../localnet/testing";
import { ChainClient } from "./chain-client";
import {
  DeployInterrupted,
  deployProgram,
  deriveBufferKeypair,
  holdsExactly,
  sha256Hex,
  verifyDeployedBytes,
} from "./deploy";
import { OperatorError } from "./errors";
import { readKeypairFile } from "./keypair-file";

let localnet: LocalnetHandle;
let client: ChainClient;
let payer: Keypair;
let programBytes: Uint8Array;

beforeAll(async () => {
  localnet = await startTestLocalnet({ empty: true });
  client = new ChainClient(localnet.rpcUrl);
  const empty = localnet.empty;
  if (empty === null) {
    throw new Error("the localnet did not start empty");
  }
  payer = await readKeypairFile(empty.payerKeypairFile);
  programBytes = new Uint8Array(await readFile(PROGRAM_BINARY));
});

afterAll(async () => {
  await localnet.stop();
});

describe("localnet --empty", () => {
  it("holds the builtins and a funded payer, and no program, mint or vault", async () => {
    expect(await client.getAccount(VAULT_PROGRAM_ID)).toBeNull();
    const token = await client.getAccount(TOKEN_PROGRAM_ID);
    expect(token?.executable).toBe(true);
    expect(await client.getAccount(LOADER_V3_PROGRAM_ID)).not.toBeNull();
    expect(await client.getBalance(payer.publicKey)).toBe(10_000n * BigInt(LAMPORTS_PER_SOL));
    expect(localnet.addressesDocument).toMatchObject({ empty: true, vaults: [], defaultVaultId: null });
  });
});

describe("deployProgram", () => {
  it("refuses a first deploy without the program's keypair", async () => {
    await expect(
      deployProgram({
        client,
        payer,
        authority: payer,
        programId: Keypair.generate().publicKey,
        programKeypair: null,
        programBytes,
      }),
    ).rejects.toThrow(OperatorError);
  });

  it("resumes an interrupted deploy from its buffer, then verifies and runs the program", async () => {
    const program = Keypair.generate();
    const options = {
      client,
      payer,
      authority: payer,
      programId: program.publicKey,
      programKeypair: program,
      programBytes,
    };
    await expect(deployProgram({ ...options, stopAfterWrites: 10, concurrency: 4 })).rejects.toThrow(
      DeployInterrupted,
    );
    const buffer = deriveBufferKeypair(payer, payer.publicKey, program.publicKey, programBytes).publicKey;
    const bufferAccount = await client.getAccount(buffer);
    expect(bufferAccount?.owner.equals(LOADER_V3_PROGRAM_ID)).toBe(true);
    const balanceBefore = await client.getBalance(payer.publicKey);

    const result = await deployProgram(options);
    expect(result.action).toBe("deployed");
    expect(result.chunksResumed).toBe(10);
    expect(result.writeTransactions).toBe(result.chunks - 10);
    // No second buffer: the writes left and the deploy, nothing else.
    expect(result.transactions).toBe(result.writeTransactions + 1);
    expect(await client.getAccount(buffer)).toBeNull();
    // The deploy returns the buffer's rent, so the payer spent about the program data's rent and fees.
    const programDataRent = await client.rentExempt(45 + programBytes.length);
    const spent = balanceBefore - (await client.getBalance(payer.publicKey));
    expect(spent).toBeLessThan(programDataRent);

    const verified = await verifyDeployedBytes(client, program.publicKey, programBytes);
    expect(verified.sha256).toBe(sha256Hex(programBytes));
    const programData = await client.getAccount(findProgramDataAddress(program.publicKey));
    const state = programData === null ? null : decodeLoaderV3State(programData.data);
    expect(state?.kind === "programData" && state.authority?.equals(payer.publicKey)).toBe(true);

    // The loader runs it: an unknown instruction reaches the program, which refuses it itself.
    const simulation = await client.simulate(
      [new TransactionInstruction({ programId: program.publicKey, keys: [], data: Buffer.from([1, 2, 3]) })],
      payer.publicKey,
    );
    expect(simulation.logs[0]).toBe(`Program ${program.publicKey.toBase58()} invoke [1]`);
    expect(simulation.logs.some((line) => line.includes("consumed"))).toBe(true);
  });

  it("upgrades to a larger build (extending the program data), and refuses another authority", async () => {
    const program = Keypair.generate();
    const base = { client, payer, authority: payer, programId: program.publicKey, programKeypair: program };
    await deployProgram({ ...base, programBytes });
    const larger = new Uint8Array(programBytes.length + 3000);
    larger.set(programBytes);
    const upgraded = await deployProgram({ ...base, programBytes: larger });
    expect(upgraded.action).toBe("upgraded");
    const programData = await client.getAccount(findProgramDataAddress(program.publicKey));
    expect(programData === null ? false : holdsExactly(programData.data.subarray(45), larger)).toBe(true);
    expect((await deployProgram({ ...base, programBytes: larger })).action).toBe("unchanged");

    const stranger = Keypair.generate();
    await client.sendAndConfirm(
      "fund the stranger",
      [
        SystemProgram.transfer({
          fromPubkey: payer.publicKey,
          toPubkey: stranger.publicKey,
          lamports: LAMPORTS_PER_SOL,
        }),
      ],
      payer,
    );
    await expect(deployProgram({ ...base, authority: stranger, programBytes })).rejects.toThrow(
      /upgrade authority is/,
    );
  });
});

describe("holdsExactly", () => {
  it("accepts trailing zeros and refuses a changed byte or a short account", () => {
    const expected = Uint8Array.from([1, 2, 3]);
    expect(holdsExactly(Uint8Array.from([1, 2, 3, 0, 0]), expected)).toBe(true);
    expect(holdsExactly(Uint8Array.from([1, 2, 4, 0]), expected)).toBe(false);
    expect(holdsExactly(Uint8Array.from([1, 2, 3, 9]), expected)).toBe(false);
    expect(holdsExactly(Uint8Array.from([1, 2]), expected)).toBe(false);
    expect(PublicKey.isOnCurve(LOADER_V3_PROGRAM_ID.toBytes())).toBe(false);
  });
});
