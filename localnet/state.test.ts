// --state-dir keeps the chain across restarts (an advanced clock too); configuration fails fast naming the bad variable.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import bs58 from "bs58";
import { Keypair, LAMPORTS_PER_SOL } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { UsageError } from "../lib/cli/args";
import { ConfigError, parseLocalnetConfig } from "./config";
import type { LocalnetHandle } from "./localnet";
import { closeConnection, connect, startTestLocalnet } from "./testing";

describe("--state-dir", () => {
  it("restores balances, history and the slot after a restart", async () => {
    const stateDir = await mkdtemp(join(tmpdir(), "localnet-state-"));
    const wallet = Keypair.generate().publicKey;

    const first = await startTestLocalnet({ stateDir });
    expect(first.restored).toBe(false);
    const firstConnection = connect(first);
    const signature = await firstConnection.requestAirdrop(wallet, 2 * LAMPORTS_PER_SOL);
    await firstConnection.confirmTransaction({ signature, ...(await firstConnection.getLatestBlockhash()) });
    const slotBefore = await firstConnection.getSlot("processed");
    closeConnection(firstConnection);
    await first.stop();

    const second = await startTestLocalnet({ stateDir });
    const secondConnection = connect(second);
    try {
      expect(second.restored).toBe(true);
      expect(await secondConnection.getBalance(wallet)).toBe(2 * LAMPORTS_PER_SOL);
      expect(await secondConnection.getSlot("processed")).toBeGreaterThan(slotBefore);
      const transaction = await secondConnection.getTransaction(signature, {
        commitment: "confirmed",
        maxSupportedTransactionVersion: 0,
      });
      expect(transaction?.meta?.err).toBeNull();
      expect(await secondConnection.getGenesisHash()).toBe(first.chain.identity.genesisHash);
      const next = await secondConnection.requestAirdrop(wallet, LAMPORTS_PER_SOL);
      await secondConnection.confirmTransaction({
        signature: next,
        ...(await secondConnection.getLatestBlockhash()),
      });
      expect(await secondConnection.getBalance(wallet)).toBe(3 * LAMPORTS_PER_SOL);
    } finally {
      closeConnection(secondConnection);
      await second.stop();
    }
  });

  it("keeps a clock the test advanced: a restored chain's time does not go back", async () => {
    const stateDir = await mkdtemp(join(tmpdir(), "localnet-state-"));
    const day = 86_400;
    const first = await startTestLocalnet({ stateDir });
    const before = first.chain.now();
    first.chain.advanceClock(day);
    const advanced = first.chain.blockTime(first.chain.slot);
    expect(advanced).toBeGreaterThanOrEqual(before + day);
    expect(() => first.chain.advanceClock(0)).toThrow(/whole number of seconds above 0/);
    expect(() => first.chain.advanceClock(1.5)).toThrow(/whole number of seconds above 0/);
    await first.stop();

    const second = await startTestLocalnet({ stateDir });
    try {
      expect(second.chain.blockTime(second.chain.slot)).toBeGreaterThanOrEqual(advanced ?? Infinity);
      expect(second.chain.now()).toBeGreaterThanOrEqual(before + day);
    } finally {
      await second.stop();
    }
  });
});

describe("genesis hash", () => {
  it("is new for each fresh ledger and kept by a restored one", async () => {
    const stateDir = await mkdtemp(join(tmpdir(), "localnet-state-"));
    const first = await startTestLocalnet({ stateDir });
    const firstHash = await rpcGenesisHash(first);
    await first.stop();
    const other = await startTestLocalnet();
    const otherHash = await rpcGenesisHash(other);
    await other.stop();
    const restored = await startTestLocalnet({ stateDir });
    const restoredHash = await rpcGenesisHash(restored);
    await restored.stop();

    expect(bs58.decode(firstHash)).toHaveLength(32);
    expect(otherHash).not.toBe(firstHash);
    expect(restored.restored).toBe(true);
    expect(restoredHash).toBe(firstHash);
  });
});

async function rpcGenesisHash(localnet: LocalnetHandle): Promise<string> {
  const connection = connect(localnet);
  try {
    return await connection.getGenesisHash();
  } finally {
    closeConnection(connection);
  }
}

describe("configuration", () => {
  it("has the validator's ports and a pleasant demo pace by default", () => {
    const config = parseLocalnetConfig([], {});
    expect(config).toMatchObject({
      host: "127.0.0.1",
      rpcPort: 8899,
      wsPort: 8900,
      stateDir: null,
      slotMs: 400,
      finalizationDepth: 32,
      // The keeper delivers claimable withdrawals on the local chain, as a deployment's does.
      keeper: { enabled: true, navIntervalSeconds: 60, stageIntervalSeconds: 20, deliverMaxPerPass: 5 },
    });
    // --keeper-deliver 0 leaves every claim to its owner.
    expect(parseLocalnetConfig(["--keeper-deliver", "0"], {}).keeper.deliverMaxPerPass).toBe(0);
    expect(parseLocalnetConfig([], { LOCALNET_KEEPER_DELIVER: "12" }).keeper.deliverMaxPerPass).toBe(12);
    expect(config.addressesFile).toMatch(/localnet\/\.state\/addresses\.json$/);
  });

  it("takes flags over variables, and puts PubSub next to a custom RPC port", () => {
    const config = parseLocalnetConfig(["--rpc-port", "9999", "--no-keeper", "--slot-ms=250"], {
      LOCALNET_RPC_PORT: "1234",
      LOCALNET_KEEPER_APY_BPS: "500",
    });
    expect(config).toMatchObject({
      rpcPort: 9999,
      wsPort: 10000,
      slotMs: 250,
      keeper: { enabled: false, apyBps: 500 },
    });
  });

  it.each([
    [
      [],
      { LOCALNET_RPC_PORT: "eighty" },
      "LOCALNET_RPC_PORT (--rpc-port) must be an integer from 0 to 65535",
    ],

    [[], { LOCALNET_KEEPER: "maybe" }, "LOCALNET_KEEPER (--keeper) must be true or false"],

    [[], { LOCALNET_FAUCET_USDC_AMOUNT: "-5" }, "LOCALNET_FAUCET_USDC_AMOUNT (--faucet-usdc-amount)"],
  ])("fails fast on %j %j, naming the setting", (argv, env, message) => {
    expect(() => parseLocalnetConfig(argv, env)).toThrow(ConfigError);
    expect(() => parseLocalnetConfig(argv, env)).toThrow(message);
  });

  it.each([
    [["--slot-ms", "0"], "LOCALNET_SLOT_MS (--slot-ms) must be an integer from 10 to 10000"],
    [
      ["--keeper-deliver", "101"],
      "LOCALNET_KEEPER_DELIVER (--keeper-deliver) must be an integer from 0 to 100",
    ],
    [["--bogus"], "Unknown option '--bogus'"],
    [["--state-dir"], "Option '--state-dir <value>' argument missing"],
    [["--rpc-port", "--empty"], "Option '--rpc-port' argument is ambiguous"],
    [["extra"], "unexpected argument 'extra'"],
  ])("refuses the command line %j as a usage error", (argv, message) => {
    expect(() => parseLocalnetConfig(argv, {})).toThrow(UsageError);
    expect(() => parseLocalnetConfig(argv, {})).toThrow(message);
  });
});
