// npm run bench:estimates — does the arrival band partners get (GET /api/vault/{vault_id}/withdraw,
// `estimate.band`) contain the time a queued withdrawal actually becomes claimable (issue 29, item 1)?
// A local chain runs in a child process with its keeper on its own schedule (the localnet's defaults:
// a NAV strike each 60 s period, a staging of at most 25,000 shares every 20 s, a look a second;
// --keeper-nav-interval, --keeper-stage-interval and --keeper-stage-max-shares pass the localnet's own
// flags, and the API is told the same settings, as `npm run dev` tells it). The partner API runs on the
// lean node:http host in this process. Wallets are funded by the faucet and deposit through the typed
// partner client; then `--requests` withdrawals (50) of mixed sizes — small, medium and large against
// the capped vault's hourly cap and against the per-staging cap on the uncapped one — go out in waves
// of concurrent requests, so the queue has depth. Each request's band is the status read right after
// the client's withdraw returns (confirmed and recorded). Its claimable time is the chain's: the later
// of the first NAV struck past its floor and the first staging that funded the queue through its end
// (each event's Clock timestamp, whole seconds), confirmed by the status endpoint's canClaimNow (or the
// receipt gone: delivered); when the status still says no, the status is polled and the chain's clock
// at the first yes is the time. A band contains a claimable second when they overlap at the clock's
// resolution (earliest rounded down to its second, latest as given). Prints a line per request and the
// share inside, the median band width and the median error (claimable − band middle); exits 1 below 90%.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { Connection, Keypair, PublicKey, type VersionedTransaction } from "@solana/web3.js";
import { z } from "zod";

import { exitOnCommandLineError, integerFlag, parseCommandLine } from "../lib/cli/args";
import { createApiContext, type ApiContext } from "../lib/api/context";
import { createLogger } from "../lib/api/logger";
import { startNodeHost, type NodeHost } from "../lib/api/node-host";
import { createApiHandler } from "../lib/api/router";
import { ROUTE_TABLE } from "../lib/api/routes";
import {
  createVaultClient,
  type TransactionSigner,
  type VaultClient,
  type WithdrawalStatus,
} from "../lib/client";
import { parseConfig } from "../lib/config";
import { decodeVaultState, type VaultState } from "../lib/vault/program/accounts";
import { decodeVaultEvents, type VaultEvent } from "../lib/vault/program/events";
import {
  assetsForSharesRoundUp,
  shareDecimalsFor,
  sharesForAssetsRoundDown,
} from "../lib/vault/model/share-math";
import { parseLocalnetConfig, type KeeperConfig } from "../localnet/config";
import { localTickSeconds } from "../localnet/keeper";
import { closeConnection } from "../localnet/testing";
import { runPool } from "../lib/work-pool";
import { spawnLocalnet, waitForAddresses } from "../localnet/process";

const USAGE = `Usage: npm run bench:estimates -- [options]
  --requests <n>                  withdrawal requests (default 50)
  --seed <n>                      the plan's random seed: sizes, vaults, waves (default 29)
  --keeper-nav-interval <s>       the localnet keeper's NAV period (its default 60)
  --keeper-stage-interval <s>     the localnet keeper's staging interval (its default 20)
  --keeper-stage-max-shares <raw> the localnet keeper's shares per staging (its default 25000000000000)
  --deadline <s>                  seconds after the last request to wait for the rest (default 300)
  --verbose                       print the localnet's (the keeper's) log lines`;

const TARGET_SHARE_INSIDE = 0.9;
/** How often the chain's vault transactions are read for strikes and stagings. */
const OBSERVE_MS = 1_000;

interface BenchOptions {
  requests: number;
  seed: number;
  /** The localnet's own keeper flags, as given. */
  keeperArgs: string[];
  deadlineSeconds: number;
  verbose: boolean;
}

export function parseOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseCommandLine(argv, {
    requests: { type: "string" },
    seed: { type: "string" },
    "keeper-nav-interval": { type: "string" },
    "keeper-stage-interval": { type: "string" },
    "keeper-stage-max-shares": { type: "string" },
    deadline: { type: "string" },
    verbose: { type: "boolean" },
  });
  const keeperArgs: string[] = [];
  for (const flag of ["keeper-nav-interval", "keeper-stage-interval", "keeper-stage-max-shares"] as const) {
    const value = values[flag];
    if (value !== undefined) {
      keeperArgs.push(`--${flag}`, value);
    }
  }
  return {
    requests: integerFlag("--requests", values.requests, { min: 1, max: 500 }, 50),
    seed: integerFlag("--seed", values.seed, { min: 1, max: 2 ** 31 }, 29),
    keeperArgs,
    deadlineSeconds: integerFlag("--deadline", values.deadline, { min: 1, max: 3_600 }, 300),
    verbose: values.verbose ?? false,
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** mulberry32: a small seeded generator, so a seed names one plan. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

// ---- the local chain -------------------------------------------------------------------------------

const addressesSchema = z.object({
  rpcUrl: z.string(),
  wsUrl: z.string(),
  faucetUrl: z.string(),
  asset: z.object({ symbol: z.string(), decimals: z.number().int() }),
  vaults: z.array(z.object({ id: z.string(), name: z.string() })).min(1),
});

type Addresses = z.infer<typeof addressesSchema>;

interface LocalnetProcess {
  addresses: Addresses;
  addressesFile: string;
  /** The localnet's last log lines (the keeper's among them), for a failed run's report. */
  logTail(): string[];
  stop(): Promise<void>;
}

const LOG_TAIL_LINES = 200;

async function startLocalnetProcess(localnetArgs: string[], verbose: boolean): Promise<LocalnetProcess> {
  const localnet = await spawnLocalnet(localnetArgs, { tempPrefix: "bench-estimates-", stdout: "pipe" });
  const { child, addressesFile, stop } = localnet;
  const tail: string[] = [];
  let partial = "";
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (chunk: string) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      tail.push(line);
      if (tail.length > LOG_TAIL_LINES) {
        tail.shift();
      }
      if (verbose) {
        console.log(`  localnet | ${line}`);
      }
    }
  });
  // Compiling and starting the chain on a busy machine can take a while.
  const addresses = await waitForAddresses(localnet, addressesSchema, 180_000, 200);
  if (addresses === null) {
    await stop();
    throw new Error(`the localnet did not start:\n${tail.join("\n")}`);
  }
  return { addresses, addressesFile, logTail: () => [...tail], stop };
}

// ---- the partner API -------------------------------------------------------------------------------

interface ApiHost {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

/** The API on the lean host, told the keeper's settings as `npm run dev` tells it (localnet/dev.ts). */
async function startApi(localnet: LocalnetProcess, keeper: KeeperConfig, slotMs: number): Promise<ApiHost> {
  const config = parseConfig({
    RPC_URL: localnet.addresses.rpcUrl,
    LOCALNET_ADDRESSES_FILE: localnet.addressesFile,
    PGLITE_DIR: ":memory:",
    LOG_LEVEL: "silent",
    SLOT_MS: String(slotMs),
    NAV_INTERVAL_SECONDS: String(keeper.navIntervalSeconds),
    STAGE_INTERVAL_SECONDS: String(keeper.stageIntervalSeconds),
    STAGE_MAX_SHARES: keeper.stageMaxShares.toString(),
    KEEPER_TICK_SECONDS: String(Math.max(1, Math.ceil(localTickSeconds(keeper)))),
  });
  const context: ApiContext = createApiContext(config, { logger: createLogger("silent") });
  await context.store.ready();
  const { secret } = await context.store.keys.create({
    name: "bench:estimates",
    scope: "write",
    rpm: 1_000_000,
  });
  const host: NodeHost = await startNodeHost(createApiHandler(ROUTE_TABLE, context), {
    host: "127.0.0.1",
    port: 0,
  });
  return {
    url: host.url,
    apiKey: secret,
    close: async () => {
      await host.close(1_000);
      await context.close();
    },
  };
}

// ---- the plan --------------------------------------------------------------------------------------

type SizeClass = "small" | "medium" | "large";

interface BenchVault {
  address: PublicKey;
  name: string;
  client: VaultClient;
  /** The tighter of its hourly and daily net caps, raw asset units; null when uncapped. */
  cap: bigint | null;
}

interface PlannedRequest {
  number: number;
  vault: BenchVault;
  size: SizeClass;
  shares: bigint;
  /** The size against what it is measured by: "18% of the hourly cap", "1.9× a staging". */
  relative: string;
  wave: number;
}

interface Wave {
  /** Wait before the wave, after the previous one was sent. */
  delayMs: number;
  requests: PlannedRequest[];
}

/** [low, high) fractions per size: of the cap on a capped vault, of one staging on an uncapped one. */
const CAPPED_SIZES: Record<SizeClass, [number, number]> = {
  small: [0.0004, 0.004],
  medium: [0.01, 0.03],
  large: [0.08, 0.14],
};
const STAGING_SIZES: Record<SizeClass, [number, number]> = {
  small: [0.002, 0.03],
  medium: [0.15, 0.5],
  large: [1.1, 2.2],
};
/** At most this share of a capped vault's cap is requested in all (the caps refuse the rest). */
const CAP_BUDGET = 0.95;
/** At most this many stagings' worth of shares on an uncapped vault, so the queue drains within the run. */
const STAGING_BUDGET = 14;
/** Requests per wave, sent at once; the waves' spacing, ms. */
const WAVE_SIZE: [number, number] = [1, 7];
const WAVE_SPACING_MS: [number, number] = [5_000, 25_000];

function pickSize(random: () => number): SizeClass {
  const roll = random();
  return roll < 0.45 ? "small" : roll < 0.8 ? "medium" : "large";
}

const SMALLER: Record<SizeClass, SizeClass | null> = { large: "medium", medium: "small", small: null };

function between(random: () => number, [low, high]: [number, number]): number {
  return low + (high - low) * random();
}

/** A fraction of a bigint, to a millionth. */
function fractionOf(amount: bigint, fraction: number): bigint {
  return (amount * BigInt(Math.round(fraction * 1_000_000))) / 1_000_000n;
}

interface SizedRequest {
  vault: BenchVault;
  size: SizeClass;
  shares: bigint;
  relative: string;
  /** What it takes from the vault's budget: assets on a capped vault, shares on an uncapped one. */
  cost: bigint;
}

/** A request of the wanted size on the vault, or of the largest smaller one its budget takes; null: none. */
function sizeRequest(
  { vault, state }: { vault: BenchVault; state: VaultState },
  wanted: SizeClass,
  random: () => number,
  stageMaxShares: bigint,
  spent: bigint,
): SizedRequest | null {
  for (let size: SizeClass | null = wanted; size !== null; size = SMALLER[size]) {
    if (vault.cap !== null) {
      const fraction = between(random, CAPPED_SIZES[size]);
      const assets = fractionOf(vault.cap, fraction);
      if (spent + assets <= fractionOf(vault.cap, CAP_BUDGET)) {
        return {
          vault,
          size,
          shares: sharesForAssetsRoundDown(assets, state.totalAssets, state.totalShares),
          relative: `${(fraction * 100).toFixed(fraction < 0.01 ? 2 : 1)}% of the cap`,
          cost: assets,
        };
      }
    } else {
      const fraction = between(random, STAGING_SIZES[size]);
      const shares = fractionOf(stageMaxShares, fraction);
      if (spent + shares <= stageMaxShares * BigInt(STAGING_BUDGET)) {
        return {
          vault,
          size,
          shares,
          relative: `${fraction.toFixed(fraction < 0.1 ? 3 : 2)}× a staging`,
          cost: shares,
        };
      }
    }
  }
  return null;
}

function planRequests(
  count: number,
  random: () => number,
  vaults: readonly { vault: BenchVault; state: VaultState }[],
  stageMaxShares: bigint,
): Wave[] {
  const used = new Map<BenchVault, bigint>();
  const waves: Wave[] = [];
  let number = 1;
  while (number <= count) {
    const size = Math.min(count - number + 1, Math.floor(between(random, WAVE_SIZE)));
    const wave: Wave = {
      delayMs: waves.length === 0 ? 0 : Math.round(between(random, WAVE_SPACING_MS)),
      requests: [],
    };
    for (let index = 0; index < size; index += 1) {
      const first = Math.floor(random() * vaults.length);
      const picked = pickSize(random);
      // The picked vault first; one whose budget cannot take even a small request passes it on.
      let sized: SizedRequest | null = null;
      for (let offset = 0; sized === null && offset < vaults.length; offset += 1) {
        const entry = vaults[(first + offset) % vaults.length];
        if (entry !== undefined) {
          sized = sizeRequest(entry, picked, random, stageMaxShares, used.get(entry.vault) ?? 0n);
        }
      }
      if (sized === null) {
        throw new Error("every vault's budget is spent: fewer --requests, or another --seed");
      }
      used.set(sized.vault, (used.get(sized.vault) ?? 0n) + sized.cost);
      const { vault, size: chosen, shares, relative } = sized;
      wave.requests.push({ number, vault, size: chosen, shares, relative, wave: waves.length + 1 });
      number += 1;
    }
    waves.push(wave);
  }
  return waves;
}

// ---- wallets ---------------------------------------------------------------------------------------

interface FundedRequest {
  planned: PlannedRequest;
  wallet: Keypair;
  signer: TransactionSigner;
}

function signerOf(wallet: Keypair): TransactionSigner {
  return {
    publicKey: wallet.publicKey,
    async signTransaction(transaction: VersionedTransaction) {
      transaction.sign([wallet]);
      return transaction;
    },
  };
}

/** Faucet USDC for the request's shares and a margin, deposited through the partner client. */
async function fundRequest(
  planned: PlannedRequest,
  faucetUrl: string,
  state: VaultState,
): Promise<FundedRequest> {
  const wallet = Keypair.generate();
  const owner = wallet.publicKey.toBase58();
  const needed = assetsForSharesRoundUp(planned.shares, state.totalAssets, state.totalShares);
  // A percent and a unit over: the NAV moves between the plan and the deposit.
  const amount = needed + needed / 100n + 1_000_000n;
  const response = await fetch(faucetUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ wallet: owner, amount: amount.toString() }),
  });
  if (!response.ok) {
    throw new Error(`the faucet answered ${response.status}: ${await response.text()}`);
  }
  const signer = signerOf(wallet);
  await planned.vault.client.deposit({ wallet: owner, amount: amount.toString() }, signer);
  return { planned, wallet, signer };
}

// ---- measuring -------------------------------------------------------------------------------------

interface Measured {
  planned: PlannedRequest;
  wallet: string;
  signature: string;
  /** From the request's WithdrawalRequested event: the chain's clock, its NAV floor and queue end. */
  requestedAt: number;
  navFloor: bigint;
  queueEnd: bigint;
  /** When the status was read (this machine's clock, as the API's), and what it said. */
  readAtMs: number;
  estimate: WithdrawalStatus["estimate"];
  /** Chain seconds: the later of the strike past the floor and the staging through the end; null before. */
  conditionsMetAt: number | null;
  /** Chain seconds at which it was claimable (or delivered); null until known. */
  claimableAt: number | null;
  /** How claimableAt was found: the chain's events (the status agreed), or the status polled. */
  source: "events" | "status" | null;
}

/** The strikes and stagings of one vault, from its transactions, in the order read. */
class VaultEvents {
  readonly strikes: { sequence: bigint; at: number }[] = [];
  readonly stagings: { funded: bigint; at: number }[] = [];
  private newest: string | null = null;

  constructor(
    private readonly connection: Connection,
    readonly vault: PublicKey,
  ) {}

  /** Reads the vault's transactions since the last read. */
  async refresh(): Promise<void> {
    const signatures = await this.connection.getSignaturesForAddress(
      this.vault,
      { limit: 1_000, ...(this.newest === null ? {} : { until: this.newest }) },
      "confirmed",
    );
    // Newest first: handled oldest first, so each list stays in chain order.
    for (const entry of [...signatures].reverse()) {
      if (entry.err !== null) {
        continue;
      }
      for (const event of await transactionEvents(this.connection, entry.signature)) {
        if (event.name === "NavUpdated" && event.data.vault.equals(this.vault)) {
          this.strikes.push({ sequence: event.data.navSequence, at: Number(event.data.timestamp) });
        } else if (event.name === "WithdrawalsStaged" && event.data.vault.equals(this.vault)) {
          this.stagings.push({ funded: event.data.queueFunded, at: Number(event.data.timestamp) });
        }
      }
    }
    this.newest = signatures[0]?.signature ?? this.newest;
  }

  /** When both of the request's conditions were first met, chain seconds; null while one is not. */
  conditionsMetAt(navFloor: bigint, queueEnd: bigint): number | null {
    const struck = this.strikes.find((strike) => strike.sequence > navFloor);
    const funded = this.stagings.find((staging) => staging.funded >= queueEnd);
    return struck === undefined || funded === undefined ? null : Math.max(struck.at, funded.at);
  }
}

async function transactionEvents(connection: Connection, signature: string): Promise<VaultEvent[]> {
  const transaction = await connection.getTransaction(signature, {
    commitment: "confirmed",
    maxSupportedTransactionVersion: 0,
  });
  // A listed signature the node cannot return would drop a strike or a staging unseen.
  if (transaction === null) {
    throw new Error(`the chain does not return the transaction ${signature}`);
  }
  return decodeVaultEvents(transaction.meta?.logMessages ?? []);
}

async function chainNowSeconds(connection: Connection): Promise<number> {
  const slot = await connection.getSlot("confirmed");
  const time = await connection.getBlockTime(slot);
  if (time === null) {
    throw new Error(`the chain has no block time for slot ${slot}`);
  }
  return time;
}

/** Requests one withdrawal through the partner client and reads its status at once. */
async function requestWithdrawal(funded: FundedRequest, connection: Connection): Promise<Measured> {
  const { planned, wallet, signer } = funded;
  const owner = wallet.publicKey.toBase58();
  const { signature } = await planned.vault.client.withdraw(
    { wallet: owner, sharesAmount: planned.shares.toString() },
    signer,
  );
  const readAtMs = Date.now();
  const status = await planned.vault.client.withdrawalStatus(owner);
  const requested = (await transactionEvents(connection, signature)).find(
    (event) => event.name === "WithdrawalRequested",
  );
  if (requested === undefined || requested.name !== "WithdrawalRequested") {
    throw new Error(`request #${planned.number} (${signature}) has no WithdrawalRequested event`);
  }
  return {
    planned,
    wallet: owner,
    signature,
    requestedAt: Number(requested.data.timestamp),
    navFloor: requested.data.navFloor,
    queueEnd: requested.data.queueEnd,
    readAtMs,
    estimate: status.estimate,
    conditionsMetAt: null,
    claimableAt: null,
    source: null,
  };
}

/**
 * One pass over the pending requests: the vaults' new events; a request whose conditions are met is
 * asked of the status endpoint, and counts as claimable when it says so (or the receipt is gone).
 */
async function observe(
  connection: Connection,
  events: ReadonlyMap<string, VaultEvents>,
  pending: Measured[],
): Promise<void> {
  await Promise.all([...events.values()].map((vault) => vault.refresh()));
  for (const request of pending) {
    if (request.claimableAt !== null) {
      continue;
    }
    const vaultEvents = events.get(request.planned.vault.address.toBase58());
    request.conditionsMetAt ??= vaultEvents?.conditionsMetAt(request.navFloor, request.queueEnd) ?? null;
    if (request.conditionsMetAt === null) {
      continue;
    }
    const status = await request.planned.vault.client.withdrawalStatus(request.wallet);
    if (status.canClaimNow || !status.hasPendingWithdrawal) {
      if (request.source === null) {
        // Claimable as soon as its conditions were: the events' time is the claimable time.
        request.claimableAt = request.conditionsMetAt;
        request.source = "events";
      } else {
        request.claimableAt = await chainNowSeconds(connection);
      }
    } else {
      // Struck and funded, and still not claimable (the reserve is short): the status is polled.
      request.source = "status";
    }
  }
}

// ---- the report ------------------------------------------------------------------------------------

interface Scored {
  request: Measured;
  inside: boolean;
  widthSeconds: number | null;
  /** Claimable time − the band's middle, seconds. */
  errorSeconds: number | null;
}

function score(request: Measured): Scored {
  const band = request.estimate?.band ?? null;
  if (band === null || request.claimableAt === null) {
    return { request, inside: false, widthSeconds: null, errorSeconds: null };
  }
  const earliestMs = Date.parse(band.earliest);
  const latestMs = Date.parse(band.latest);
  const claimableMs = request.claimableAt * 1000;
  // The chain's clock counts whole seconds: the claimable second [t, t + 1) overlaps the band.
  const inside = Math.floor(earliestMs / 1000) * 1000 <= claimableMs && claimableMs <= latestMs;
  return {
    request,
    inside,
    widthSeconds: (latestMs - earliestMs) / 1000,
    errorSeconds: (claimableMs - (earliestMs + latestMs) / 2) / 1000,
  };
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) {
    return null;
  }
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}

const clock = (ms: number): string => new Date(ms).toISOString().slice(11, 19);
const seconds = (value: number | null, signed = false): string =>
  value === null ? "—" : `${signed && value > 0 ? "+" : ""}${value.toFixed(1)} s`;

function requestLine(scored: Scored, decimals: number): string {
  const { request } = scored;
  const { planned, estimate } = request;
  const band = estimate?.band ?? null;
  const whole = planned.shares / 10n ** BigInt(decimals);
  const head = `#${String(planned.number).padStart(2, "0")} w${String(planned.wave).padStart(2, "0")} ${planned.vault.name.padEnd(10)} ${planned.size.padEnd(6)} ${whole.toLocaleString("en-US").padStart(7)} sh (${planned.relative})`;
  const requested = `requested ${clock(request.requestedAt * 1000)}, read ${seconds((request.readAtMs - request.requestedAt * 1000) / 1000)} later`;
  const estimated =
    band === null
      ? `no band (${estimate?.kind ?? "no estimate"}; awaiting ${estimate?.awaiting.join("+") ?? "—"})`
      : `band ${clock(Date.parse(band.earliest))}–${clock(Date.parse(band.latest))} (${seconds(scored.widthSeconds)}, ${estimate?.kind ?? ""}; awaiting ${estimate?.awaiting.join("+") ?? ""})`;
  const actual =
    request.claimableAt === null
      ? "not claimable by the deadline"
      : `claimable ${clock(request.claimableAt * 1000)}${request.source === "status" ? " (status polled)" : ""}`;
  const verdict = scored.inside ? "inside" : "OUTSIDE";
  return `${head}\n      ${requested}; ${estimated}; ${actual}; ${verdict}, error ${seconds(scored.errorSeconds, true)}`;
}

// ---- the run ---------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  // The localnet's configuration as its child will parse it (flags and LOCALNET_* variables), so the
  // API is told the keeper's settings the keeper runs with. The faucet is opened wide for the wallets.
  const localnetArgs = [
    ...options.keeperArgs,
    "--faucet-requests-per-minute",
    "100000",
    "--faucet-max-usdc-amount",
    "18446744073709551615",
  ];
  const localnetConfig = parseLocalnetConfig(localnetArgs, process.env);
  const keeper = localnetConfig.keeper;
  if (!keeper.enabled) {
    throw new Error("the keeper is off (LOCALNET_KEEPER): the bench measures the keeper's pace");
  }
  const started = Date.now();
  const localnet = await startLocalnetProcess(localnetArgs, options.verbose);
  let api: ApiHost | null = null;
  let connection: Connection | null = null;
  const stopAll = async (): Promise<void> => {
    if (connection !== null) {
      closeConnection(connection);
    }
    await api?.close();
    await localnet.stop();
  };
  const interrupted = (): void => {
    void stopAll().finally(() => process.exit(130));
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  try {
    api = await startApi(localnet, keeper, localnetConfig.slotMs);
    const chain = new Connection(localnet.addresses.rpcUrl, {
      commitment: "confirmed",
      wsEndpoint: localnet.addresses.wsUrl,
    });
    connection = chain;
    const host = api;
    const tick = localTickSeconds(keeper);
    console.log(
      `bench:estimates — ${options.requests} withdrawals, seed ${options.seed}; the local keeper strikes a NAV each ${keeper.navIntervalSeconds} s period, stages at most ${keeper.stageMaxShares} raw shares every ${keeper.stageIntervalSeconds} s, looks every ${tick} s${options.keeperArgs.length === 0 ? " (the localnet's defaults)" : ` (set by ${options.keeperArgs.join(" ")})`}; ${localnetConfig.slotMs} ms slots`,
    );

    const readVault = async (address: PublicKey): Promise<VaultState> => {
      const account = await chain.getAccountInfo(address, "confirmed");
      if (account === null) {
        throw new Error(`no vault account at ${address.toBase58()}`);
      }
      return decodeVaultState(account.data);
    };
    const vaults = await Promise.all(
      localnet.addresses.vaults.map(async ({ id, name }) => {
        const address = new PublicKey(id);
        const state = await readVault(address);
        const caps = [state.hourlyCap, state.dailyCap].filter((cap) => cap > 0n);
        const cap = caps.length === 0 ? null : caps.reduce((low, next) => (next < low ? next : low));
        const client = createVaultClient({ baseUrl: host.url, apiKey: host.apiKey, vaultId: id, rpc: chain });
        return { vault: { address, name, client, cap } satisfies BenchVault, state };
      }),
    );
    const waves = planRequests(options.requests, seededRandom(options.seed), vaults, keeper.stageMaxShares);
    const planned = waves.flatMap((wave) => wave.requests);
    const stateOf = new Map(vaults.map(({ vault, state }) => [vault, state]));

    // Every wallet is funded and deposited before the first request: deposits do not move the queue.
    const funded = await runPool(planned, 4, (request) => {
      const state = stateOf.get(request.vault);
      if (state === undefined) {
        throw new Error(`no state for ${request.vault.name}`);
      }
      return fundRequest(request, localnet.addresses.faucetUrl, state);
    });
    const fundedOf = new Map(funded.map((entry) => [entry.planned, entry]));
    // The keeper strikes a vault with assets at once the first time; the schedule runs from there.
    for (const { vault } of vaults) {
      for (;;) {
        if ((await readVault(vault.address)).navSequence > 0n) {
          break;
        }
        await sleep(500);
      }
    }
    console.log(
      `funded and deposited ${funded.length} wallets in ${((Date.now() - started) / 1000).toFixed(0)} s; ${waves.length} waves of concurrent requests follow\n`,
    );

    const events = new Map(
      vaults.map(({ vault }) => [vault.address.toBase58(), new VaultEvents(chain, vault.address)]),
    );
    const measured: Measured[] = [];
    let sending = true;
    let observing = true;
    let observerError: unknown = null;
    const observer = (async () => {
      try {
        while (observing) {
          await observe(chain, events, measured);
          const resolved = measured.every((request) => request.claimableAt !== null);
          if (!sending && resolved) {
            return;
          }
          await sleep(OBSERVE_MS);
        }
      } catch (error) {
        observerError = error;
      }
    })();
    let lastSentMs = Date.now();
    try {
      for (const wave of waves) {
        await sleep(wave.delayMs);
        if (observerError !== null) {
          break;
        }
        const results = await Promise.all(
          wave.requests.map((request) => {
            const entry = fundedOf.get(request);
            if (entry === undefined) {
              throw new Error(`request #${request.number} was not funded`);
            }
            return requestWithdrawal(entry, chain);
          }),
        );
        measured.push(...results);
        lastSentMs = Date.now();
      }
    } finally {
      sending = false;
    }
    const deadline = lastSentMs + options.deadlineSeconds * 1000;
    await Promise.race([observer, sleep(Math.max(0, deadline - Date.now()))]);
    observing = false;
    await observer;
    if (observerError !== null) {
      throw observerError;
    }

    const scored = measured.map(score);
    for (const entry of scored) {
      console.log(requestLine(entry, shareDecimalsFor(localnet.addresses.asset.decimals)));
    }
    const inside = scored.filter((entry) => entry.inside).length;
    const share = scored.length === 0 ? 0 : inside / scored.length;
    const widths = scored.flatMap((entry) => (entry.widthSeconds === null ? [] : [entry.widthSeconds]));
    const errors = scored.flatMap((entry) =>
      entry.errorSeconds === null ? [] : [Math.abs(entry.errorSeconds)],
    );
    const noBand = scored.filter((entry) => (entry.request.estimate?.band ?? null) === null).length;
    const unresolved = scored.filter((entry) => entry.request.claimableAt === null).length;
    const byKind = (["nav", "staging"] as const).map((kind) => {
      const ofKind = scored.filter((entry) => entry.request.estimate?.kind === kind);
      return `${kind}-bound ${ofKind.filter((entry) => entry.inside).length}/${ofKind.length}`;
    });
    console.log(
      [
        "",
        `inside the band: ${inside} of ${scored.length} (${(share * 100).toFixed(1)}%; target ${TARGET_SHARE_INSIDE * 100}%) — ${byKind.join(", ")}`,
        `median band width ${seconds(median(widths))}; median error |claimable − band middle| ${seconds(median(errors))}`,
        `no band: ${noBand}; not claimable by the deadline: ${unresolved}; run ${((Date.now() - started) / 1000).toFixed(0)} s`,
        `times: the chain's clock (whole seconds); the keeper at ${options.keeperArgs.length === 0 ? "the localnet's default pace" : options.keeperArgs.join(" ")}`,
      ].join("\n"),
    );
    return share >= TARGET_SHARE_INSIDE ? 0 : 1;
  } catch (error) {
    console.error("bench:estimates failed; the localnet's last lines:");
    console.error(localnet.logTail().join("\n"));
    throw error;
  } finally {
    process.off("SIGINT", interrupted);
    process.off("SIGTERM", interrupted);
    await stopAll();
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      exitOnCommandLineError("bench:estimates", USAGE, error);
      console.error(error);
      process.exit(1);
    },
  );
}
