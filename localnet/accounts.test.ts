// Account and token reads in every encoding (base58, base64, jsonParsed), program-account filters,
// fees for messages, base58 transactions, the status cache, and raw PubSub subscribe/unsubscribe.
import bs58 from "bs58";
import {
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
  type Connection,
} from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";

import { VAULT_ACCOUNT_SIZE } from "../lib/vault/program/idl";
import type { LocalnetHandle } from "./localnet";
import { STATUS_CACHE_SLOTS } from "./ledger";
import { TOKEN_PROGRAM_ID, findAssociatedTokenAddress } from "../lib/chain/spl-token";
import {
  closeConnection,
  connect,
  fundedWallet,
  hasProgramBinary,
  postRaw,
  rpc,
  startTestLocalnet,
  waitFor,
} from "./testing";

let localnet: LocalnetHandle;
let connection: Connection;
let holder: PublicKey;
let tokenAccount: PublicKey;

beforeAll(async () => {
  localnet = await startTestLocalnet();
  connection = connect(localnet);
  holder = Keypair.generate().publicKey;
  const granted = await postRaw(
    localnet.faucetUrl,
    JSON.stringify({ wallet: holder.toBase58(), amount: "1500000" }),
  );
  expect(granted.status).toBe(200);
  tokenAccount = findAssociatedTokenAddress(holder, localnet.addresses.usdcMint);
  await waitFor(async () => ((await connection.getAccountInfo(tokenAccount)) === null ? undefined : true));
});

afterAll(async () => {
  closeConnection(connection);
  await localnet.stop();
});

const result = (response: unknown): unknown => (response as { result: unknown }).result;

describe("account encodings", () => {
  it("parses SPL Token mints and accounts with jsonParsed", async () => {
    const mint = await connection.getParsedAccountInfo(localnet.addresses.usdcMint);
    expect(mint.value?.data).toMatchObject({
      program: "spl-token",
      space: 82,
      parsed: {
        type: "mint",
        info: { decimals: 6, isInitialized: true, freezeAuthority: null, mintAuthority: expect.any(String) },
      },
    });
    const account = await connection.getParsedAccountInfo(tokenAccount);
    expect(account.value?.data).toEqual({
      program: "spl-token",
      space: 165,
      parsed: {
        type: "account",
        info: {
          isNative: false,
          mint: localnet.addresses.usdcMint.toBase58(),
          owner: holder.toBase58(),
          state: "initialized",
          tokenAmount: { amount: "1500000", decimals: 6, uiAmount: 1.5, uiAmountString: "1.5" },
        },
      },
    });
  });

  it("encodes base58 (with the validator's 128-byte limit), base64 and data slices", async () => {
    const mint = localnet.addresses.usdcMint.toBase58();
    const raw = await connection.getAccountInfo(localnet.addresses.usdcMint);
    const base58 = result(await rpc(localnet.rpcUrl, "getAccountInfo", [mint, { encoding: "base58" }]));
    expect(base58).toMatchObject({
      value: { data: [bs58.encode(raw?.data ?? Buffer.alloc(0)), "base58"], space: 82 },
    });
    const binary = result(await rpc(localnet.rpcUrl, "getAccountInfo", [mint]));
    expect(binary).toMatchObject({ value: { data: bs58.encode(raw?.data ?? Buffer.alloc(0)) } });
    const sliced = result(
      await rpc(localnet.rpcUrl, "getAccountInfo", [
        mint,
        { encoding: "base64", dataSlice: { offset: 44, length: 2 } },
      ]),
    );
    expect(sliced).toMatchObject({ value: { data: [Buffer.from([6, 1]).toString("base64"), "base64"] } });
    expect(
      await rpc(localnet.rpcUrl, "getAccountInfo", [tokenAccount.toBase58(), { encoding: "base58" }]),
    ).toMatchObject({
      error: {
        code: -32600,
        message: "Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.",
      },
    });
    expect(
      result(await rpc(localnet.rpcUrl, "getAccountInfo", [Keypair.generate().publicKey.toBase58()])),
    ).toMatchObject({
      value: null,
    });
  });

  it("reads several accounts at once", async () => {
    const missing = Keypair.generate().publicKey;
    const accounts = await connection.getMultipleAccountsInfo([
      localnet.addresses.usdcMint,
      missing,
      tokenAccount,
    ]);
    expect(accounts.map((account) => account?.owner.toBase58() ?? null)).toEqual([
      TOKEN_PROGRAM_ID.toBase58(),
      null,
      TOKEN_PROGRAM_ID.toBase58(),
    ]);
  });
});

describe("token methods", () => {
  it("answers balances, supply and accounts by owner", async () => {
    expect((await connection.getTokenAccountBalance(tokenAccount)).value.uiAmountString).toBe("1.5");
    const supply = await connection.getTokenSupply(localnet.addresses.usdcMint);
    expect(BigInt(supply.value.amount)).toBeGreaterThanOrEqual(1_500_000n);
    const byMint = await connection.getParsedTokenAccountsByOwner(holder, {
      mint: localnet.addresses.usdcMint,
    });
    expect(byMint.value.map((entry) => entry.pubkey.toBase58())).toEqual([tokenAccount.toBase58()]);
    const byProgram = await connection.getTokenAccountsByOwner(holder, { programId: TOKEN_PROGRAM_ID });
    expect(byProgram.value).toHaveLength(1);
    expect(await rpc(localnet.rpcUrl, "getTokenAccountBalance", [holder.toBase58()])).toMatchObject({
      error: { code: -32602, message: "Invalid param: not a Token account" },
    });
    expect(
      await rpc(localnet.rpcUrl, "getTokenAccountBalance", [Keypair.generate().publicKey.toBase58()]),
    ).toMatchObject({ error: { code: -32602, message: "Invalid param: could not find account" } });
    expect(
      await rpc(localnet.rpcUrl, "getTokenAccountsByOwner", [
        holder.toBase58(),
        { programId: holder.toBase58() },
      ]),
    ).toMatchObject({ error: { code: -32602, message: "Invalid param: unrecognized Token program id" } });
  });

  it("filters program accounts by data size and memcmp", async () => {
    const accounts = await connection.getProgramAccounts(TOKEN_PROGRAM_ID, {
      filters: [{ dataSize: 165 }, { memcmp: { offset: 32, bytes: holder.toBase58() } }],
    });
    expect(accounts.map((entry) => entry.pubkey.toBase58())).toEqual([tokenAccount.toBase58()]);
    const withContext = result(
      await rpc(localnet.rpcUrl, "getProgramAccounts", [
        TOKEN_PROGRAM_ID.toBase58(),
        { encoding: "base64", withContext: true, filters: [{ dataSize: 82 }] },
      ]),
    );
    expect(withContext).toMatchObject({ context: { slot: expect.any(Number) }, value: expect.any(Array) });
    expect(
      await rpc(localnet.rpcUrl, "getProgramAccounts", [
        TOKEN_PROGRAM_ID.toBase58(),
        { filters: [{ dataSize: 1 }, { dataSize: 2 }, { dataSize: 3 }, { dataSize: 4 }, { dataSize: 5 }] },
      ]),
    ).toMatchObject({ error: { code: -32602, message: "Too many filters provided; max 4" } });
  });

  it.skipIf(!hasProgramBinary)("finds the demo vaults by owner and size", async () => {
    const vaults = await connection.getProgramAccounts(localnet.addresses.programId, {
      filters: [{ dataSize: VAULT_ACCOUNT_SIZE }],
    });
    expect(vaults.map((entry) => entry.pubkey.toBase58()).sort()).toEqual(
      localnet.addresses.vaults.map((vault) => vault.vault.toBase58()).sort(),
    );
  });
});

describe("transactions in other encodings", () => {
  it("takes base58 transactions, prices messages, and forgets statuses past the status cache", async () => {
    const payer = await fundedWallet(connection, LAMPORTS_PER_SOL);
    const latest = await connection.getLatestBlockhash();
    const transaction = new Transaction({ feePayer: payer.publicKey, recentBlockhash: latest.blockhash }).add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: 1_000_000,
      }),
    );
    expect((await connection.getFeeForMessage(transaction.compileMessage())).value).toBe(5000);
    transaction.sign(payer);
    const sent = result(
      await rpc(localnet.rpcUrl, "sendTransaction", [bs58.encode(transaction.serialize())]),
    );
    expect(sent).toBe(bs58.encode(transaction.signature ?? Buffer.alloc(0)));
    const signature = String(sent);
    await connection.confirmTransaction({ signature, ...latest });

    localnet.chain.produceSlots(Number(STATUS_CACHE_SLOTS) + 1);
    expect((await connection.getSignatureStatuses([signature])).value).toEqual([null]);
    const searched = await connection.getSignatureStatuses([signature], { searchTransactionHistory: true });
    expect(searched.value[0]).toMatchObject({
      err: null,
      confirmationStatus: "finalized",
      confirmations: null,
    });
    const stale = transaction.compileMessage();
    expect((await connection.getFeeForMessage(stale)).value).toBeNull();
  });
});

describe("raw PubSub", () => {
  it("answers subscribe and unsubscribe, and refuses unknown ids and methods", async () => {
    const socket = new WebSocket(localnet.wsUrl);
    const messages: unknown[] = [];
    socket.on("message", (data) => messages.push(JSON.parse(String(data))));
    await new Promise((resolve) => socket.once("open", resolve));
    const send = (payload: unknown) => socket.send(JSON.stringify(payload));
    send({ jsonrpc: "2.0", id: 1, method: "slotSubscribe" });
    const subscribed = await waitFor(() => messages.find((message) => (message as { id?: number }).id === 1));
    const subscription = (subscribed as { result: number }).result;
    expect(subscription).toEqual(expect.any(Number));
    await waitFor(() =>
      messages.find((message) => (message as { method?: string }).method === "slotNotification"),
    );
    send({ jsonrpc: "2.0", id: 2, method: "slotUnsubscribe", params: [subscription] });
    send({ jsonrpc: "2.0", id: 3, method: "slotUnsubscribe", params: [subscription] });
    send({ jsonrpc: "2.0", id: 4, method: "blockSubscribe", params: [] });
    send({ jsonrpc: "2.0", id: 5, method: "signatureSubscribe", params: ["nope"] });
    socket.send("{");
    await waitFor(() => (messages.length >= 7 ? true : undefined));
    const byId = (id: number | null) => messages.find((message) => (message as { id?: unknown }).id === id);
    expect(byId(2)).toEqual({ jsonrpc: "2.0", result: true, id: 2 });
    expect(byId(3)).toEqual({
      jsonrpc: "2.0",
      error: { code: -32602, message: "Invalid subscription id." },
      id: 3,
    });
    expect(byId(4)).toEqual({ jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id: 4 });
    expect(byId(5)).toMatchObject({ error: { code: -32602 }, id: 5 });
    expect(byId(null)).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null });
    socket.close();
  });

  it("tells a signature subscriber it was received, then that it reached its commitment", async () => {
    const payer = await fundedWallet(connection, LAMPORTS_PER_SOL);
    const latest = await connection.getLatestBlockhash();
    const transaction = new Transaction({ feePayer: payer.publicKey, recentBlockhash: latest.blockhash }).add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: 1_000_000,
      }),
    );
    transaction.sign(payer);
    const signature = bs58.encode(transaction.signature ?? Buffer.alloc(0));
    const socket = new WebSocket(localnet.wsUrl);
    const notifications: unknown[] = [];
    let subscribed = false;
    socket.on("message", (data) => {
      const message: unknown = JSON.parse(String(data));
      if ((message as { id?: number }).id === 1) subscribed = true;
      if ((message as { method?: string }).method === "signatureNotification") {
        notifications.push((message as { params: { result: { value: unknown } } }).params.result.value);
      }
    });
    await new Promise((resolve) => socket.once("open", resolve));
    socket.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "signatureSubscribe",
        params: [signature, { commitment: "confirmed", enableReceivedNotification: true }],
      }),
    );
    await waitFor(() => (subscribed ? true : undefined));
    await connection.sendRawTransaction(transaction.serialize());
    await waitFor(() => (notifications.length >= 2 ? true : undefined));
    expect(notifications).toEqual(["receivedSignature", { err: null }]);
    socket.close();
  });
});
