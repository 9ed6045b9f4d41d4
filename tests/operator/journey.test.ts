// The operator's journey, every step a command over JSON-RPC against `npm run localnet -- --empty`:
// deploy the program and check its bytes, create the protocol and set its NAV bounds, create a vault with
// caps and a fee under it, run the keeper (which reads the bounds from the protocol account), let a
// partner deposit, request and claim through /api, upgrade the program with a new build and see the
// vault and a pending receipt survive, then two keepers under one Postgres lock: the leader killed
// mid-run, the other takes over, and no NAV period is struck twice.
import { readFile, writeFile, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Connection, Keypair, PublicKey, SystemProgram, VersionedTransaction } from "@solana/web3.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { createApiContext, type ApiContext } from "../../lib/api/context";
import { createLogger } from "../../lib/api/logger";
import { startNodeHost, type NodeHost } from "../../lib/api/node-host";
import { createApiHandler } from "../../lib/api/router";
import { ROUTE_TABLE } from "../../lib/api/routes";
import {
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
  buildCreateAssociatedTokenAccountIdempotentInstruction,
  buildInitializeMint2Instruction,
  buildMintToInstruction,
  findAssociatedTokenAddress,
} from "../../lib/chain/spl-token";
import { parseConfig } from "../../lib/config";
import { withMetrics } from "../../lib/server/http-metrics";
import { ChainClient } from "../../lib/operator/chain-client";
import { readKeypairFile } from "../../lib/operator/keypair-file";
import { decodeReceiptState, decodeVaultState } from "../../lib/vault/program/accounts";
import { findReceipt } from "../../lib/vault/program/addresses";
import { decodeVaultEvents } from "../../lib/vault/program/events";
import { PROGRAM_BINARY, closeConnection } from "../../localnet/testing";
import { sampleValue, scrapeMetrics } from "../metrics-scrape";
import { runScript, startScript, type RunningProcess } from "./processes";

const DATABASE_URL = process.env.DATABASE_URL ?? null;
const USDC = 1_000_000n;
/** One whole share: the program's shares carry the asset's decimals plus 3. */
const SHARE = 1_000_000_000n;
const NAV_INTERVAL = 3;

interface World {
  directory: string;
  localnet: RunningProcess;
  rpcUrl: string;
  payerFile: string;
  programKeypairFile: string;
  payer: Keypair;
  client: ChainClient;
  connection: Connection;
  mint: PublicKey;
  protocol: PublicKey | null;
  vault: PublicKey | null;
  context: ApiContext | null;
  host: NodeHost | null;
  keepers: RunningProcess[];
  /** Lines the keepers logged, for the report. */
  keeperLog: string[];
}

let world: World;

function lastLine(text: string, pattern: RegExp): string {
  return text.split("\n").find((line) => pattern.test(line)) ?? "";
}

async function createMint(): Promise<PublicKey> {
  const mint = Keypair.generate();
  const lamports = await world.client.rentExempt(MINT_SIZE);
  await world.client.sendAndConfirm(
    "create the USDC-like mint",
    [
      SystemProgram.createAccount({
        fromPubkey: world.payer.publicKey,
        newAccountPubkey: mint.publicKey,
        lamports: Number(lamports),
        space: MINT_SIZE,
        programId: TOKEN_PROGRAM_ID,
      }),
      buildInitializeMint2Instruction(mint.publicKey, 6, world.payer.publicKey, null),
    ],
    world.payer,
    [mint],
  );
  return mint.publicKey;
}

/** A partner's user: SOL from the chain's airdrop, USDC minted by the mint's authority (the payer here). */
async function fundedWallet(usdc: bigint): Promise<Keypair> {
  const wallet = Keypair.generate();
  const airdrop = await world.connection.requestAirdrop(wallet.publicKey, 2_000_000_000);
  await world.connection.confirmTransaction({
    signature: airdrop,
    ...(await world.connection.getLatestBlockhash()),
  });
  const account = findAssociatedTokenAddress(wallet.publicKey, world.mint);
  await world.client.sendAndConfirm(
    "fund the wallet",
    [
      buildCreateAssociatedTokenAccountIdempotentInstruction(
        world.payer.publicKey,
        wallet.publicKey,
        world.mint,
      ),
      buildMintToInstruction(world.mint, account, world.payer.publicKey, usdc),
    ],
    world.payer,
  );
  return wallet;
}

async function api(
  method: string,
  path: string,
  key: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const host = world.host;
  if (host === null) {
    throw new Error("the API is not running");
  }
  const response = await fetch(`${host.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function dataOf(result: { status: number; body: Record<string, unknown> }): Record<string, unknown> {
  if (result.body.success !== true) {
    throw new Error(`expected success, got ${result.status} ${JSON.stringify(result.body)}`);
  }
  return result.body.data as Record<string, unknown>;
}

/** Signs an API-built transaction with the wallet, sends and confirms it, records it with POST /api/history. */
async function signSendRecord(built: Record<string, unknown>, wallet: Keypair, key: string): Promise<string> {
  const transaction = VersionedTransaction.deserialize(Buffer.from(String(built.transaction), "base64"));
  transaction.sign([wallet]);
  const signature = await world.connection.sendTransaction(transaction);
  const confirmation = await world.connection.confirmTransaction(
    {
      signature,
      blockhash: transaction.message.recentBlockhash,
      lastValidBlockHeight: Number(built.lastValidBlockHeight),
    },
    "confirmed",
  );
  expect(confirmation.value.err).toBeNull();
  const vault = world.vault?.toBase58() ?? "";
  dataOf(
    await api("POST", "/api/history", key, {
      wallet: wallet.publicKey.toBase58(),
      vault_id: vault,
      signature,
    }),
  );
  return signature;
}

/** Stops every keeper a test left running (a failed test must not lead the next one's keepers). */
async function stopKeepers(): Promise<void> {
  for (const keeper of world.keepers) {
    await keeper.stop();
  }
}

function startKeeper(name: string, env: Record<string, string> = {}): RunningProcess {
  const keeper = startScript(
    "scripts/keeper.ts",
    [
      "--url",
      world.rpcUrl,
      "--keypair",
      world.payerFile,
      "--protocol",
      world.protocol?.toBase58() ?? "",
      "--nav-source",
      "simulated:10",
      "--mint-authority",
      world.payerFile,
      "--nav-interval",
      String(NAV_INTERVAL),
      "--stage-interval",
      "1",
      "--tick",
      "1",
      // The partner here claims through the API itself, and a receipt must survive the upgrade: no
      // deliveries (lib/keeper/keeper.test.ts covers them).
      "--deliver-max",
      "0",
      "--metrics-port",
      "0",
      "--name",
      name,
    ],
    env,
  );
  keeper.child.stdout?.on("data", (chunk: Buffer) =>
    world.keeperLog.push(...chunk.toString().trimEnd().split("\n")),
  );
  world.keepers.push(keeper);
  return keeper;
}

async function vaultState(): Promise<ReturnType<typeof decodeVaultState>> {
  const vault = world.vault;
  const account = vault === null ? null : await world.client.getAccount(vault);
  if (account === null) {
    throw new Error("no vault");
  }
  return decodeVaultState(account.data);
}

/** Every NAV strike of the vault on chain, from its transactions' events. */
async function navStrikes(): Promise<{ sequence: bigint; timestamp: bigint }[]> {
  const vault = world.vault?.toBase58() ?? "";
  const signatures = await world.connection.getSignaturesForAddress(new PublicKey(vault), { limit: 1000 });
  const strikes: { sequence: bigint; timestamp: bigint }[] = [];
  for (const entry of signatures) {
    const transaction = await world.connection.getTransaction(entry.signature, {
      maxSupportedTransactionVersion: 0,
    });
    for (const event of decodeVaultEvents(transaction?.meta?.logMessages ?? [])) {
      if (event.name === "NavUpdated") {
        strikes.push({ sequence: event.data.navSequence, timestamp: event.data.timestamp });
      }
    }
  }
  return strikes.sort((left, right) => Number(left.sequence - right.sequence));
}

beforeAll(async () => {
  const directory = await mkdtemp(join(tmpdir(), "operator-journey-"));
  const localnet = startScript("localnet/main.ts", [
    "--empty",
    "--rpc-port",
    "0",
    "--ws-port",
    "0",
    "--slot-ms",
    "100",
    "--addresses-file",
    join(directory, "addresses.json"),
    "--payer-keypair",
    join(directory, "payer.json"),
  ]);
  const rpcLine = await localnet.waitForLine(/JSON-RPC\s+http/);
  const rpcUrl = rpcLine.split(/\s+/).at(-1) ?? "";
  const wsUrl = (await localnet.waitForLine(/PubSub\s+ws/)).split(/\s+/).at(-1) ?? "";
  const payerFile = join(directory, "payer.json");
  const client = new ChainClient(rpcUrl);
  world = {
    directory,
    localnet,
    rpcUrl,
    payerFile,
    programKeypairFile: join(directory, "vault-program-keypair.json"),
    payer: await readKeypairFile(payerFile),
    client,
    connection: new Connection(rpcUrl, { commitment: "confirmed", wsEndpoint: wsUrl }),
    mint: PublicKey.default,
    protocol: null,
    vault: null,
    context: null,
    host: null,
    keepers: [],
    keeperLog: [],
  };
}, 60_000);

afterAll(async () => {
  for (const keeper of world.keepers) {
    await keeper.stop("SIGKILL");
  }
  await world.host?.close(1_000);
  await world.context?.close();
  closeConnection(world.connection);
  await world.localnet.stop();
  console.log(`operator journey: keeper log\n${world.keeperLog.join("\n")}`);
});

describe("the operator journey on an empty chain", () => {
  afterEach(stopKeepers);

  it("deploys the program and verifies its bytes", async () => {
    const deploy = await runScript("scripts/program-deploy.ts", [
      "--url",
      world.rpcUrl,
      "--keypair",
      world.payerFile,
      "--program-keypair",
      world.programKeypairFile,
    ]);
    expect(deploy.stderr).toBe("");
    expect(deploy.code).toBe(0);
    const binary = await readFile(PROGRAM_BINARY);
    const { createHash } = await import("node:crypto");
    const sha256 = createHash("sha256").update(binary).digest("hex");
    expect(deploy.stdout).toContain(`Program Id: 4eZ1RNBKAGZY9ptCQh1TqcCAnxHW7CHL4xF99J6MWpVB (deployed)`);
    expect(deploy.stdout).toContain(`verified: the ${binary.length} bytes on chain equal`);
    expect(deploy.stdout).toContain(`sha256 ${sha256}`);
    console.log(`operator journey: ${lastLine(deploy.stdout, /transactions \(/).trim()}`);
  }, 120_000);

  it("creates the protocol and sets its NAV bounds (simulated first, sent with --yes)", async () => {
    const common = ["--url", world.rpcUrl, "--keypair", world.payerFile];
    const init = ["init", ...common, "--max-gain-bps", "100", "--max-loss-bps", "100", "--min-interval", "1"];
    const dryRun = await runScript("scripts/protocol.ts", init);
    expect(dryRun.stderr).toBe("");
    expect(dryRun.stdout).toContain("max_gain_bps:  -> 100");
    expect(dryRun.stdout).toContain("not sent: pass --yes to send it");
    const created = await runScript("scripts/protocol.ts", [...init, "--yes"]);
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/sent: [1-9A-HJ-NP-Za-km-z]{64,88}/);
    world.protocol = new PublicKey(
      lastLine(created.stdout, /^protocol [1-9A-HJ-NP-Za-km-z]+$/).split(" ")[1] ?? "",
    );
    expect((await runScript("scripts/protocol.ts", [...init, "--yes"])).stderr).toContain(
      `already created protocol ${world.protocol.toBase58()}`,
    );

    const bounds = await runScript("scripts/protocol.ts", [
      "set-bounds",
      ...common,
      "--max-gain-bps",
      "50",
      "--min-interval",
      "2",
      "--yes",
    ]);
    expect(bounds.stderr).toBe("");
    expect(bounds.stdout).toContain("max_gain_bps: 100 -> 50");
    expect(bounds.stdout).toContain("min_nav_interval_seconds: 1 -> 2");
    expect(bounds.stdout).not.toContain("max_loss_bps");
    const shown = await runScript("scripts/protocol.ts", [
      "show",
      "--url",
      world.rpcUrl,
      world.protocol.toBase58(),
    ]);
    expect(shown.stdout).toContain(`admin                ${world.payer.publicKey.toBase58()}`);
    expect(shown.stdout).toContain("max gain per strike  50 bps");
    expect(shown.stdout).toContain("max loss per strike  100 bps");
    expect(shown.stdout).toContain("min strike interval  2 s");
    expect(shown.stdout).toContain("max partner fee      100 bps");

    // The partner fee's maximum: the admin's, within the program's 500 bps ceiling.
    const tooHigh = await runScript("scripts/protocol.ts", [
      "set-max-partner-fee",
      ...common,
      "--max-bps",
      "501",
    ]);
    expect(tooHigh.code).not.toBe(0);
    expect(tooHigh.stderr).toContain('--max-bps must be 0–500 bps; got "501"');
    const partnerFee = await runScript("scripts/protocol.ts", [
      "set-max-partner-fee",
      ...common,
      "--max-bps",
      "50",
      "--yes",
    ]);
    expect(partnerFee.stderr).toBe("");
    expect(partnerFee.stdout).toContain("max_partner_fee_bps: 100 -> 50");
    const after = await runScript("scripts/protocol.ts", [
      "show",
      "--url",
      world.rpcUrl,
      world.protocol.toBase58(),
    ]);
    expect(after.stdout).toContain("max partner fee      50 bps");
    console.log(`operator journey: protocol ${world.protocol.toBase58()}\n${shown.stdout}`);
  }, 120_000);

  it("creates a vault with caps and a fee (simulated first, sent with --yes)", async () => {
    world.mint = await createMint();
    const args = [
      "create",
      "--url",
      world.rpcUrl,
      "--keypair",
      world.payerFile,
      "--manager",
      world.payer.publicKey.toBase58(),
      "--asset-mint",
      world.mint.toBase58(),
      "--name",
      "Partner USDC",
      "--fee-bps",
      "25",
      "--min-withdrawal-shares",
      String(SHARE),
      "--hourly-cap",
      String(10_000n * USDC),
      "--daily-cap",
      String(50_000n * USDC),
    ];
    const dryRun = await runScript("scripts/vault.ts", args);
    expect(dryRun.code).toBe(0);
    expect(dryRun.stdout).toContain("fee_bps:  -> 25");
    expect(dryRun.stdout).toContain("not sent: pass --yes to send it");
    const created = await runScript("scripts/vault.ts", [...args, "--yes"]);
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/sent: [1-9A-HJ-NP-Za-km-z]{64,88}/);
    expect(created.stdout).toContain("https://explorer.solana.com/tx/");
    expect(created.stdout).toContain("cluster=custom&customUrl=");
    world.vault = new PublicKey(
      lastLine(created.stdout, /^vault [1-9A-HJ-NP-Za-km-z]+$/).split(" ")[1] ?? "",
    );
    const state = await vaultState();
    expect(state).toMatchObject({
      protocol: world.protocol,
      index: 0n,
      shareDecimals: 9,
      name: "Partner USDC",
      feeBps: 25,
      hourlyCap: 10_000n * USDC,
      dailyCap: 50_000n * USDC,
    });
  }, 120_000);

  it("serves a partner through /api while the keeper strikes and stages: deposit, request, claim", async () => {
    const vault = world.vault?.toBase58() ?? "";
    const config = parseConfig({
      RPC_URL: world.rpcUrl,
      DEFAULT_VAULT_ID: vault,
      PROTOCOL_ID: world.protocol?.toBase58() ?? "",
      LOCALNET_ADDRESSES_FILE: join(world.directory, "addresses.json"),
      PGLITE_DIR: ":memory:",
      LOG_LEVEL: "silent",
      SLOT_MS: "100",
      NAV_INTERVAL_SECONDS: String(NAV_INTERVAL),
    });
    const context = createApiContext(config, { logger: createLogger("silent") });
    await context.store.ready();
    world.context = context;
    world.host = await startNodeHost(withMetrics(createApiHandler(ROUTE_TABLE, context), null), {
      host: "127.0.0.1",
      port: 0,
    });
    const { secret: key } = await context.store.keys.create({
      name: "partner",
      scope: "write",
      vaults: null,
      wallet: null,
      rpm: 100_000,
      environment: "test",
    });

    const wallet = await fundedWallet(1_000n * USDC);
    const owner = wallet.publicKey.toBase58();
    await signSendRecord(
      dataOf(await api("POST", `/api/vault/${vault}/deposit`, key, { wallet: owner, uiAmount: 500 })),
      wallet,
      key,
    );
    // The vault had nothing to price before the deposit: its first strike comes after it.
    const keeper = startKeeper("keeper-a");
    await keeper.waitForLine(/NAV #1/, 90_000);

    await signSendRecord(
      dataOf(
        await api("POST", `/api/vault/${vault}/withdraw`, key, {
          wallet: owner,
          sharesAmount: String(100n * SHARE),
        }),
      ),
      wallet,
      key,
    );
    // The keeper's next strike passes the receipt's NAV floor and its staging funds the queue.
    let status: Record<string, unknown> = {};
    for (let attempt = 0; attempt < 300 && status.canClaimNow !== true; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = dataOf(await api("GET", `/api/vault/${vault}/withdraw?wallet=${owner}`, key));
    }
    expect(status.canClaimNow).toBe(true);
    await keeper.waitForLine(/staged the queue/);
    const before = await world.connection.getTokenAccountBalance(
      findAssociatedTokenAddress(wallet.publicKey, world.mint),
    );
    await signSendRecord(
      dataOf(await api("POST", `/api/vault/${vault}/withdraw`, key, { wallet: owner })),
      wallet,
      key,
    );
    const after = await world.connection.getTokenAccountBalance(
      findAssociatedTokenAddress(wallet.publicKey, world.mint),
    );
    // 100 shares at a share price just above 1 (the keeper's yield), less the 0.25 % fee.
    const received = BigInt(after.value.amount) - BigInt(before.value.amount);
    expect(received).toBeGreaterThanOrEqual(99_750_000n);
    expect(received).toBeLessThan(100n * USDC);
    const feed = dataOf(await api("GET", `/api/history?wallet=${owner}&vault_id=${vault}`, key));
    expect((feed.activity as unknown[]).length).toBe(3);

    const metricsLine = await keeper.waitForLine(/metrics http/);
    const metricsUrl = /metrics (http\S+)/.exec(metricsLine)?.[1] ?? "";
    const scrape = await scrapeMetrics(metricsUrl);
    expect(sampleValue(scrape, "keeper_leader", { keeper: "keeper-a" })).toBe(1);
    expect(sampleValue(scrape, "keeper_last_strike_timestamp_seconds", { vault })).toBeGreaterThan(0);
    expect(sampleValue(scrape, "keeper_last_staging_timestamp_seconds", { vault })).toBeGreaterThan(0);
    expect(
      sampleValue(scrape, "solana_rpc_calls_total", { method: "sendTransaction", outcome: "ok" }),
    ).toBeGreaterThan(0);
    await keeper.stop();

    // The API host's own metrics saw the partner's requests under their route patterns.
    const apiScrape = await scrapeMetrics(`${world.host.url}/metrics`);
    const depositRoute = { route: "/api/vault/:vault_id/deposit", method: "POST", status: "200" };
    expect(sampleValue(apiScrape, "http_requests_total", depositRoute)).toBe(1);
    expect(
      sampleValue(apiScrape, "http_requests_total", { route: "/api/history", method: "POST", status: "200" }),
    ).toBe(3);
    expect(sampleValue(apiScrape, "blockhash_cache_age_seconds")).toBeGreaterThanOrEqual(0);
  }, 180_000);

  it("upgrades the program with a new build; the vault and a pending receipt survive and still work", async () => {
    const vault = world.vault;
    if (vault === null || world.context === null) {
      throw new Error("no vault");
    }
    const key = (
      await world.context.store.keys.create({
        name: "partner 2",
        scope: "write",
        vaults: null,
        wallet: null,
        rpm: 100_000,
        environment: "test",
      })
    ).secret;
    const wallet = await fundedWallet(300n * USDC);
    const owner = wallet.publicKey.toBase58();
    await signSendRecord(
      dataOf(
        await api("POST", `/api/vault/${vault.toBase58()}/deposit`, key, { wallet: owner, uiAmount: 200 }),
      ),
      wallet,
      key,
    );
    await signSendRecord(
      dataOf(
        await api("POST", `/api/vault/${vault.toBase58()}/withdraw`, key, {
          wallet: owner,
          sharesAmount: String(50n * SHARE),
        }),
      ),
      wallet,
      key,
    );
    const receiptAddress = findReceipt(vault, wallet.publicKey);
    const receiptBefore = await world.client.getAccount(receiptAddress);
    const vaultBefore = await vaultState();

    // A new build: the same program with 12 KiB more room, which the deploy extends the account for.
    const binary = await readFile(PROGRAM_BINARY);
    const larger = Buffer.concat([binary, Buffer.alloc(12 * 1024)]);
    const newBuild = join(world.directory, "vault-next.so");
    await writeFile(newBuild, larger);
    const upgrade = await runScript("scripts/program-deploy.ts", [
      "--url",
      world.rpcUrl,
      "--keypair",
      world.payerFile,
      "--program-keypair",
      world.programKeypairFile,
      "--program",
      newBuild,
    ]);
    expect(upgrade.stderr).toBe("");
    expect(upgrade.stdout).toContain("(upgraded)");
    expect(upgrade.stdout).toContain(`verified: the ${larger.length} bytes on chain equal`);
    console.log(`operator journey: upgrade ${lastLine(upgrade.stdout, /transactions \(/).trim()}`);

    const receiptAfter = await world.client.getAccount(receiptAddress);
    expect(receiptAfter?.data).toEqual(receiptBefore?.data);
    expect(decodeReceiptState(receiptAfter?.data ?? new Uint8Array()).shares).toBe(50n * SHARE);
    expect(await vaultState()).toEqual(vaultBefore);

    // The upgraded program serves the receipt: the keeper makes it claimable and the claim pays.
    const keeper = startKeeper("keeper-after-upgrade");
    let status: Record<string, unknown> = {};
    for (let attempt = 0; attempt < 300 && status.canClaimNow !== true; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = dataOf(await api("GET", `/api/vault/${vault.toBase58()}/withdraw?wallet=${owner}`, key));
    }
    expect(status.canClaimNow).toBe(true);
    await signSendRecord(
      dataOf(await api("POST", `/api/vault/${vault.toBase58()}/withdraw`, key, { wallet: owner })),
      wallet,
      key,
    );
    expect(await world.client.getAccount(receiptAddress)).toBeNull();
    await keeper.stop();
  }, 180_000);

  it.skipIf(DATABASE_URL === null)(
    "runs two keepers with one leader; the leader killed mid-run, the other takes over without a double strike",
    async () => {
      const url = DATABASE_URL ?? "";
      const env = { DATABASE_URL: url };
      const first = startKeeper("keeper-1", env);
      await first.waitForLine(/keeper keeper-1: leading/, 90_000);
      const second = startKeeper("keeper-2", env);
      await second.waitForLine(/keeper keeper-2: another keeper leads; waiting/, 90_000);
      // Killed right after a strike, before that cycle's staging: the follower must not strike that
      // period again.
      const strikeLines = (): number => first.lines.filter((line) => /NAV #\d+/.test(line)).length;
      const seen = strikeLines();
      for (let waited = 0; strikeLines() === seen && waited < 60_000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(strikeLines()).toBeGreaterThan(seen);
      await first.stop("SIGKILL");
      await second.waitForLine(/keeper keeper-2: leading/, 60_000);
      const sequenceAtTakeover = (await vaultState()).navSequence;
      await second.waitForLine(/NAV #\d+/, 60_000);
      expect((await vaultState()).navSequence).toBeGreaterThan(sequenceAtTakeover);
      await second.stop();

      const strikes = await navStrikes();
      const periods = strikes.map((strike) => strike.timestamp / BigInt(NAV_INTERVAL));
      expect(new Set(periods.map(String)).size).toBe(periods.length);
      expect(strikes.map((strike) => strike.sequence)).toEqual(
        strikes.map((_strike, index) => BigInt(index + 1)),
      );
    },
    240_000,
  );
});
