// Transactions through the localnet with @solana/web3.js as the client: confirmation over WebSocket
// and by polling, commitment levels, getTransaction's metadata, expired blockhashes, duplicates, bad
// signatures, failed transactions, simulation, history queries, subscriptions and the faucet.
import {
  ComputeBudgetProgram,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SendTransactionError,
  SystemProgram,
  Transaction,
  TransactionExpiredBlockheightExceededError,
  TransactionMessage,
  VersionedTransaction,
  type Connection,
} from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";

import type { LocalnetHandle } from "./localnet";
import { findAssociatedTokenAddress } from "../lib/chain/spl-token";
import { closeConnection, connect, fundedWallet, postRaw, rpc, startTestLocalnet, waitFor } from "./testing";

const FINALIZATION_DEPTH = 4;

let localnet: LocalnetHandle;
let connection: Connection;
let payer: Keypair;

beforeAll(async () => {
  localnet = await startTestLocalnet({
    finalizationDepth: FINALIZATION_DEPTH,
    faucet: { requestsPerMinute: 3 },
  });
  connection = connect(localnet);
  payer = await fundedWallet(connection, 50 * LAMPORTS_PER_SOL);
});

afterAll(async () => {
  closeConnection(connection);
  await localnet.stop();
});

async function transferTransaction(from: Keypair, to: PublicKey, lamports: number, blockhash?: string) {
  const recentBlockhash = blockhash ?? (await connection.getLatestBlockhash()).blockhash;
  const transaction = new Transaction({ feePayer: from.publicKey, recentBlockhash }).add(
    SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports }),
  );
  transaction.sign(from);
  return transaction;
}

function rawBase64(transaction: Transaction): string {
  return transaction.serialize().toString("base64");
}

describe("confirming a SOL transfer", () => {
  it("confirms through confirmTransaction over the WebSocket", async () => {
    const recipient = Keypair.generate().publicKey;
    const latest = await connection.getLatestBlockhash();
    const transaction = await transferTransaction(payer, recipient, 1_234_567, latest.blockhash);
    const signature = await connection.sendRawTransaction(transaction.serialize());
    const subscribed = new Promise<{ err: unknown }>((resolve) => {
      connection.onSignature(signature, (result) => resolve(result));
    });
    const confirmation = await connection.confirmTransaction({ signature, ...latest }, "confirmed");
    expect(confirmation.value.err).toBeNull();
    expect(await subscribed).toEqual({ err: null });
    expect(await connection.getBalance(recipient)).toBe(1_234_567);
  });

  it("confirms by polling getSignatureStatuses, through confirmed to finalized", async () => {
    const recipient = Keypair.generate().publicKey;
    const transaction = await transferTransaction(payer, recipient, 2_000_000);
    const signature = await connection.sendRawTransaction(transaction.serialize(), { skipPreflight: true });
    const seen = new Set<string>();
    const finalized = await waitFor(async () => {
      const { value } = await connection.getSignatureStatuses([signature]);
      const status = value[0];
      if (status?.confirmationStatus !== undefined) {
        seen.add(status.confirmationStatus);
      }
      return status?.confirmationStatus === "finalized" ? status : undefined;
    });
    expect(seen.has("confirmed")).toBe(true);
    expect(finalized).toMatchObject({ err: null, confirmations: null, confirmationStatus: "finalized" });
    expect(await connection.getBalance(recipient, "finalized")).toBe(2_000_000);
  });
});

describe("getTransaction", () => {
  it("returns the logs, balances, fee, compute units, slot and block time", async () => {
    const recipient = Keypair.generate().publicKey;
    const transaction = await transferTransaction(payer, recipient, 5_000_000);
    const signature = await connection.sendRawTransaction(transaction.serialize());
    await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
    const confirmed = await connection.getTransaction(signature, {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    expect(confirmed).not.toBeNull();
    expect(confirmed?.version).toBe("legacy");
    expect(confirmed?.meta).toMatchObject({
      err: null,
      fee: 5000,
      logMessages: [
        "Program 11111111111111111111111111111111 invoke [1]",
        "Program 11111111111111111111111111111111 success",
      ],
      computeUnitsConsumed: 150,
      preTokenBalances: [],
      postTokenBalances: [],
    });
    expect(confirmed?.meta?.postBalances[1]).toBe(5_000_000);
    expect((confirmed?.meta?.preBalances[0] ?? 0) - (confirmed?.meta?.postBalances[0] ?? 0)).toBe(5_005_000);
    expect(confirmed?.slot).toBeGreaterThan(0);
    // Unix seconds between the chain's genesis and now, however long the machine took.
    expect(confirmed?.blockTime).toBeGreaterThanOrEqual(localnet.chain.blockTime(0n) ?? Infinity);
    expect(confirmed?.blockTime).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect(await connection.getBlockTime(confirmed?.slot ?? 0)).toBe(confirmed?.blockTime);

    const base64 = (await rpc(localnet.rpcUrl, "getTransaction", [
      signature,
      { encoding: "base64", commitment: "confirmed" },
    ])) as { result: { transaction: [string, string] } };
    expect(base64.result.transaction).toEqual([rawBase64(transaction), "base64"]);
  });

  it("refuses a version 0 transaction to a client that did not opt in, with -32015", async () => {
    const { blockhash } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: [
        SystemProgram.transfer({
          fromPubkey: payer.publicKey,
          toPubkey: Keypair.generate().publicKey,
          lamports: 1_000_000,
        }),
      ],
    }).compileToV0Message();
    const transaction = new VersionedTransaction(message);
    transaction.sign([payer]);
    const signature = await connection.sendTransaction(transaction);
    await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
    expect(
      await rpc(localnet.rpcUrl, "getTransaction", [signature, { commitment: "confirmed" }]),
    ).toMatchObject({
      error: { code: -32015, message: expect.stringContaining("Transaction version (0) is not supported") },
    });
    const found = await connection.getTransaction(signature, {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    expect(found?.version).toBe(0);
  });
});

describe("getTransaction jsonParsed", () => {
  it("parses System transfer, createAccount, assign and allocate as a validator does", async () => {
    const recipient = Keypair.generate().publicKey;
    const created = Keypair.generate();
    const assigned = Keypair.generate();
    const owner = Keypair.generate().publicKey;
    const latest = await connection.getLatestBlockhash();
    const transaction = new Transaction({ feePayer: payer.publicKey, recentBlockhash: latest.blockhash }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: 3_000_000 }),
      SystemProgram.createAccount({
        fromPubkey: payer.publicKey,
        newAccountPubkey: created.publicKey,
        lamports: 2_000_000,
        space: 64,
        programId: owner,
      }),
      SystemProgram.allocate({ accountPubkey: assigned.publicKey, space: 16 }),
      SystemProgram.assign({ accountPubkey: assigned.publicKey, programId: owner }),
    );
    transaction.sign(payer, created, assigned);
    const signature = await connection.sendRawTransaction(transaction.serialize());
    await connection.confirmTransaction({ signature, ...latest });
    // web3.js checks the response against its ParsedInstruction / PartiallyDecodedInstruction types.
    const parsed = await connection.getParsedTransaction(signature, {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    expect(parsed?.meta?.err).toBeNull();
    const system = { program: "system", programId: SystemProgram.programId };
    expect(parsed?.transaction.message.instructions).toEqual([
      {
        ...system,
        parsed: {
          type: "transfer",
          info: {
            source: payer.publicKey.toBase58(),
            destination: recipient.toBase58(),
            lamports: 3_000_000,
          },
        },
        stackHeight: null,
      },
      {
        ...system,
        parsed: {
          type: "createAccount",
          info: {
            source: payer.publicKey.toBase58(),
            newAccount: created.publicKey.toBase58(),
            lamports: 2_000_000,
            space: 64,
            owner: owner.toBase58(),
          },
        },
        stackHeight: null,
      },
      {
        ...system,
        parsed: { type: "allocate", info: { account: assigned.publicKey.toBase58(), space: 16 } },
        stackHeight: null,
      },
      {
        ...system,
        parsed: { type: "assign", info: { account: assigned.publicKey.toBase58(), owner: owner.toBase58() } },
        stackHeight: null,
      },
    ]);
  });

  it("leaves other programs' instructions partially decoded", async () => {
    const latest = await connection.getLatestBlockhash();
    const transaction = new Transaction({ feePayer: payer.publicKey, recentBlockhash: latest.blockhash }).add(
      ComputeBudgetProgram.setComputeUnitLimit({ units: 50_000 }),
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: 1_000_000,
      }),
    );
    transaction.sign(payer);
    const signature = await connection.sendRawTransaction(transaction.serialize());
    await connection.confirmTransaction({ signature, ...latest });
    const parsed = await connection.getParsedTransaction(signature, {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    const [budget, transfer] = parsed?.transaction.message.instructions ?? [];
    expect(budget).toMatchObject({ programId: ComputeBudgetProgram.programId, accounts: [] });
    expect(budget).not.toHaveProperty("parsed");
    expect(transfer).toMatchObject({ program: "system", parsed: { type: "transfer" } });
  });
});

describe("fees", () => {
  it("charges 5000 lamports a signature plus the prioritization fee, and reports it in meta", async () => {
    const latest = await connection.getLatestBlockhash();
    const transaction = new Transaction({ feePayer: payer.publicKey, recentBlockhash: latest.blockhash }).add(
      ComputeBudgetProgram.setComputeUnitLimit({ units: 50_000 }),
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1_000 }),
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: 1_000_000,
      }),
    );
    transaction.sign(payer);
    const signature = await connection.sendRawTransaction(transaction.serialize());
    await connection.confirmTransaction({ signature, ...latest });
    const meta = (
      await connection.getTransaction(signature, {
        commitment: "confirmed",
        maxSupportedTransactionVersion: 0,
      })
    )?.meta;
    expect(meta?.fee).toBe(5050);
    expect((meta?.preBalances[0] ?? 0) - (meta?.postBalances[0] ?? 0)).toBe(1_000_000 + 5050);
    const fees = await connection.getRecentPrioritizationFees({ lockedWritableAccounts: [payer.publicKey] });
    expect(fees.some((fee) => fee.prioritizationFee === 1_000)).toBe(true);
  });
});

describe("blockhash expiry", () => {
  it("keeps a blockhash valid for 150 blocks and refuses it afterwards, as a validator does", async () => {
    // Slots advance only by hand here: a timer slot between reading the height and producing slots
    // would move the boundary this test pins down.
    localnet.chain.stop();
    onTestFinished(() => localnet.chain.start());
    const latest = await connection.getLatestBlockhash("processed");
    const transaction = await transferTransaction(
      payer,
      Keypair.generate().publicKey,
      1_000,
      latest.blockhash,
    );
    const height = await connection.getBlockHeight("processed");
    localnet.chain.produceSlots(latest.lastValidBlockHeight - height);
    expect((await connection.isBlockhashValid(latest.blockhash, { commitment: "processed" })).value).toBe(
      true,
    );
    localnet.chain.produceSlots(1);
    expect((await connection.isBlockhashValid(latest.blockhash, { commitment: "processed" })).value).toBe(
      false,
    );

    const refused = await postRaw(
      localnet.rpcUrl,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "sendTransaction",
        params: [rawBase64(transaction), { encoding: "base64", preflightCommitment: "processed" }],
      }),
    );
    expect(refused.json).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32002,
        message: "Transaction simulation failed: Blockhash not found",
        data: {
          accounts: null,
          err: "BlockhashNotFound",
          innerInstructions: null,
          loadedAccountsDataSize: 0,
          logs: [],
          replacementBlockhash: null,
          returnData: null,
          unitsConsumed: 0,
          fee: null,
          preBalances: null,
          postBalances: null,
          preTokenBalances: null,
          postTokenBalances: null,
          loadedAddresses: null,
        },
      },
      id: 1,
    });
    await expect(connection.sendRawTransaction(transaction.serialize())).rejects.toBeInstanceOf(
      SendTransactionError,
    );
  });

  it("drops an expired transaction sent without preflight; confirmation ends in block height exceeded", async () => {
    const latest = await connection.getLatestBlockhash("processed");
    const transaction = await transferTransaction(
      payer,
      Keypair.generate().publicKey,
      1_000,
      latest.blockhash,
    );
    localnet.chain.produceSlots(151);
    const signature = await connection.sendRawTransaction(transaction.serialize(), { skipPreflight: true });
    expect((await connection.getSignatureStatuses([signature])).value).toEqual([null]);
    await expect(connection.confirmTransaction({ signature, ...latest })).rejects.toBeInstanceOf(
      TransactionExpiredBlockheightExceededError,
    );
  });
});

describe("refusals and failures", () => {
  it("refuses a duplicate with AlreadyProcessed", async () => {
    const transaction = await transferTransaction(payer, Keypair.generate().publicKey, 2_000_000);
    const signature = await connection.sendRawTransaction(transaction.serialize());
    const again = await rpc(localnet.rpcUrl, "sendTransaction", [
      rawBase64(transaction),
      { encoding: "base64" },
    ]);
    expect(again).toMatchObject({
      error: {
        code: -32002,
        message: "Transaction simulation failed: This transaction has already been processed",
        data: { err: "AlreadyProcessed" },
      },
    });
    expect(
      await rpc(localnet.rpcUrl, "sendTransaction", [
        rawBase64(transaction),
        { encoding: "base64", skipPreflight: true },
      ]),
    ).toMatchObject({ result: signature });
  });

  it("refuses a transaction whose signature does not verify with -32003", async () => {
    const transaction = await transferTransaction(payer, Keypair.generate().publicKey, 3_000);
    const wire = transaction.serialize();
    wire[5] = (wire[5] ?? 0) ^ 0xff;
    expect(
      await rpc(localnet.rpcUrl, "sendTransaction", [
        Buffer.from(wire).toString("base64"),
        { encoding: "base64" },
      ]),
    ).toEqual({
      jsonrpc: "2.0",
      error: { code: -32003, message: "Transaction signature verification failure" },
      id: 1,
    });
  });

  it("lands a failing transaction sent without preflight, with its error and the fee charged", async () => {
    const poor = await fundedWallet(connection, LAMPORTS_PER_SOL / 10);
    const transaction = await transferTransaction(poor, Keypair.generate().publicKey, LAMPORTS_PER_SOL);
    const refused = await rpc(localnet.rpcUrl, "sendTransaction", [
      rawBase64(transaction),
      { encoding: "base64" },
    ]);
    expect(refused).toMatchObject({
      error: {
        code: -32002,
        message: "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1",
        data: {
          err: { InstructionError: [0, { Custom: 1 }] },
          logs: expect.arrayContaining([expect.stringContaining("insufficient lamports")]),
        },
      },
    });
    const signature = await connection.sendRawTransaction(transaction.serialize(), { skipPreflight: true });
    // web3.js rejects confirmTransaction with the error itself when it learns the status by polling.
    const status = await waitFor(async () => {
      const { value } = await connection.getSignatureStatuses([signature]);
      return value[0]?.confirmationStatus === "confirmed" ? value[0] : undefined;
    });
    expect(status.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    const landed = await connection.getTransaction(signature, {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    expect(landed?.meta).toMatchObject({ err: { InstructionError: [0, { Custom: 1 }] }, fee: 5000 });
    expect(await connection.getBalance(poor.publicKey)).toBe(LAMPORTS_PER_SOL / 10 - 5000);
  });
});

describe("simulateTransaction", () => {
  it("simulates unsigned transactions, replaces the blockhash and returns requested accounts", async () => {
    const recipient = Keypair.generate().publicKey;
    const transaction = new Transaction({
      feePayer: payer.publicKey,
      recentBlockhash: "11111111111111111111111111111111",
    }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: 42_000_000 }),
    );
    const unsigned = transaction
      .serialize({ requireAllSignatures: false, verifySignatures: false })
      .toString("base64");
    const result = (await rpc(localnet.rpcUrl, "simulateTransaction", [
      unsigned,
      {
        encoding: "base64",
        replaceRecentBlockhash: true,
        accounts: { addresses: [recipient.toBase58()], encoding: "base64" },
      },
    ])) as { result: { value: Record<string, unknown> } };
    expect(result.result.value).toMatchObject({
      err: null,
      unitsConsumed: 150,
      fee: 5000,
      accounts: [{ lamports: 42_000_000, owner: "11111111111111111111111111111111", data: ["", "base64"] }],
      replacementBlockhash: { blockhash: expect.any(String), lastValidBlockHeight: expect.any(Number) },
    });
    expect(await connection.getBalance(recipient)).toBe(0);
    expect(
      await rpc(localnet.rpcUrl, "simulateTransaction", [unsigned, { encoding: "base64", sigVerify: true }]),
    ).toMatchObject({ result: { value: { err: "SignatureFailure" } } });
    expect(
      await rpc(localnet.rpcUrl, "simulateTransaction", [
        unsigned,
        { encoding: "base64", sigVerify: true, replaceRecentBlockhash: true },
      ]),
    ).toMatchObject({
      error: { code: -32602, message: "sigVerify may not be used with replaceRecentBlockhash" },
    });
  });
});

describe("getSignaturesForAddress", () => {
  it("lists a wallet's transactions newest first and pages with before, until and limit", async () => {
    const wallet = await fundedWallet(connection, LAMPORTS_PER_SOL);
    const signatures: string[] = [];
    for (let index = 0; index < 4; index += 1) {
      const transaction = await transferTransaction(wallet, Keypair.generate().publicKey, 1_000_000 + index);
      const signature = await connection.sendRawTransaction(transaction.serialize());
      await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
      signatures.push(signature);
    }
    const all = await connection.getSignaturesForAddress(wallet.publicKey, undefined, "confirmed");
    expect(all.map((entry) => entry.signature).slice(0, 4)).toEqual([...signatures].reverse());
    expect(all).toHaveLength(5);
    expect(all[0]).toMatchObject({ err: null, memo: null, confirmationStatus: expect.any(String) });
    expect(all[0]?.blockTime).toEqual(expect.any(Number));
    const page = await connection.getSignaturesForAddress(
      wallet.publicKey,
      { before: signatures[3], until: signatures[0], limit: 10 },
      "confirmed",
    );
    expect(page.map((entry) => entry.signature)).toEqual([signatures[2], signatures[1]]);
    const limited = await connection.getSignaturesForAddress(wallet.publicKey, { limit: 2 }, "confirmed");
    expect(limited.map((entry) => entry.signature)).toEqual([signatures[3], signatures[2]]);
  });
});

describe("subscriptions", () => {
  it("notifies account changes, slots and logs, and unsubscribes", async () => {
    const recipient = Keypair.generate().publicKey;
    const account = new Promise<number>((resolve) => {
      connection.onAccountChange(recipient, (info) => resolve(info.lamports), { commitment: "confirmed" });
    });
    const logs = new Promise<string[]>((resolve) => {
      connection.onLogs(recipient, (entry) => resolve(entry.logs), "confirmed");
    });
    const slot = new Promise<number>((resolve) => {
      const id = connection.onSlotChange((info) => {
        void connection.removeSlotChangeListener(id);
        resolve(info.slot);
      });
    });
    // The server answers subscriptions in the order they arrive on the socket: once the slot
    // subscription (sent last) notifies, the account and logs subscriptions are in place.
    expect(await slot).toBeGreaterThan(0);
    const transaction = await transferTransaction(payer, recipient, 9_999_999);
    await connection.sendRawTransaction(transaction.serialize());
    expect(await account).toBe(9_999_999);
    expect(await logs).toContain("Program 11111111111111111111111111111111 success");
  });
});

describe("faucet", () => {
  it("gives a fresh wallet USDC and SOL for fees, and limits requests per client", async () => {
    const wallet = Keypair.generate().publicKey;
    const post = (body: unknown) =>
      postRaw(localnet.faucetUrl, JSON.stringify(body), { "Content-Type": "application/json" });
    const granted = await post({ wallet: wallet.toBase58(), amount: "2500000000" });
    expect(granted.status).toBe(200);
    expect(granted.json).toMatchObject({
      amount: "2500000000",
      lamports: "1000000000",
      signature: expect.any(String),
    });
    const tokenAccount = findAssociatedTokenAddress(wallet, localnet.addresses.usdcMint);
    await waitFor(async () => ((await connection.getAccountInfo(tokenAccount)) === null ? undefined : true));
    expect((await connection.getTokenAccountBalance(tokenAccount)).value).toEqual({
      amount: "2500000000",
      decimals: 6,
      uiAmount: 2500,
      uiAmountString: "2500",
    });
    expect(await connection.getBalance(wallet)).toBe(LAMPORTS_PER_SOL);

    expect((await post({ wallet: "nope" })).json).toEqual({ error: "wallet: must be a base58 public key" });
    expect((await post({ wallet: wallet.toBase58() })).status).toBe(200);
    expect((await post({ wallet: wallet.toBase58() })).status).toBe(200);
    const limited = await post({ wallet: wallet.toBase58() });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("airdrops SOL through requestAirdrop, refusing amounts over the cap with the validator's -32603", async () => {
    const wallet = Keypair.generate().publicKey;
    const signature = await connection.requestAirdrop(wallet, 3 * LAMPORTS_PER_SOL);
    await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
    expect(await connection.getBalance(wallet)).toBe(3 * LAMPORTS_PER_SOL);
    expect(
      await rpc(localnet.rpcUrl, "requestAirdrop", [wallet.toBase58(), 10_000 * LAMPORTS_PER_SOL]),
    ).toMatchObject({
      error: { code: -32603, message: "Internal error" },
    });
    expect(new PublicKey(localnet.addresses.usdcMint).toBase58()).toBe(
      localnet.addresses.usdcMint.toBase58(),
    );
  });
});
