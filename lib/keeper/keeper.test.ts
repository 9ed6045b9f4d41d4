// The keeper's decisions with numbers: one strike per period from chain state, the bounds' clamp and
// minimum interval, each NAV source (simulated yield, a file, an HTTP endpoint) with its refusals, the
// second RPC's agreement rule, and (on the local chain) deliveries and strikes refused by a lying RPC.
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import {
  LAMPORTS_PER_SOL,
  Transaction,
  TransactionInstruction,
  type Connection,
  type Keypair,
  type PublicKey,
} from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { LocalnetVault } from "../../localnet/genesis";
import { devRoles } from "../../localnet/genesis";
import type { LocalnetHandle } from "../../localnet/localnet";
import {
  closeConnection,
  connect,
  fundedWallet,
  hasProgramBinary,
  postRaw,
  startTestLocalnet,
  waitFor,
} from "../../localnet/testing";
import {
  TOKEN_PROGRAM_ID,
  buildCreateAssociatedTokenAccountIdempotentInstruction,
  findAssociatedTokenAddress,
} from "../chain/spl-token";
import { soleLeaderLock } from "../indexer/leader-lock";
import { processMetrics } from "../observability/metrics";
import { ChainClient } from "../operator/chain-client";
import { OperatorError } from "../operator/errors";
import {
  decodeQueueHolesState,
  decodeReceiptState,
  decodeVaultState,
  type VaultState,
} from "../vault/program/accounts";
import { findQueueHoles, findReceipt } from "../vault/program/addresses";
import { decodeVaultEvents } from "../vault/program/events";
import { QUEUE_HOLES_ACCOUNT_SIZE } from "../vault/program/idl";
import {
  buildCancelWithdrawalInstruction,
  buildDepositInstruction,
  buildRequestWithdrawalInstruction,
} from "../vault/program/instructions";
import {
  Keeper,
  assetsDisagreement,
  decideStrike,
  periodOf,
  strikeBoundsOf,
  type StrikeBounds,
} from "./keeper";
import { accruedYield, parseNavSource } from "./nav-source";

/** Rates over time far above any per-strike bound, for the tests of those bounds alone. */
const UNBOUNDED_OVER_TIME = { maxAnnualGainBps: 10n ** 15n, maxDailyLossBps: 10n ** 15n };
const WIDE: StrikeBounds = {
  maxGainBps: 10_000n,
  maxLossBps: 10_000n,
  minIntervalSeconds: 0n,
  ...UNBOUNDED_OVER_TIME,
};
const VAULT = "5wmiQyQXVpAVrfsVoQAqiHnkNZTW6n6998Rq56hs5DXS";

describe("decideStrike", () => {
  const base = { totalAssets: 1_000_000_000n, navUpdatedAt: 1_000_030n, navSequence: 4n };

  it("strikes once per period: not again in the period of the last strike", () => {
    expect(periodOf(1_000_030n, 60)).toBe(16_667n);
    expect(decideStrike(base, 1_000_100_000n, 1_000_079n, 60, WIDE)).toEqual({
      strike: false,
      reason: "struck this period",
    });
    expect(decideStrike(base, 1_000_100_000n, 1_000_080n, 60, WIDE)).toEqual({
      strike: true,
      gain: 100_000n,
      loss: 0n,
      target: 1_000_100_000n,
      clamped: false,
    });
    // A vault never struck strikes at once: nav_updated_at is its creation time, in this period.
    expect(decideStrike({ ...base, navSequence: 0n }, null, 1_000_031n, 60, WIDE)).toMatchObject({
      strike: true,
      gain: 0n,
      loss: 0n,
    });
    // The program's interval does not hold the first strike back either.
    const slow: StrikeBounds = {
      ...WIDE,
      minIntervalSeconds: 3_600n,
      ...UNBOUNDED_OVER_TIME,
    };
    expect(decideStrike({ ...base, navSequence: 0n }, 1_000_000_001n, 1_000_031n, 60, slow)).toMatchObject({
      strike: true,
      gain: 1n,
    });
  });

  it("skips an empty vault: the program accepts no gain on 0 total assets", () => {
    const empty = { totalAssets: 0n, navUpdatedAt: 1_000_030n, navSequence: 0n };
    expect(decideStrike(empty, 5_000_000n, 1_000_080n, 60, WIDE)).toEqual({
      strike: false,
      reason: "empty vault",
    });
  });

  it("reads the protocol account's bounds", () => {
    expect(
      strikeBoundsOf({
        maxGainBps: 50,
        maxLossBps: 200,
        minNavIntervalSeconds: 30,
        maxAnnualGainBps: 10_000,
        maxDailyLossBps: 1_000,
      }),
    ).toEqual({
      maxGainBps: 50n,
      maxLossBps: 200n,
      minIntervalSeconds: 30n,
      maxAnnualGainBps: 10_000n,
      maxDailyLossBps: 1_000n,
    });
  });

  it("clamps to the bounds over time, for the time since the last strike and at most a day of it", () => {
    // The program's ceilings: 100% a year up, 10% a day down; 60 s after the last strike.
    const ceilings: StrikeBounds = { ...WIDE, maxAnnualGainBps: 10_000n, maxDailyLossBps: 1_000n };
    // floor(10^9 × 10_000 × 60 / (10^4 × 31_536_000)) = 1_902 up, floor(10^9 × 1_000 × 60 / (10^4 × 86_400)) = 69_444 down.
    expect(decideStrike(base, 2_000_000_000n, 1_000_090n, 60, ceilings)).toMatchObject({
      gain: 1_902n,
      clamped: true,
    });
    expect(decideStrike(base, 1n, 1_000_090n, 60, ceilings)).toMatchObject({ loss: 69_444n, clamped: true });
    // A week without a strike counts as a day: floor(10^9 / 365) = 2_739_726.
    expect(decideStrike(base, 2_000_000_000n, 1_000_030n + 7n * 86_400n, 60, ceilings)).toMatchObject({
      gain: 2_739_726n,
      clamped: true,
    });
  });

  it("clamps a change to the bounds, each its own, and waits out the minimum interval", () => {
    const bounds: StrikeBounds = {
      maxGainBps: 50n,
      maxLossBps: 50n,
      minIntervalSeconds: 30n,
      ...UNBOUNDED_OVER_TIME,
    };
    // 0.5 % of 1,000 units is 5 units.
    expect(decideStrike(base, 2_000_000_000n, 1_000_080n, 60, bounds)).toEqual({
      strike: true,
      gain: 5_000_000n,
      loss: 0n,
      target: 1_005_000_000n,
      clamped: true,
    });
    expect(decideStrike(base, 1n, 1_000_080n, 60, bounds)).toEqual({
      strike: true,
      gain: 0n,
      loss: 5_000_000n,
      target: 995_000_000n,
      clamped: true,
    });
    expect(decideStrike(base, 1_000_000_000n, 1_000_049n, 10, bounds)).toEqual({
      strike: false,
      reason: "too soon for the bounds",
    });
    expect(decideStrike(base, 996_000_000n, 1_000_080n, 60, bounds)).toMatchObject({
      loss: 4_000_000n,
      clamped: false,
    });
    // A gain bound of 1 bps and a loss bound of 20 %: each side keeps its own, floored like the program.
    const lopsided: StrikeBounds = {
      maxGainBps: 1n,
      maxLossBps: 2_000n,
      minIntervalSeconds: 0n,
      ...UNBOUNDED_OVER_TIME,
    };
    expect(decideStrike({ ...base, totalAssets: 9_999n }, 20_000n, 1_000_080n, 60, lopsided)).toMatchObject({
      gain: 0n,
      loss: 0n,
      clamped: true,
    });
    expect(decideStrike(base, 500_000_000n, 1_000_080n, 60, lopsided)).toMatchObject({
      loss: 200_000_000n,
      target: 800_000_000n,
      clamped: true,
    });
    expect(decideStrike(base, 2_000_000_000n, 1_000_080n, 60, lopsided)).toMatchObject({
      gain: 100_000n,
      clamped: true,
    });
  });
});

describe("decideStrike on demand (anyPeriod)", () => {
  const base = { totalAssets: 1_000_000_000n, navUpdatedAt: 1_000_030n, navSequence: 4n };
  const bounds: StrikeBounds = {
    maxGainBps: 50n,
    maxLossBps: 50n,
    minIntervalSeconds: 5n,
    ...UNBOUNDED_OVER_TIME,
  };

  it("strikes again within the period of the last strike, still clamped and held to the minimum interval", () => {
    expect(decideStrike(base, 1_000_000_100n, 1_000_040n, 60, bounds)).toEqual({
      strike: false,
      reason: "struck this period",
    });
    expect(decideStrike(base, 1_000_000_100n, 1_000_040n, 60, bounds, true)).toEqual({
      strike: true,
      gain: 100n,
      loss: 0n,
      target: 1_000_000_100n,
      clamped: false,
    });
    expect(decideStrike(base, 2_000_000_000n, 1_000_040n, 60, bounds, true)).toMatchObject({
      gain: 5_000_000n,
      clamped: true,
    });
    expect(decideStrike(base, 1_000_000_100n, 1_000_034n, 60, bounds, true)).toEqual({
      strike: false,
      reason: "too soon for the bounds",
    });
  });
});

describe("assetsDisagreement", () => {
  const state = { totalAssets: 1_000_000_000n, navSequence: 7n };

  it("agrees only on the same assets and NAV sequence at slots at most the lag apart", () => {
    expect(assetsDisagreement({ slot: 100n, state }, { slot: 75n, state }, 25)).toBeNull();
    expect(assetsDisagreement({ slot: 100n, state }, { slot: 125n, state }, 25)).toBeNull();
    expect(assetsDisagreement({ slot: 100n, state }, { slot: 74n, state }, 25)).toBe(
      "the check RPC answered at slot 74, the RPC at slot 100: 26 slots apart, more than 25",
    );
    // One raw unit is a disagreement: the strike's gain is computed from these assets.
    expect(
      assetsDisagreement(
        { slot: 100n, state },
        { slot: 100n, state: { ...state, totalAssets: 1_000_000_001n } },
        25,
      ),
    ).toBe(
      "the check RPC answers total assets 1000000001 at NAV #7 (slot 100), the RPC 1000000000 at NAV #7 (slot 100)",
    );
    expect(
      assetsDisagreement({ slot: 100n, state }, { slot: 100n, state: { ...state, navSequence: 6n } }, 25),
    ).toMatch(/at NAV #6/);
    expect(assetsDisagreement({ slot: 100n, state }, { slot: 100n, state: null }, 25)).toBe(
      "the check RPC has no such vault (slot 100)",
    );
  });
});

describe("NAV sources", () => {
  const reading = {
    vault: VAULT,
    totalAssets: 1_000_000_000_000n,
    navUpdatedAt: 1_000n,
    now: 1_000n + 365n * 86_400n,
  };

  it("simulated:<apy> accrues the rate since the last strike, at most a day of it", async () => {
    expect(accruedYield(1_000_000_000_000n, 1_000n, 365n * 86_400n)).toBe(100_000_000_000n);
    const source = parseNavSource("simulated:7.5");
    expect(source.simulated).toBe(true);
    // Capped at one day: 1,000,000 units × 7.5 % / 365.
    expect(await source.currentTotalAssets(reading)).toBe(1_000_000_000_000n + 205_479_452n);
    expect(await source.currentTotalAssets({ ...reading, now: reading.navUpdatedAt + 60n })).toBe(
      1_000_000_000_000n + 142_694n,
    );
    expect(await source.currentTotalAssets({ ...reading, navUpdatedAt: 0n })).toBe(1_000_000_000_000n);
  });

  it("file:<path> reads a number or a per-vault JSON document", async () => {
    const directory = mkdtempSync(join(tmpdir(), "nav-source-"));
    const plain = join(directory, "plain.txt");
    writeFileSync(plain, "1234567\n");
    expect(await parseNavSource(`file:${plain}`).currentTotalAssets(reading)).toBe(1_234_567n);
    const byVault = join(directory, "vaults.json");
    writeFileSync(byVault, JSON.stringify({ [VAULT]: "99000000" }));
    expect(await parseNavSource(`file:${byVault}`).currentTotalAssets(reading)).toBe(99_000_000n);
    writeFileSync(byVault, JSON.stringify({ other: "1" }));
    await expect(parseNavSource(`file:${byVault}`).currentTotalAssets(reading)).rejects.toThrow(
      OperatorError,
    );
    await expect(
      parseNavSource(`file:${join(directory, "absent")}`).currentTotalAssets(reading),
    ).rejects.toThrow(/cannot be read/);
  });

  it("http(s):// asks for the vault and reads { totalAssets }", async () => {
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://x");
      if (url.pathname === "/broken") {
        response.writeHead(502).end();
        return;
      }
      const vault = url.searchParams.get("vault") ?? url.pathname.split("/").at(-1);
      response
        .writeHead(200, { "Content-Type": "application/json" })
        .end(JSON.stringify({ totalAssets: vault === VAULT ? "5000000" : "0" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await parseNavSource(`${base}/nav`).currentTotalAssets(reading)).toBe(5_000_000n);
      expect(await parseNavSource(`${base}/nav/{vault}`).currentTotalAssets(reading)).toBe(5_000_000n);
      await expect(parseNavSource(`${base}/broken`).currentTotalAssets(reading)).rejects.toThrow(/HTTP 502/);
    } finally {
      server.close();
    }
  });

  it.each(["simulated:abc", "simulated:1.234", "file:", "ftp://x", "nonsense"])("refuses %s", (text) => {
    expect(() => parseNavSource(text)).toThrow(OperatorError);
  });
});

// On the local chain (the program built from programs/vault): the keeper delivers a claimable
// withdrawal without its owner signing, two keepers deliver it once, an owner with no USDC account is
// skipped, and a check RPC that answers other assets (a proxy rewriting the vault account) stops strikes.
const USDC = 1_000_000n;
let localnet: LocalnetHandle;
let connection: Connection;
let prime: LocalnetVault;

interface Member {
  wallet: Keypair;
  usdc: PublicKey;
  shares: PublicKey;
}

async function send(instructions: TransactionInstruction[], signer: Keypair): Promise<string> {
  const latest = await connection.getLatestBlockhash();
  const transaction = new Transaction({ feePayer: signer.publicKey, recentBlockhash: latest.blockhash }).add(
    ...instructions,
  );
  transaction.sign(signer);
  const signature = await connection.sendRawTransaction(transaction.serialize());
  const { value } = await connection.confirmTransaction({ signature, ...latest }, "confirmed");
  expect(value.err).toBeNull();
  return signature;
}

async function tokenBalance(account: PublicKey): Promise<bigint> {
  return BigInt((await connection.getTokenAccountBalance(account)).value.amount);
}

async function vaultState(): Promise<VaultState> {
  const account = await connection.getAccountInfo(prime.vault);
  return decodeVaultState(account?.data ?? new Uint8Array());
}

/** A wallet that deposited `usdc` and requested `shares` back, the request not yet claimable. */
async function memberWithRequest(usdc: bigint, shares: bigint): Promise<Member> {
  const wallet = await fundedWallet(connection, 2 * LAMPORTS_PER_SOL);
  const response = await postRaw(
    localnet.faucetUrl,
    JSON.stringify({ wallet: wallet.publicKey.toBase58(), amount: usdc.toString() }),
  );
  expect(response.status).toBe(200);
  const member = {
    wallet,
    usdc: findAssociatedTokenAddress(wallet.publicKey, localnet.addresses.usdcMint),
    shares: findAssociatedTokenAddress(wallet.publicKey, prime.shareMint),
  };
  await waitFor(async () => ((await connection.getAccountInfo(member.usdc)) === null ? undefined : true));
  await send(
    [
      buildCreateAssociatedTokenAccountIdempotentInstruction(
        wallet.publicKey,
        wallet.publicKey,
        prime.shareMint,
      ),
      buildDepositInstruction(
        {
          depositor: wallet.publicKey,
          vault: prime.vault,
          authority: prime.authority,
          shareMint: prime.shareMint,
          reserve: prime.reserve,
          depositorAsset: member.usdc,
          depositorShares: member.shares,
        },
        { amount: usdc, minSharesOut: 0n },
      ),
      buildRequestWithdrawalInstruction(
        {
          owner: wallet.publicKey,
          vault: prime.vault,
          receipt: findReceipt(prime.vault, wallet.publicKey),
          ownerShares: member.shares,
          escrow: prime.escrow,
        },
        { shares, maxFeeBps: 10_000 },
      ),
    ],
    wallet,
  );
  return member;
}

/** The keeper of the dev manager over `rpcUrl`, driven by the test (no schedule), delivering. */
function testKeeper(name: string, lines: string[], checkClient?: ChainClient): Keeper {
  const roles = devRoles();
  return new Keeper({
    client: new ChainClient(localnet.rpcUrl),
    checkClient,
    manager: roles.manager,
    mintAuthority: roles.mintAuthority,
    navSource: parseNavSource("simulated:10"),
    lock: soleLeaderLock(),
    vaults: [prime.vault],
    settings: { deliverMaxPerPass: 10, attempts: 1 },
    name,
    log: (line) => lines.push(line),
  });
}

/** The claim by the program's own formula: gross floored, fee rounded up, at the vault's totals now. */
function expectedNet(state: VaultState, shares: bigint, feeBps: bigint): bigint {
  const gross = (shares * (state.totalAssets + 1n)) / (state.totalShares + 1_000n);
  const fee = (gross * feeBps + 9_999n) / 10_000n;
  return gross - fee;
}

async function makeClaimable(): Promise<void> {
  const keeper = localnet.keeper;
  if (keeper === null) {
    throw new Error("the localnet started without its keeper");
  }
  expect(await keeper.strikeNav(prime.vault)).not.toBeNull();
  expect(await keeper.stageWithdrawals(prime.vault)).not.toBeNull();
}

async function actionCount(action: string, outcome: string): Promise<number> {
  const { values } = await processMetrics().keeperActions.get();
  return values
    .filter(
      (sample) =>
        sample.labels.vault === prime.vault.toBase58() &&
        sample.labels.action === action &&
        sample.labels.outcome === outcome,
    )
    .reduce((sum, sample) => sum + sample.value, 0);
}

describe.skipIf(!hasProgramBinary)("the keeper on the local chain", () => {
  beforeAll(async () => {
    localnet = await startTestLocalnet({
      keeper: { enabled: true, scheduled: false },
      faucet: { requestsPerMinute: 1_000 },
    });
    connection = connect(localnet);
    const vault = localnet.addresses.vaults.find((candidate) => candidate.spec.name === "USDC Prime");
    if (vault === undefined) {
      throw new Error("Genesis did not create USDC Prime");
    }
    prime = vault;
  });

  afterAll(async () => {
    closeConnection(connection);
    await localnet.stop();
  });

  it("delivers a claimable withdrawal, once, without its owner signing again, with the exact net", async () => {
    const member = await memberWithRequest(100n * USDC, 40_000n * USDC);
    const receiptAddress = findReceipt(prime.vault, member.wallet.publicKey);
    const lines: string[] = [];
    const first = testKeeper("keeper-a", lines);
    const second = testKeeper("keeper-b", lines);
    // Not claimable yet (no NAV struck past its floor, queue unfunded): nothing to deliver.
    expect(await first.deliverWithdrawals(prime.vault)).toEqual([]);
    await makeClaimable();

    const state = await vaultState();
    const receipt = decodeReceiptState(
      (await connection.getAccountInfo(receiptAddress))?.data ?? new Uint8Array(),
    );
    const net = expectedNet(state, receipt.shares, BigInt(receipt.feeBps));
    // 40 shares at a share price just above 1 less the 0.1 % fee: 39.96 USDC and the yield's dust.
    expect(net).toBeGreaterThanOrEqual(39_960_000n);
    expect(net).toBeLessThan(39_970_000n);
    const before = await tokenBalance(member.usdc);
    const sentBefore = await actionCount("deliver", "sent");

    // Two keepers at once: one delivers, the other finds it delivered (or already gone); none fails.
    const reports = (
      await Promise.all([first.deliverWithdrawals(prime.vault), second.deliverWithdrawals(prime.vault)])
    ).flat();
    console.log(
      `keeper.test: two keepers at once: ${reports.map((report) => `${report.outcome}${report.net === null ? "" : ` ${report.net}`}`).join(", ")}`,
    );
    const delivered = reports.filter((report) => report.outcome === "delivered");
    expect(delivered).toHaveLength(1);
    expect(
      reports.filter((report) => report.outcome !== "delivered" && report.outcome !== "already claimed"),
    ).toEqual([]);
    expect(delivered[0]).toMatchObject({
      owner: member.wallet.publicKey.toBase58(),
      requestId: receipt.requestId,
      net,
    });
    expect(await tokenBalance(member.usdc)).toBe(before + net);
    expect(await connection.getAccountInfo(receiptAddress)).toBeNull();
    expect(await actionCount("deliver", "sent")).toBe(sentBefore + 1);

    // The claim's transaction: signed by the manager alone, the owner's USDC account paid `net`.
    const transaction = await connection.getTransaction(delivered[0]?.signature ?? "", {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    const message = transaction?.transaction.message;
    expect(message?.header.numRequiredSignatures).toBe(1);
    expect(message?.staticAccountKeys[0]?.toBase58()).toBe(localnet.addresses.manager.toBase58());
    const claimed = decodeVaultEvents(transaction?.meta?.logMessages ?? []).find(
      (event) => event.name === "WithdrawalClaimed",
    );
    expect(claimed?.name === "WithdrawalClaimed" ? claimed.data.net : null).toBe(net);
    expect(lines.some((line) => line.includes(`delivered request #${receipt.requestId}: ${net} to`))).toBe(
      true,
    );

    // A later pass finds nothing: a delivered withdrawal is not sent again.
    expect(await second.deliverWithdrawals(prime.vault)).toEqual([]);
    expect(await tokenBalance(member.usdc)).toBe(before + net);
  });

  it("skips, and says why, a claimable withdrawal whose owner has no USDC account", async () => {
    const member = await memberWithRequest(50n * USDC, 20_000n * USDC);
    // The owner empties and closes its USDC account (SPL Token CloseAccount: tag 9).
    expect(await tokenBalance(member.usdc)).toBe(0n);
    await send(
      [
        new TransactionInstruction({
          programId: TOKEN_PROGRAM_ID,
          keys: [
            { pubkey: member.usdc, isSigner: false, isWritable: true },
            { pubkey: member.wallet.publicKey, isSigner: false, isWritable: true },
            { pubkey: member.wallet.publicKey, isSigner: true, isWritable: false },
          ],
          data: Buffer.from([9]),
        }),
      ],
      member.wallet,
    );
    await makeClaimable();
    const lines: string[] = [];
    const keeper = testKeeper("keeper-a", lines);
    const reports = await keeper.deliverWithdrawals(prime.vault);
    expect(reports).toEqual([
      expect.objectContaining({ owner: member.wallet.publicKey.toBase58(), outcome: "no asset account" }),
    ]);
    expect(await connection.getAccountInfo(findReceipt(prime.vault, member.wallet.publicKey))).not.toBeNull();
    expect(lines.filter((line) => line.includes("claimable but not delivered"))).toEqual([
      expect.stringContaining(
        `the owner has no ${localnet.addresses.usdcMint.toBase58()} account at ${member.usdc.toBase58()}`,
      ),
    ]);
    // Logged once, not on every pass.
    await keeper.deliverWithdrawals(prime.vault);
    expect(lines.filter((line) => line.includes("claimable but not delivered"))).toHaveLength(1);
  });

  it("closes the hole list a staging emptied by itself, in a cycle, the rent back to the wallet whose cancel paid it", async () => {
    // Three requests; the middle one is cancelled unfunded: a hole, and the list its owner pays for.
    const head = await memberWithRequest(10n * USDC, 5_000n * USDC);
    const middle = await memberWithRequest(10n * USDC, 5_000n * USDC);
    const behind = await memberWithRequest(10n * USDC, 5_000n * USDC);
    const queueHoles = findQueueHoles(prime.vault);
    await send(
      [
        buildCancelWithdrawalInstruction({
          owner: middle.wallet.publicKey,
          vault: prime.vault,
          receipt: findReceipt(prime.vault, middle.wallet.publicKey),
          ownerShares: middle.shares,
          escrow: prime.escrow,
          authority: prime.authority,
          shareMint: prime.shareMint,
          queueHoles,
        }),
      ],
      middle.wallet,
    );
    const list = await connection.getAccountInfo(queueHoles);
    expect(list === null ? null : decodeQueueHolesState(list.data).holes).toHaveLength(1);
    const rent = BigInt(await connection.getMinimumBalanceForRentExemption(QUEUE_HOLES_ACCOUNT_SIZE));
    expect(BigInt(list?.lamports ?? 0)).toBe(rent);
    const walletBefore = BigInt(await connection.getBalance(middle.wallet.publicKey));
    const closedBefore = await actionCount("close hole list", "sent");

    // The keeper's own cycle, as scheduled (here with no wait between stagings): it stages past the hole,
    // finds the list empty and closes it; nobody else acts.
    const lines: string[] = [];
    const keeper = new Keeper({
      client: new ChainClient(localnet.rpcUrl),
      manager: devRoles().manager,
      navSource: parseNavSource("simulated:10"),
      lock: soleLeaderLock(),
      vaults: [prime.vault],
      settings: { stageIntervalSeconds: 0, deliverMaxPerPass: 0, attempts: 1 },
      log: (line) => lines.push(line),
    });
    const closed = await waitFor(async () => {
      const report = await keeper.runCycle();
      return report.holeListsClosed[0];
    });
    expect(closed).toMatchObject({
      vault: prime.vault.toBase58(),
      payer: middle.wallet.publicKey.toBase58(),
      lamports: rent,
    });
    expect(await connection.getAccountInfo(queueHoles)).toBeNull();
    // Every lamport of the rent, to the wallet that paid it (the keeper paid the fee).
    expect(BigInt(await connection.getBalance(middle.wallet.publicKey)) - walletBefore).toBe(rent);
    expect(await actionCount("close hole list", "sent")).toBe(closedBefore + 1);
    expect(lines.some((line) => line.includes(`hole list closed, ${rent} lamports back to`))).toBe(true);
    // The requests around the hole were funded; a later cycle finds no list to close.
    const state = await vaultState();
    for (const member of [head, behind]) {
      const receipt = decodeReceiptState(
        (await connection.getAccountInfo(findReceipt(prime.vault, member.wallet.publicKey)))?.data ??
          new Uint8Array(),
      );
      expect(state.queueFunded).toBeGreaterThanOrEqual(receipt.queueEnd);
    }
    expect((await keeper.runCycle()).holeListsClosed).toEqual([]);
    await keeper.stop();
  });

  it("refuses to strike when the check RPC answers other assets, or answers from too far behind", async () => {
    const lie: { assets: bigint; slots: number } = { assets: 0n, slots: 0 };
    const proxy = await rewritingProxy(localnet.rpcUrl, prime.vault.toBase58(), lie);
    try {
      const lines: string[] = [];
      const honest = await vaultState();
      // One USDC unit more than the chain holds: a node on another fork, or lying.
      lie.assets = 1n;
      const refusedBefore = await actionCount("strike", "rpcs disagree");
      const keeper = testKeeper("keeper-a", lines, new ChainClient(proxy.url));
      expect(await keeper.strikeNav(prime.vault)).toBeNull();
      expect((await vaultState()).navSequence).toBe(honest.navSequence);
      expect(lines).toEqual([
        expect.stringContaining(
          `strike skipped: the check RPC answers total assets ${honest.totalAssets + 1n} at NAV #${honest.navSequence}`,
        ),
      ]);
      expect(await actionCount("strike", "rpcs disagree")).toBe(refusedBefore + 1);

      // The same assets, said to be 1,000 slots apart: not the same moment of the chain.
      lie.assets = 0n;
      lie.slots = 1_000;
      const slotBefore = localnet.chain.slot;
      expect(await keeper.strikeNav(prime.vault)).toBeNull();
      const slotsMeanwhile = Number(localnet.chain.slot - slotBefore);
      expect(lines.at(-1)).toMatch(
        /strike skipped: the check RPC answered at slot \d+, the RPC at slot \d+: \d+ slots apart, more than 25$/,
      );
      // 1,000 apart, give or take the slots the chain made between the two reads (however many a busy
      // machine let pass during the strike's reads).
      const apart = Number(/(\d+) slots apart/.exec(lines.at(-1) ?? "")?.[1]);
      expect(Math.abs(apart - 1_000)).toBeLessThanOrEqual(slotsMeanwhile);
      expect(await actionCount("strike", "rpcs disagree")).toBe(refusedBefore + 2);

      // The proxy passing answers through unchanged: the two agree and the strike lands.
      lie.slots = 0;
      const struck = await keeper.strikeNav(prime.vault);
      expect(struck?.navSequence).toBe(honest.navSequence + 1n);
      expect((await vaultState()).navSequence).toBe(honest.navSequence + 1n);
    } finally {
      await proxy.close();
    }
  });
});

/**
 * An HTTP JSON-RPC proxy to `target` that, for getAccountInfo of `vault`, adds `lie.assets` to the
 * vault's total_assets in the account data and `lie.slots` to the answer's context slot.
 */
async function rewritingProxy(
  target: string,
  vault: string,
  lie: { assets: bigint; slots: number },
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      void fetch(target, { method: "POST", headers: { "Content-Type": "application/json" }, body })
        .then((answer) => answer.json() as Promise<unknown>)
        .then((answer) => {
          const call = JSON.parse(body) as { method?: string; params?: unknown[] };
          const rewritten =
            call.method === "getAccountInfo" && call.params?.[0] === vault
              ? rewriteVault(answer, lie)
              : answer;
          response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(rewritten));
        })
        .catch(() => response.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function rewriteVault(answer: unknown, lie: { assets: bigint; slots: number }): unknown {
  const parsed = answer as {
    result: { context: { slot: number }; value: { data: [string, string] } | null };
  };
  const value = parsed.result.value;
  if (value === null) {
    return answer;
  }
  const data = Buffer.from(value.data[0], "base64");
  if (lie.assets !== 0n) {
    const total = decodeVaultState(data).totalAssets;
    const needle = Buffer.alloc(8);
    needle.writeBigUInt64LE(total);
    const offset = data.indexOf(needle);
    if (offset < 0 || data.indexOf(needle, offset + 1) >= 0) {
      throw new Error("total_assets is not found exactly once in the vault account");
    }
    data.writeBigUInt64LE(total + lie.assets, offset);
  }
  return {
    ...parsed,
    result: {
      context: { ...parsed.result.context, slot: parsed.result.context.slot + lie.slots },
      value: { ...value, data: [data.toString("base64"), value.data[1]] },
    },
  };
}
