import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { Keypair, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ChainUnavailableError } from "../chain/rpc";
import type { ClientConfig } from "../web-config";
import { RpcTransportError } from "../chain/rpc-transport";
import { CHAIN_READ_TIMEOUT_MS, connectionFor, read, readVault, readWalletBalances } from "./chain-reader";

// An RPC stand-in: the status and body each path answers with.
const answers: Record<string, { status: number; body: string }> = {
  "/bad-gateway": { status: 502, body: "upstream down" },
  "/unavailable": { status: 503, body: "try later" },
  "/internal": { status: 500, body: "boom" },
  "/rpc-error": {
    status: 200,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32602, message: "Invalid param: the network timed out 503" },
    }),
  },
};

let server: Server;
let origin: string;
let closedOrigin: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === "/silent") {
      // A node that takes the request and never answers (a paused chain).
      return;
    }
    const answer = answers[request.url ?? ""] ?? { status: 404, body: "" };
    request.resume();
    request.on("end", () => response.writeHead(answer.status).end(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A port nothing listens on: open one, note it, close it.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  closedOrigin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function config(rpcUrl: string): ClientConfig {
  return {
    cluster: "localnet",
    rpcUrl,
    wsUrl: rpcUrl.replace("http", "ws"),
    faucetUrl: null,
    programId: Keypair.generate().publicKey.toBase58(),
    protocolId: Keypair.generate().publicKey.toBase58(),
    defaultVaultId: null,
    assets: [],
  };
}

const vault = Keypair.generate().publicKey.toBase58();
const wallet = Keypair.generate().publicKey.toBase58();

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe("the chain reader's failures", () => {
  it("a read that gets no answer, or a gateway's 502/503, is ChainUnavailableError naming the read", async () => {
    for (const url of [closedOrigin, `${origin}/bad-gateway`, `${origin}/unavailable`]) {
      const settings = config(url);
      const connection = connectionFor(settings);
      const vaultRead = await failureOf(readVault(connection, settings, vault));
      expect(vaultRead).toBeInstanceOf(ChainUnavailableError);
      expect((vaultRead as Error).message).toMatch(/^The chain is unreachable: reading the vault: /);
      const walletRead = await failureOf(readWalletBalances(connection, wallet, []));
      expect(walletRead).toBeInstanceOf(ChainUnavailableError);
      expect((walletRead as Error).message).toMatch(/^The chain is unreachable: reading the wallet: /);
    }
  });

  it("a node that never answers is ChainUnavailableError once the read's time is up (10 s on the pages)", async () => {
    expect(CHAIN_READ_TIMEOUT_MS).toBe(10_000);
    const connection = connectionFor(config(`${origin}/silent`));
    const error = await failureOf(
      read("reading the vault", () => connection.getAccountInfoAndContext(new PublicKey(vault)), 50),
    );
    expect(error).toBeInstanceOf(ChainUnavailableError);
    expect((error as Error).message).toBe("The chain is unreachable: reading the vault: no answer in 0.05 s");
    // An answer in time is the answer.
    expect(await read("reading nothing", () => Promise.resolve(7), 50)).toBe(7);
  });

  it("anything else is left as it is, whatever its words say", async () => {
    for (const path of ["/internal", "/rpc-error"]) {
      const settings = config(`${origin}${path}`);
      const error = await failureOf(readVault(connectionFor(settings), settings, vault));
      expect(error).not.toBeInstanceOf(ChainUnavailableError);
      expect(error).toBeInstanceOf(Error);
    }
  });

  it("outside the reads (the transaction flow sends on the same Connection), its errors keep the name and message web3.js gave them", async () => {
    const send = (url: string) => connectionFor(config(url)).sendRawTransaction(Buffer.from([1, 2, 3]));
    const noAnswer = await failureOf(send(closedOrigin));
    expect(noAnswer).toBeInstanceOf(RpcTransportError);
    expect(String(noAnswer)).toBe("TypeError: fetch failed");
    expect((noAnswer as Error).cause).toBeInstanceOf(Error);
    const gateway = await failureOf(send(`${origin}/unavailable`));
    expect(gateway).toMatchObject({ status: 503 });
    expect(String(gateway)).toBe("Error: 503 Service Unavailable: try later");
  });
});
