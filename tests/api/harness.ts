// The API under test: an in-process localnet, a context on a fresh store (a PGlite in memory, or a
// per-run schema of the PostgreSQL at DATABASE_URL), rate limits in process (or in the Redis at
// REDIS_URL under a per-run prefix), and a host on a free port. API_HOST picks the host: `lean` (the
// default: `npm run api`'s node:http host), `production` (`npm start`'s server, scripts/web-server.ts,
// on the last `next build`) or `dev` (`npm run dev`'s, Next.js in dev mode). The web servers run in
// this process with this context, so the tests create keys and read rows as they do on the lean host.
import { randomBytes } from "node:crypto";
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from "node:http";

import { Keypair, VersionedTransaction, type Connection, type PublicKey } from "@solana/web3.js";

import { createProcessConfig, installProcessConfig, parseConfig, type AppConfig } from "../../lib/config";
import { configureWebhooks, createApiContext, type ApiContext } from "../../lib/api/context";
import { createLogger } from "../../lib/api/logger";
import { startNodeHost, type NodeHost } from "../../lib/api/node-host";
import { createApiHandler } from "../../lib/api/router";
import { ROUTE_TABLE } from "../../lib/api/routes";
import { startWebServer } from "../../scripts/web-server";
import type { KeyPartner, KeyScope } from "../../lib/store/api-keys";
import { dropPostgresSchema } from "../../lib/store/db";
import { parseWebhookSettings } from "../../lib/webhooks/settings";
import type { LocalnetHandle } from "../../localnet/localnet";
import {
  closeConnection,
  connect,
  startTestLocalnet,
  type TestLocalnetOptions,
} from "../../localnet/testing";

export const DATABASE_URL = process.env.DATABASE_URL ?? null;
export const REDIS_URL = process.env.REDIS_URL ?? null;

export const USDC = 1_000_000n;

/** `next`: `npm start`'s build with /api through Next.js's route file, as a platform running Next.js alone serves it. */
export type ApiHostKind = "lean" | "production" | "dev" | "next";

function apiHostKind(value: string | undefined): ApiHostKind {
  if (value === undefined || value === "" || value === "lean") {
    return "lean";
  }
  if (value === "production" || value === "dev" || value === "next") {
    return value;
  }
  throw new Error(`API_HOST must be lean, production, dev or next, got ${value}`);
}

/** The host the API suites run against (tests/api/hosts.ts runs them on each). */
export const API_HOST: ApiHostKind = apiHostKind(process.env.API_HOST);

async function startHost(
  context: ApiContext,
  env: Record<string, string>,
): Promise<Pick<NodeHost, "url" | "close">> {
  const listen = { host: "127.0.0.1", port: 0 };
  if (API_HOST === "lean") {
    return startNodeHost(createApiHandler(ROUTE_TABLE, context), listen);
  }
  // Next.js's side (instrumentation, the pages) reads the process's configuration, parsed from the
  // environment as under npm start; installed anew, as an earlier harness of this process may have
  // parsed another. The suites start no indexer on the lean host; the instrumentation would start one.
  Object.assign(process.env, env, { INDEXER: "off" });
  installProcessConfig(createProcessConfig(process.env));
  return startWebServer({
    dev: API_HOST === "dev",
    apiThroughNext: API_HOST === "next",
    hostname: listen.host,
    port: listen.port,
    context,
    metricsToken: null,
  });
}

export function uniqueSuffix(): string {
  return randomBytes(6).toString("hex");
}

export interface KeyOptions {
  scope?: KeyScope;
  vaults?: string[] | null;
  wallet?: string | null;
  rpm?: number;
  /** The partner whose fee the key's deposits pay (issue 32); default none. */
  partner?: KeyPartner | null;
}

export interface HttpResult {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface ApiHarness {
  localnet: LocalnetHandle;
  config: AppConfig;
  context: ApiContext;
  host: Pick<NodeHost, "url" | "close">;
  url: string;
  connection: Connection;
  vaultId: string;
  /** The demo vault without caps or fee. */
  flexVaultId: string;
  schema: string;
  rateLimitPrefix: string;
  createKey(options?: KeyOptions): Promise<{ secret: string; id: string }>;
  /** A new wallet with SOL and `usdc` raw units of the asset in its token account. */
  fundedWallet(usdc?: bigint): Promise<Keypair>;
  request(method: string, path: string, options?: RequestOptions): Promise<HttpResult>;
  /** Signs a built transaction with the wallet, sends it and waits for confirmation; returns the signature. */
  signAndSend(base64: string, wallet: Keypair): Promise<string>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  localnet?: TestLocalnetOptions;
  /** Reuse a running localnet (a second app instance). */
  sharedLocalnet?: LocalnetHandle;
  /** Extra variables, or a function of the localnet for those that name its accounts. */
  env?: Record<string, string> | ((localnet: LocalnetHandle) => Record<string, string>);
  schema?: string;
  rateLimitPrefix?: string;
  /** The live event feed's poll interval (lib/api/context.ts eventPollMs). */
  eventPollMs?: number;
}

export async function startApiHarness(options: HarnessOptions = {}): Promise<ApiHarness> {
  const localnet = options.sharedLocalnet ?? (await startTestLocalnet(options.localnet));
  const schema = options.schema ?? `api_test_${uniqueSuffix()}`;
  const rateLimitPrefix = options.rateLimitPrefix ?? `test:${uniqueSuffix()}`;
  const env: Record<string, string> = {
    RPC_URL: localnet.rpcUrl,
    LOCALNET_ADDRESSES_FILE: localnet.config.addressesFile,
    PGLITE_DIR: ":memory:",
    LOG_LEVEL: "silent",
    SLOT_MS: String(localnet.config.slotMs),
    // The suites' webhook receivers listen on this machine: exempt it, as a developer would.
    WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1/32",
    ...(DATABASE_URL === null ? {} : { DATABASE_URL }),
    ...(REDIS_URL === null ? {} : { REDIS_URL }),
    ...(typeof options.env === "function" ? options.env(localnet) : options.env),
  };
  const config = parseConfig(env);
  const context = createApiContext(config, {
    schema: config.databaseUrl === null ? undefined : schema,
    rateLimitPrefix,
    logger: createLogger("silent"),
    eventPollMs: options.eventPollMs,
  });
  configureWebhooks(context, parseWebhookSettings(env));
  await context.store.ready();
  const host = await startHost(context, env);
  const connection = connect(localnet);
  const [prime, flex] = localnet.addresses.vaults;
  if (prime === undefined || flex === undefined) {
    throw new Error("The localnet has no demo vaults (is programs/vault/vault.so built?)");
  }

  return {
    localnet,
    config,
    context,
    host,
    url: host.url,
    connection,
    vaultId: prime.vault.toBase58(),
    flexVaultId: flex.vault.toBase58(),
    schema,
    rateLimitPrefix,
    async createKey(keyOptions = {}) {
      const { secret, record } = await context.store.keys.create({
        name: `test ${uniqueSuffix()}`,
        scope: keyOptions.scope ?? "write",
        vaults: keyOptions.vaults ?? null,
        wallet: keyOptions.wallet ?? null,
        rpm: keyOptions.rpm ?? 100_000,
        partner: keyOptions.partner ?? null,
        environment: "test",
      });
      return { secret, id: record.id };
    },
    async fundedWallet(usdc = 1_000n * USDC) {
      const wallet = Keypair.generate();
      localnet.faucet.dispenseUsdc(wallet.publicKey, usdc);
      return wallet;
    },
    async request(method, path, requestOptions = {}) {
      const headers: Record<string, string> = { ...requestOptions.headers };
      if (requestOptions.key !== undefined) {
        headers.Authorization = `Bearer ${requestOptions.key}`;
      }
      let body: string | undefined = requestOptions.rawBody;
      if (requestOptions.body !== undefined) {
        body = JSON.stringify(requestOptions.body);
        headers["Content-Type"] ??= "application/json";
      }
      const response = await fetch(`${host.url}${path}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = null;
      try {
        parsed = text === "" ? null : JSON.parse(text);
      } catch {
        parsed = null;
      }
      return { status: response.status, headers: response.headers, body: parsed, text };
    },
    async signAndSend(base64, wallet) {
      const transaction = VersionedTransaction.deserialize(Buffer.from(base64, "base64"));
      transaction.sign([wallet]);
      const signature = await connection.sendTransaction(transaction);
      const latest = await connection.getLatestBlockhash();
      const result = await connection.confirmTransaction({ signature, ...latest }, "confirmed");
      if (result.value.err !== null) {
        throw new Error(`Transaction ${signature} failed: ${JSON.stringify(result.value.err)}`);
      }
      return signature;
    },
    async close() {
      closeConnection(connection);
      await host.close(1_000);
      await context.close();
      if (config.databaseUrl !== null) {
        await dropPostgresSchema(config.databaseUrl, schema);
      }
      if (options.sharedLocalnet === undefined) {
        await localnet.stop();
      }
    },
  };
}

export function dataOf(result: HttpResult): Record<string, unknown> {
  const body = result.body as { success?: boolean; data?: Record<string, unknown> } | null;
  if (body?.success !== true || body.data === undefined) {
    throw new Error(`Expected a success envelope, got ${result.status} ${result.text}`);
  }
  return body.data;
}

export function addressOf(key: PublicKey): string {
  return key.toBase58();
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RawRequestOptions {
  headers?: Record<string, string>;
  /** The socket's own address: another loopback address (127.0.0.2, …) is another client or proxy. */
  localAddress?: string;
}

/**
 * One request over node:http, which sends any method (fetch refuses TRACE and CONNECT) from any local
 * address.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  options: RawRequestOptions = {},
): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({
      host: url.hostname,
      port: url.port,
      method,
      path,
      headers: options.headers,
      localAddress: options.localAddress,
      agent: false,
    });
    const answer = (incoming: IncomingMessage, body: string): RawAnswer => ({
      status: incoming.statusCode ?? 0,
      headers: incoming.headers,
      body,
    });
    outgoing.on("response", (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => resolve(answer(incoming, Buffer.concat(chunks).toString("utf8"))));
    });
    // CONNECT's answer arrives as a `connect` event, with the body on the socket.
    outgoing.on("connect", (incoming, socket, head) => {
      const chunks: Buffer[] = [head];
      socket.on("data", (chunk: Buffer) => chunks.push(chunk));
      socket.on("end", () => resolve(answer(incoming, Buffer.concat(chunks).toString("utf8"))));
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}
