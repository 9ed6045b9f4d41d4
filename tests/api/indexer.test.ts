// The indexer against the in-process localnet, with the test driving the chain's clock and the keeper
// (no timer has to be on time): snapshots and events appear, APY from NAV snapshots converges to the
// keeper's yield, a restart after downtime backfills exactly the chain's events (none lost, none
// twice), and of two indexers started at once exactly one indexes.
import type { Keypair } from "@solana/web3.js";
import { PublicKey } from "@solana/web3.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { signaturesSince } from "../../lib/indexer/chain-reads";
import type { Indexer } from "../../lib/indexer/indexer";
import type { Keeper } from "../../lib/keeper/keeper";
import { createIndexer } from "../../lib/server/indexer";
import { trailingApy } from "../../lib/vault/model/apy";
import { decodeVaultEvents, eventVault } from "../../lib/vault/program/events";
import { waitFor } from "../../localnet/testing";
import { dataOf, startApiHarness, USDC, type ApiHarness } from "./harness";

const APY_BPS = 1_000;
/** The chain time between two strikes the test makes: an hour, so seconds of a busy machine weigh little. */
const STRIKE_SECONDS = 3_600;

let harness: ApiHarness;
let keeper: Keeper;
let writeKey: string;
const indexers: Indexer[] = [];

function newIndexer(): Indexer {
  const indexer = createIndexer(harness.context, { intervalMs: 250, schema: harness.schema });
  indexers.push(indexer);
  return indexer;
}

async function deposit(wallet: Keypair, amount: bigint): Promise<string> {
  const built = dataOf(
    await harness.request("POST", `/api/vault/${harness.vaultId}/deposit`, {
      key: writeKey,
      body: { wallet: wallet.publicKey.toBase58(), amount: amount.toString() },
    }),
  );
  return harness.signAndSend(String(built.transaction), wallet);
}

/** Every (signature, event index) of the vault's events, read straight from the chain. */
async function chainEventKeys(vault: string): Promise<string[]> {
  const keys: string[] = [];
  const signatures = await signaturesSince(harness.context.rpc, new PublicKey(vault), null);
  for (const entry of signatures) {
    const transaction = await harness.context.chain.getTransaction(entry.signature);
    if (transaction === null || transaction.err !== null) {
      continue;
    }
    decodeVaultEvents(transaction.logMessages ?? []).forEach((event, index) => {
      if (eventVault(event)?.toBase58() === vault) {
        keys.push(`${entry.signature}:${index}`);
      }
    });
  }
  return keys.sort();
}

/** Moves the chain's clock on by STRIKE_SECONDS and has the keeper strike the vault's NAV. */
async function strikeAfterAnHour(): Promise<string> {
  harness.localnet.chain.advanceClock(STRIKE_SECONDS);
  const strike = await keeper.strikeNav(new PublicKey(harness.vaultId));
  if (strike === null) {
    throw new Error("The keeper struck no NAV (an empty vault?)");
  }
  return strike.signature;
}

beforeAll(async () => {
  // The keeper acts only when the test calls it.
  harness = await startApiHarness({
    localnet: { keeper: { enabled: true, scheduled: false, apyBps: APY_BPS } },
  });
  if (harness.localnet.keeper === null) {
    throw new Error("The localnet started no keeper (is programs/vault/vault.so built?)");
  }
  keeper = harness.localnet.keeper;
  writeKey = (await harness.createKey({ scope: "write" })).secret;
});

// A failed test leaves no indexer running (and holding the lock) into the next.
afterEach(async () => {
  for (const indexer of indexers.splice(0)) {
    await indexer.stop();
  }
});

afterAll(async () => {
  await harness?.close();
});

describe("indexer", () => {
  it("records snapshots and events, and APY from NAV snapshots converges to the keeper's yield", async () => {
    const store = harness.context.store.indexer;
    const wallet = await harness.fundedWallet(1_000_000n * USDC);
    await deposit(wallet, 1_000_000n * USDC);
    const indexer = newIndexer();
    indexer.start();

    const deposited = await waitFor(async () => {
      const events = await store.events(harness.vaultId, { owner: wallet.publicKey.toBase58() });
      return events.find((event) => event.name === "Deposited");
    });
    expect(deposited.data).toMatchObject({ assets: (1_000_000n * USDC).toString() });
    await waitFor(() => (indexer.runs > 0 ? true : undefined));
    const vaults = await store.vaults();
    expect(vaults.map((row) => row.vault)).toEqual(
      expect.arrayContaining([harness.vaultId, harness.flexVaultId]),
    );
    const scheduled = await waitFor(
      async () => (await store.latestSnapshot(harness.vaultId, "schedule")) ?? undefined,
    );
    expect(scheduled.totalShares).toBeGreaterThan(0n);
    expect(scheduled.queueTail).not.toBeNull();

    // Six NAV strikes on 1M USDC after the deposit, an hour of chain time apart.
    const strikes: string[] = [];
    for (let strike = 0; strike < 6; strike += 1) {
      strikes.push(await strikeAfterAnHour());
    }
    const last = strikes.at(-1);
    await waitFor(async () => {
      const events = await store.events(harness.vaultId);
      return events.some((event) => event.signature === last) ? true : undefined;
    }, 60_000);
    const points = (await store.snapshots(harness.vaultId, "event", new Date(0))).map((snapshot) => ({
      at: snapshot.takenAt,
      totalAssets: snapshot.totalAssets,
      totalShares: snapshot.totalShares,
    }));
    expect(points).toHaveLength(6);
    const apy = trailingApy(points, 7 * 86_400);
    // The keeper accrues APY_BPS a year pro rata at every strike (hourly here), which compounds to
    // e^r − 1 within a millionth. The strike's own time may trail the keeper's reading of the clock by
    // the seconds a busy machine takes to land it; against five hours that is well inside 1%.
    const expected = Math.expm1(APY_BPS / 10_000);
    expect(apy).not.toBeNull();
    expect(Math.abs((apy ?? 0) - expected) / expected).toBeLessThan(0.01);
  });

  it("backfills after downtime without losing or duplicating an event", async () => {
    const store = harness.context.store.indexer;
    // Downtime: deposits and NAV strikes happen while no indexer runs.
    const wallet = await harness.fundedWallet(50n * USDC);
    const missed = await deposit(wallet, 50n * USDC);
    const missedStrikes = [await strikeAfterAnHour(), await strikeAfterAnHour()];

    const restarted = newIndexer();
    const first = await restarted.runOnce();
    expect(first?.events).toBeGreaterThan(0);
    // A second run finds nothing new; the same rows stay.
    const second = await restarted.runOnce();
    expect(second).toMatchObject({ transactions: 0, events: 0 });

    const stored = (await store.events(harness.vaultId)).map(
      (event) => `${event.signature}:${event.eventIndex}`,
    );
    expect(new Set(stored).size).toBe(stored.length);
    expect(stored.sort()).toEqual(await chainEventKeys(harness.vaultId));
    for (const signature of [missed, ...missedStrikes]) {
      expect(stored.some((key) => key.startsWith(`${signature}:`))).toBe(true);
    }
  });

  it("lets exactly one of two indexers started at once index", async () => {
    const one = newIndexer();
    const two = newIndexer();
    const results = await Promise.all([one.runOnce(), two.runOnce()]);
    expect(results.filter((result) => result !== null)).toHaveLength(1);
    expect([one.isLeader, two.isLeader].filter(Boolean)).toHaveLength(1);
    // The leader keeps the lock across runs; the other stays idle until it is released.
    const follower = one.isLeader ? two : one;
    const leader = one.isLeader ? one : two;
    expect(await follower.runOnce()).toBeNull();
    await leader.stop();
    expect(await follower.runOnce()).not.toBeNull();
  });
});
