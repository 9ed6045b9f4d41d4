// Helpers for the localnet's tests: an in-process localnet on free ports, web3.js connections to it,
// raw JSON-RPC calls, and funded wallets.
import { existsSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Connection, Keypair, type Commitment } from "@solana/web3.js";

import {
  REPO_ROOT,
  parseLocalnetConfig,
  type FaucetConfig,
  type KeeperConfig,
  type LocalnetConfig,
} from "./config";
import { startLocalnet, type LocalnetHandle } from "./localnet";

export const PROGRAM_BINARY = join(REPO_ROOT, "programs/vault/vault.so");
export const hasProgramBinary = existsSync(PROGRAM_BINARY);

export interface TestLocalnetOptions {
  /** `--empty`: builtins and a funded payer only (its keypair file in the test's temp directory). */
  empty?: boolean;
  /** Fixed ports (a restarted chain at the same URL); OS-assigned by default. */
  rpcPort?: number;
  wsPort?: number;
  slotMs?: number;
  finalizationDepth?: number;
  stateDir?: string;
  keeper?: Partial<KeeperConfig>;
  faucet?: Partial<FaucetConfig>;
  /** Receives the localnet's log lines (the keeper's among them); silent by default. */
  log?: (line: string) => void;
}

/**
 * A localnet on OS-assigned ports with fast slots and, unless asked for, no keeper; a keeper asked
 * for delivers no claim unless `deliverMaxPerPass` says so (most tests claim as the owner).
 */
export async function startTestLocalnet(options: TestLocalnetOptions = {}): Promise<LocalnetHandle> {
  const base = parseLocalnetConfig([], {});
  const directory = await mkdtemp(join(tmpdir(), "localnet-test-"));
  const config: LocalnetConfig = {
    ...base,
    rpcPort: options.rpcPort ?? 0,
    wsPort: options.wsPort ?? 0,
    empty: options.empty ?? false,
    payerKeypairFile: join(directory, "payer.json"),
    addressesFile: join(directory, "addresses.json"),
    stateDir: options.stateDir ?? null,
    slotMs: options.slotMs ?? 100,
    finalizationDepth: options.finalizationDepth ?? 32,
    keeper: { ...base.keeper, enabled: false, deliverMaxPerPass: 0, ...options.keeper },
    faucet: { ...base.faucet, ...options.faucet },
  };
  return startLocalnet(config, options.log ?? (() => undefined));
}

export function connect(localnet: LocalnetHandle, commitment: Commitment = "confirmed"): Connection {
  return new Connection(localnet.rpcUrl, { commitment, wsEndpoint: localnet.wsUrl });
}

/**
 * Closes web3.js's WebSocket with a normal closure, so it does not keep reconnecting to a stopped
 * localnet (web3.js only closes it itself half a second after its last subscription ends).
 */
export function closeConnection(connection: Connection): void {
  const socket: unknown = Reflect.get(connection, "_rpcWebSocket");
  if (
    typeof socket === "object" &&
    socket !== null &&
    "close" in socket &&
    typeof socket.close === "function"
  ) {
    socket.close();
  }
}

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/** POSTs a raw body to the RPC endpoint (for malformed requests web3.js would never send). */
export async function postRaw(
  url: string,
  body: string,
  headers: Record<string, string> = { "Content-Type": "application/json" },
): Promise<RawResponse> {
  const response = await fetch(url, { method: "POST", headers, body });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text === "" ? null : JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export async function rpc(url: string, method: string, params?: unknown[]): Promise<unknown> {
  const response = await postRaw(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }));
  return response.json;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. The default
 * is just under vitest's test timeout: a busy machine makes the wait longer, not the test red, and a
 * state never reached still fails with this message rather than the test's timeout.
 */
export async function waitFor<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 50_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`Condition not met within ${timeoutMs} ms`);
    }
    await sleep(50);
  }
}

/** A new wallet holding `lamports`, funded by the faucet and confirmed. */
export async function fundedWallet(connection: Connection, lamports = 10_000_000_000): Promise<Keypair> {
  const wallet = Keypair.generate();
  const signature = await connection.requestAirdrop(wallet.publicKey, lamports);
  const latest = await connection.getLatestBlockhash();
  await connection.confirmTransaction({ signature, ...latest });
  return wallet;
}
