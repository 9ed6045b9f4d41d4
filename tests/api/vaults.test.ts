// GET /api/vaults, /api/vault/{id}, /nav and /stats over HTTP, served from the indexer's rows after the
// test moved the chain's clock on and had the keeper strike NAVs and stage the queue: happy paths and
// errors.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Keypair, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Indexer } from "../../lib/indexer/indexer";
import type { Keeper } from "../../lib/keeper/keeper";
import { createIndexer } from "../../lib/server/indexer";
import { decodeVaultState } from "../../lib/vault/program/accounts";
import { averageSecondsToClaimable } from "../../lib/vault/reads/directory";
import type { LocalnetHandle } from "../../localnet/localnet";
import { waitFor } from "../../localnet/testing";
import { dataOf, startApiHarness, USDC, type ApiHarness } from "./harness";

let harness: ApiHarness;

/** One whole share: the share mint has the asset's 6 decimals plus the program's offset of 3. */
const SHARE = 1_000n * USDC;

/** The prime vault's manager declares two strategies for its deployed assets. */
function declareStrategies(localnet: LocalnetHandle): string {
  const path = join(mkdtempSync(join(tmpdir(), "strategies-")), "strategies.json");
  const prime = localnet.addresses.vaults[0]?.vault.toBase58() ?? "";
  writeFileSync(
    path,
    JSON.stringify({
      [prime]: [
        { name: "Treasury bills", bps: 7_000 },
        { name: "Overnight lending", bps: 3_000 },
      ],
    }),
  );
  return path;
}
let readKey: string;
let indexer: Indexer;
/** GET /api/vaults before the indexer's first run. */
let beforeIndex: { vaults: { id: string; apy7d: number | null }[] };
let investor: Keypair;

/** Chain time between the NAV strikes the test makes: an hour, so a busy machine's seconds weigh little. */
const STRIKE_SECONDS = 3_600;
/** The first strike with shares outstanding, and when the chain stamped it. */
let firstStrike: { signature: string; at: number };

/** Moves the chain's clock on by STRIKE_SECONDS and has the keeper strike the prime vault's NAV. */
async function strikeAfterAnHour(keeper: Keeper): Promise<string> {
  harness.localnet.chain.advanceClock(STRIKE_SECONDS);
  const strike = await keeper.strikeNav(new PublicKey(harness.vaultId));
  if (strike === null) {
    throw new Error("The keeper struck no NAV (an empty vault?)");
  }
  return strike.signature;
}

beforeAll(async () => {
  harness = await startApiHarness({
    // The keeper acts when the test calls it, after the test moved the chain's clock on.
    localnet: { keeper: { enabled: true, scheduled: false, apyBps: 1_000 } },
    // Three hours of strikes: APYs are annualized from less than the default day of history.
    env: (localnet) => ({ STRATEGIES_FILE: declareStrategies(localnet), APY_MIN_SPAN_SECONDS: "0" }),
  });
  const keeper = harness.localnet.keeper;
  if (keeper === null) {
    throw new Error("The localnet started no keeper (is programs/vault/vault.so built?)");
  }
  const writeKey = (await harness.createKey({ scope: "write" })).secret;
  readKey = (await harness.createKey({ scope: "read" })).secret;
  beforeIndex = dataOf(await harness.request("GET", "/api/vaults", { key: readKey })) as typeof beforeIndex;
  const wallet = await harness.fundedWallet(100_000n * USDC);
  investor = wallet;
  const deposit = dataOf(
    await harness.request("POST", `/api/vault/${harness.vaultId}/deposit`, {
      key: writeKey,
      body: { wallet: wallet.publicKey.toBase58(), amount: (100_000n * USDC).toString() },
    }),
  );
  await harness.signAndSend(String(deposit.transaction), wallet);
  const initiate = dataOf(
    await harness.request("POST", `/api/vault/${harness.vaultId}/withdraw`, {
      key: writeKey,
      body: { wallet: wallet.publicKey.toBase58(), sharesAmount: (100n * SHARE).toString() },
    }),
  );
  await harness.signAndSend(String(initiate.transaction), wallet);
  indexer = createIndexer(harness.context, { intervalMs: 200, schema: harness.schema });
  indexer.start();
  // An hour after the request: a strike and the staging that make it claimable; then three more strikes.
  const first = await strikeAfterAnHour(keeper);
  const staging = await keeper.stageWithdrawals(new PublicKey(harness.vaultId));
  if (staging === null) {
    throw new Error("The keeper staged nothing (an empty queue or a short reserve?)");
  }
  let last = "";
  for (let strike = 0; strike < 3; strike += 1) {
    last = await strikeAfterAnHour(keeper);
  }
  const struck = await harness.connection.getTransaction(first, {
    commitment: "confirmed",
    maxSupportedTransactionVersion: 0,
  });
  firstStrike = { signature: first, at: struck?.blockTime ?? 0 };
  // Wait for the state, not for seconds: the indexer has the last strike, and the reads' cache (which
  // holds the directory read before the indexer ran) serves it.
  await waitFor(async () => {
    const events = await harness.context.store.indexer.events(harness.vaultId);
    return events.some((event) => event.signature === last) ? true : undefined;
  }, 60_000);
  await waitFor(async () => {
    const { vaults } = dataOf(await harness.request("GET", "/api/vaults", { key: readKey })) as {
      vaults: { id: string; apy7d: number | null }[];
    };
    return vaults.find((vault) => vault.id === harness.vaultId)?.apy7d === null ? undefined : true;
  }, 60_000);
  // The share balance read while building the withdrawal is cached for a while: wait until it is not.
  await waitFor(async () => {
    const { positions } = dataOf(
      await harness.request("GET", `/api/portfolio?wallet=${wallet.publicKey.toBase58()}`, { key: readKey }),
    ) as { positions: { shares: { amount: string } }[] };
    return positions[0]?.shares.amount === (99_900n * SHARE).toString() ? true : undefined;
  }, 60_000);
});

afterAll(async () => {
  await indexer?.stop();
  await harness?.close();
});

it("lists what the chain has before the indexer's first run (no APY: no history yet)", () => {
  const chainVaults = harness.localnet.addresses.vaults.map((entry) => entry.vault.toBase58());
  expect(chainVaults.length).toBeGreaterThan(0);
  expect(beforeIndex.vaults.map((vault) => vault.id).sort()).toEqual([...chainVaults].sort());
  expect(beforeIndex.vaults.every((vault) => vault.apy7d === null)).toBe(true);
});

function get(path: string, key = readKey) {
  return harness.request("GET", path, { key });
}

describe("GET /api/vaults", () => {
  it("lists every vault of the program with tokens, price, TVL, APY from NAV snapshots, caps, fee and paused", async () => {
    const result = await get("/api/vaults");
    expect(result.status).toBe(200);
    const { vaults } = dataOf(result) as { vaults: Record<string, unknown>[] };
    expect(vaults.map((vault) => vault.id).sort()).toEqual([harness.vaultId, harness.flexVaultId].sort());
    const prime = vaults.find((vault) => vault.id === harness.vaultId);
    expect(prime).toMatchObject({
      name: "USDC Prime",
      asset: { symbol: "USDC", decimals: 6 },
      shares: { symbol: "vUSDC", decimals: 9 },
      feeBps: 10,
      paused: false,
      caps: {
        hourly: { amount: (25_000n * USDC).toString() },
        daily: { amount: (100_000n * USDC).toString() },
      },
    });
    expect(prime?.sharePrice).toBeGreaterThan(1);
    expect(Number((prime?.tvl as { amount: string }).amount)).toBeGreaterThan(99_000 * 1e6);
    // The keeper's 10 % a year accrued each hour compounds to e^0.1 − 1 (within a millionth).
    expect(prime?.apy7d).toBeCloseTo(Math.expm1(0.1), 2);
    expect(prime?.apy30d).toBe(prime?.apy7d);
  });

  it("shows a vault-restricted key only its vaults", async () => {
    const { secret } = await harness.createKey({ scope: "read", vaults: [harness.flexVaultId] });
    const { vaults } = dataOf(await get("/api/vaults", secret)) as { vaults: { id: string }[] };
    expect(vaults.map((vault) => vault.id)).toEqual([harness.flexVaultId]);
  });

  it("answers 405 to other methods", async () => {
    const result = await harness.request("POST", "/api/vaults", { key: readKey, body: {} });
    expect(result.status).toBe(405);
    expect(result.body).toMatchObject({ success: false });
  });
});

describe("GET /api/vault/{id}, /nav, /stats", () => {
  it("gives one vault in full with its withdrawal policy and current limits", async () => {
    const { vault } = dataOf(await get(`/api/vault/${harness.vaultId}`)) as {
      vault: Record<string, unknown>;
    };
    expect(vault).toMatchObject({
      id: harness.vaultId,
      name: "USDC Prime",
      withdrawalPolicy: {
        feeBps: 10,
        queueOrder: "fifo",
        navSchedule: { intervalSeconds: expect.any(Number) },
      },
      withdrawalLimits: {
        hourly: { cap: { amount: (25_000n * USDC).toString() }, used: { symbol: "USDC" } },
        daily: { cap: { amount: (100_000n * USDC).toString() } },
      },
    });
    expect(Number(vault.navSequence)).toBeGreaterThan(1);
  });

  it("gives the NAV as the indexer last read it", async () => {
    const nav = dataOf(await get(`/api/vault/${harness.vaultId}/nav`));
    const row = (
      await harness.context.store.query<{ account_data: string }>(
        "SELECT account_data FROM indexed_vaults WHERE vault = $1",
        [harness.vaultId],
      )
    )[0];
    const state = decodeVaultState(Buffer.from(row?.account_data ?? "", "base64"));
    // The cache may hold the read before the last one; both are NAVs the chain had.
    expect(BigInt(String(nav.navSequence))).toBeLessThanOrEqual(state.navSequence);
    expect(nav).toMatchObject({
      totalAssets: { symbol: "USDC", decimals: 6 },
      totalShares: { symbol: "vUSDC" },
      struckAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(nav.sharePrice).toBeGreaterThan(1);
  });

  it("gives TVL, depositors, APY, the queue, staging and the time from request to claimable", async () => {
    const stats = dataOf(await get(`/api/vault/${harness.vaultId}/stats`));
    expect(stats).toMatchObject({
      depositors: 1,
      queuedShares: { amount: (100n * SHARE).toString() },
      stagedShares: { amount: (100n * SHARE).toString() },
    });
    expect(Number((stats.queuedAssets as { amount: string }).amount)).toBeGreaterThanOrEqual(100 * 1e6);
    expect(stats.apy7d).toBeCloseTo(Math.expm1(0.1), 2);
    // Claimable at the strike and staging an hour of chain time after the request (plus the seconds the
    // machine took between them).
    expect(stats.averageSecondsToClaimable30d).toBeGreaterThanOrEqual(STRIKE_SECONDS);
    expect(stats.averageSecondsToClaimable30d).toBeLessThan(2 * STRIKE_SECONDS);
    // The first strike with shares outstanding: where the chart's nav-history starts.
    expect(firstStrike.at).toBeGreaterThan(0);
    expect(Date.parse(String(stats.firstNavAt))).toBe(firstStrike.at * 1000);
  });

  it("computes the time to claimable in SQL exactly as the rule over the loaded events does", async () => {
    const store = harness.context.store.indexer;
    const since = Math.floor(Date.now() / 1000) - 30 * 86_400;
    const events = await store.events(harness.vaultId, {
      names: ["WithdrawalRequested", "NavUpdated", "WithdrawalsStaged"],
    });
    const expected = averageSecondsToClaimable(events, since);
    expect(expected).toEqual(expect.any(Number));
    expect(await store.averageSecondsToClaimable(harness.vaultId, since)).toBe(expected);
    // No request in the window: nothing to average.
    expect(await store.averageSecondsToClaimable(harness.vaultId, since + 60 * 86_400)).toBeNull();
  });

  it.each([
    ["", "vault"],
    ["/nav", "nav"],
    ["/stats", "stats"],
  ])(
    "answers 404 for an address that is no vault (%s) and 400 for one that is no address",
    async (suffix) => {
      const unknown = Keypair.generate().publicKey.toBase58();
      const missing = await get(`/api/vault/${unknown}${suffix}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ success: false, code: "VAULT_NOT_FOUND" });
      const malformed = await get(`/api/vault/not-an-address${suffix}`);
      expect(malformed.status).toBe(400);
      expect(malformed.body).toMatchObject({ success: false, error: expect.stringMatching(/vault_id/) });
    },
  );
});

describe("GET /api/vault/{id}/allocations", () => {
  it("splits the NAV into idle reserve, funded for the queue, deployed, and the declared strategies", async () => {
    const allocations = dataOf(await get(`/api/vault/${harness.vaultId}/allocations`));
    const amount = (part: unknown) => BigInt((part as { amount: { amount: string } }).amount.amount);
    const total = BigInt((allocations.totalAssets as { amount: string }).amount);
    // The keeper mints the yield into the reserve, so nothing is deployed on the local chain.
    expect(amount(allocations.deployed)).toBe(0n);
    expect(amount(allocations.fundedForQueue)).toBeGreaterThanOrEqual(100n * USDC);
    expect(amount(allocations.idleReserve) + amount(allocations.fundedForQueue)).toBeGreaterThanOrEqual(
      total,
    );
    // Declared strategies are listed with their weights and their (here empty) part of the deployed assets.
    expect(allocations.strategies).toEqual([
      { name: "Treasury bills", weight: 0.7, amount: expect.objectContaining({ amount: "0" }), fraction: 0 },
      {
        name: "Overnight lending",
        weight: 0.3,
        amount: expect.objectContaining({ amount: "0" }),
        fraction: 0,
      },
    ]);
    const flex = dataOf(await get(`/api/vault/${harness.flexVaultId}/allocations`));
    expect(flex.strategies).toEqual([]);
  });
});

describe("GET /api/portfolio", () => {
  it("gives the wallet's position: shares, value, cost basis, PnL as a fraction, pending withdrawal", async () => {
    const result = await get(`/api/portfolio?wallet=${investor.publicKey.toBase58()}`);
    expect(result.status).toBe(200);
    const { positions } = dataOf(result) as { positions: Record<string, unknown>[] };
    expect(positions).toHaveLength(1);
    const [position] = positions;
    expect(position).toMatchObject({
      vaultId: harness.vaultId,
      shares: { amount: (99_900n * SHARE).toString(), symbol: "vUSDC" },
      costBasis: { amount: (100_000n * USDC).toString() },
      pendingWithdrawal: { shares: { amount: (100n * SHARE).toString() } },
    });
    const pnl = position?.pnl as { amount: string; fraction: number };
    expect(BigInt(pnl.amount)).toBeGreaterThan(0n);
    expect(pnl.fraction).toBeGreaterThan(0);
    expect(pnl.fraction).toBeLessThan(0.001);
  });

  it("is empty for a wallet without positions, and refuses a wallet that is no address", async () => {
    const fresh = dataOf(await get(`/api/portfolio?wallet=${Keypair.generate().publicKey.toBase58()}`));
    expect(fresh.positions).toEqual([]);
    const bad = await get("/api/portfolio?wallet=nope");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, error: expect.stringMatching(/wallet/) });
    const missing = await get("/api/portfolio");
    expect(missing.status).toBe(400);
  });
});
