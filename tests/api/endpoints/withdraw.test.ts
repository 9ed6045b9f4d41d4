// GET, POST and PUT /api/vault/{vault_id}/withdraw: one wallet's withdrawal through its states (status,
// refusals, initiate, pending, claim), against the local chain; the keeper runs only when a test calls
// it, so the states are set up deliberately.
import { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { AccountCache } from "../../../lib/chain/accounts";
import type { Indexer } from "../../../lib/indexer/indexer";
import { createIndexer } from "../../../lib/server/indexer";
import { decodeVaultState } from "../../../lib/vault/program/accounts";
import { historyRecordResponse } from "../../../lib/api/schemas/history";
import { withdrawResponse, withdrawalStatusResponse } from "../../../lib/api/schemas/withdraw";
import { WITHDRAWAL_RECEIPT_ACCOUNT_SIZE } from "../../../lib/vault/program/idl";
import { rentExemptMinimum } from "../../../lib/vault/model/vault-state";
import { getWithdrawalStatus } from "../../../lib/vault/reads/withdrawal-status";
import { findAssociatedTokenAddress, tokenAccountAmount } from "../../../lib/chain/spl-token";
import { USDC, dataOf } from "../harness";
import { endpointSuite, errorBody, expectError } from "./setup";

const api = endpointSuite();

describe("withdrawals: GET, POST and PUT /api/vault/{vault_id}/withdraw", () => {
  let wallet: Keypair;
  let address: string;
  let initiateSignature: string;
  let indexer: Indexer;

  beforeAll(async () => {
    wallet = await api.harness.fundedWallet(1_000n * USDC);
    address = wallet.publicKey.toBase58();
    await api.deposit(wallet, 500n * USDC);
    // Run by hand (runOnce) before the status reads whose milestones come from indexed events.
    indexer = createIndexer(api.harness.context, { intervalMs: 60_000, schema: api.harness.schema });
  });

  afterAll(async () => {
    await indexer.stop();
  });

  /** The vault's nav_updated_at now, as an ISO time: the strike the test just made. */
  async function lastStrikeIso(): Promise<string> {
    const account = await api.harness.connection.getAccountInfo(api.primeVault().vault);
    const state = decodeVaultState(account?.data ?? new Uint8Array());
    return new Date(Number(state.navUpdatedAt) * 1000).toISOString();
  }

  it("reports no pending withdrawal with zeros and nulls", async () => {
    const result = await api.harness.request("GET", `${api.withdrawPath()}?wallet=${address}`, {
      key: api.readKey,
    });
    expect(withdrawalStatusResponse.parse(result.body).data).toMatchObject({
      hasPendingWithdrawal: false,
      pendingShares: "0",
      estimatedUsdcAmount: { amount: "0", symbol: "USDC" },
      canClaimNow: false,
      createdAt: null,
      estimate: null,
      progress: null,
    });
  });

  it("answers concurrent status reads of one wallet with one chain read", async () => {
    const { context } = api.harness;
    const { config } = context;
    const status = () =>
      getWithdrawalStatus(
        context.deps,
        context.store.history,
        {
          navIntervalSeconds: config.navIntervalSeconds,
          stageIntervalSeconds: config.stageIntervalSeconds,
          stageMaxShares: config.stageMaxShares,
          keeperTickSeconds: config.keeperTickSeconds,
        },
        { vault: api.primeVault().vault, wallet: wallet.publicKey },
      );
    // The vault's layout is known from the first read on.
    await status();
    const before = context.rpc.counts.request;
    const [first, second] = await Promise.all([status(), status()]);
    expect(context.rpc.counts.request - before).toBe(1);
    expect([second.hasPendingWithdrawal, second.canClaimNow, second.pendingShares]).toEqual([
      first.hasPendingWithdrawal,
      first.canClaimNow,
      first.pendingShares,
    ]);
  });

  it("shares a fresh read only with callers who asked before it was sent: a change is in the next answer", async () => {
    const { context } = api.harness;
    const depositor = await api.harness.fundedWallet(10n * USDC);
    const usdcAccount = findAssociatedTokenAddress(
      depositor.publicKey,
      api.harness.localnet.addresses.usdcMint,
    );
    const accounts = new AccountCache(context.rpc, { freshMs: 60_000, staleMs: 60_000 });
    const read = async () => {
      const [account] = await accounts.get([usdcAccount], { fresh: true, shared: true });
      return account === null || account === undefined
        ? null
        : tokenAccountAmount(account.owner, account.data);
    };
    const calls = () => context.rpc.counts.request;
    const start = calls();
    const [first, second] = await Promise.all([read(), read()]);
    expect(calls() - start).toBe(1);
    expect(second).toBe(first);
    // A caller asking while a read is on the wire does not take that read's answer: it gets the next.
    const onTheWire = read();
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const asked = calls();
    await Promise.all([onTheWire, read()]);
    expect(calls() - asked).toBe(1);
    // A change that landed before the read was asked for is in its answer.
    await api.deposit(depositor, USDC);
    expect(first).toBe(10n * USDC);
    expect(await read()).toBe(9n * USDC);
  });

  it.each([
    [
      "claim with nothing pending",
      { action: "claim" },
      errorBody(409, "NO_PENDING_WITHDRAWAL", "This wallet has no pending withdrawal in this vault to claim"),
    ],
    [
      "initiate without sharesAmount",
      {},
      errorBody(400, "INVALID_AMOUNT", "sharesAmount: is required when initiating a withdrawal"),
    ],
    [
      "below the vault's minimum",
      { sharesAmount: "1" },
      errorBody(
        422,
        "BELOW_MINIMUM",
        // Shares have 9 decimals (the asset's 6 plus the program's offset of 3).
        "The vault's minimum withdrawal is 1.00 vUSDC; 0.000000001 vUSDC requested",
      ),
    ],
    [
      "more shares than held",
      { sharesAmount: "900000000000" },
      errorBody(422, "INSUFFICIENT_BALANCE", /^The wallet holds 500\.00 vUSDC/),
    ],
    [
      "an unknown action",
      { action: "steal", sharesAmount: "1000000" },
      errorBody(400, "INVALID_REQUEST", "action: must be initiate, claim or cancel"),
    ],
  ])("refuses %s", async (_name, fields, expected) => {
    expectError(
      await api.harness.request("POST", api.withdrawPath(), {
        key: api.writeKey,
        body: { wallet: address, ...fields },
      }),
      expected,
    );
  });

  it("initiates (auto-detected) with the policy, limits and estimate, and never a reservation", async () => {
    const result = await api.harness.request("POST", api.withdrawPath(), {
      key: api.writeKey,
      body: { wallet: address, sharesAmount: "100000000000" },
    });
    const data = withdrawResponse.parse(result.body).data;
    expect(data.action).toBe("initiate");
    if (data.action !== "initiate") {
      return;
    }
    expect(data.details.withdrawalReservation).toBeNull();
    expect(data.details.withdrawalEstimate).toMatchObject({
      shares: { amount: "100000000000", symbol: "vUSDC", decimals: 9 },
      gross: { amount: "100000000" },
      fee: { amount: "100000" },
      net: { amount: "99900000" },
    });
    expect(data.details.withdrawalPolicy).toMatchObject({ feeBps: 10, queueOrder: "fifo" });
    expect(data.details.withdrawalLimits.hourly.cap?.amount).toBe("25000000000");
    // Derived at build time: the shares leave for the escrow; SOL pays the fee and the receipt's rent.
    expect(data.expectedBalanceChanges).toMatchObject({
      asset: { amount: "0" },
      shares: { amount: "-100000000000", symbol: "vUSDC" },
      sol: {
        lamports: (-(
          BigInt(data.expectedBalanceChanges?.networkFeeLamports ?? "0") +
          rentExemptMinimum(WITHDRAWAL_RECEIPT_ACCOUNT_SIZE)
        )).toString(),
      },
    });
    initiateSignature = await api.harness.signAndSend(data.transaction, wallet);
  });

  it("reports the pending withdrawal: shares, value, progress, the NAV it waits for, and when it was requested", async () => {
    const status = withdrawalStatusResponse.parse(
      (await api.harness.request("GET", `${api.withdrawPath()}?wallet=${address}`, { key: api.readKey }))
        .body,
    ).data;
    const onChain = await api.harness.connection.getTransaction(initiateSignature, {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    expect(status).toMatchObject({
      hasPendingWithdrawal: true,
      pendingShares: "100000000000",
      estimatedUsdcAmount: { amount: "100000000" },
      canClaimNow: false,
      // The NAV strike and the staging are both outstanding (this test's keeper acts only when
      // called, so the band is whatever its schedule says, or none).
      estimate: { awaiting: ["nav", "staging"] },
      progress: { totalShares: "100000000000", stagedShares: "0" },
    });
    // Before the initiate is recorded, createdAt comes from the chain; after, from history: the same.
    expect(status.createdAt).toBe(new Date((onChain?.blockTime ?? 0) * 1000).toISOString());
    dataOf(
      await api.harness.request("POST", "/api/history", {
        key: api.writeKey,
        body: { wallet: address, vault_id: api.harness.vaultId, signature: initiateSignature },
      }),
    );
    const again = dataOf(
      await api.harness.request("GET", `${api.withdrawPath()}?wallet=${address}`, { key: api.readKey }),
    );
    expect(again.createdAt).toBe(status.createdAt);
  });

  it("refuses a second initiate (409), and an auto-detected claim that is not claimable yet (409)", async () => {
    expectError(
      await api.harness.request("PUT", api.withdrawPath(), {
        key: api.writeKey,
        body: { wallet: address, sharesAmount: "1000000", action: "initiate" },
      }),
      errorBody(409, "WITHDRAWAL_PENDING", /^This wallet already has a pending withdrawal of 100\.00 vUSDC/),
    );
    expectError(
      await api.harness.request("POST", api.withdrawPath(), { key: api.writeKey, body: { wallet: address } }),
      errorBody(409, "WITHDRAWAL_NOT_CLAIMABLE", /no NAV has been struck since the withdrawal was requested/),
    );
  });

  it("claims, auto-detected through PUT, once a NAV is struck and the queue funded; the message states the amount", async () => {
    await api.keeper().strikeNav(api.primeVault().vault);
    await api.keeper().stageWithdrawals(api.primeVault().vault);
    const struckAt = await lastStrikeIso();
    await indexer.runOnce();
    const status = withdrawalStatusResponse.parse(
      (await api.harness.request("GET", `${api.withdrawPath()}?wallet=${address}`, { key: api.readKey }))
        .body,
    ).data;
    expect(status).toMatchObject({
      canClaimNow: true,
      estimate: { kind: "ready", band: null, awaiting: [] },
      progress: { fraction: 1 },
    });
    // The milestones from the indexed events: requested, then the strike past its floor, then the
    // staging that funded it; claimable at the later of the two; not claimed yet.
    const milestones = status.milestones;
    expect(milestones).toMatchObject({
      requestedAt: status.createdAt,
      navStruckAt: struckAt,
      claimedAt: null,
      claimedBy: null,
      claimedNet: null,
    });
    expect(milestones?.fundedAt).not.toBeNull();
    const times = [milestones?.navStruckAt, milestones?.fundedAt].map((time) => Date.parse(time ?? ""));
    expect(milestones?.claimableAt).toBe(new Date(Math.max(...times)).toISOString());
    expect(Date.parse(milestones?.fundedAt ?? "")).toBeGreaterThanOrEqual(Date.parse(status.createdAt ?? ""));
    const claim = await api.harness.request("PUT", api.withdrawPath(), {
      key: api.writeKey,
      body: { wallet: address },
    });
    expect(claim.status, claim.text).toBe(200);
    const data = withdrawResponse.parse(claim.body).data;
    expect(data.action).toBe("claim");
    if (data.action !== "claim") {
      return;
    }
    expect(data.details.withdrawalEstimate).toBeNull();
    expect(data.details.withdrawalReservation).toBeNull();
    expect(data.message).toMatch(/^Claim about 99\.9\d* USDC/);
    // Derived at build time: the net claim arrives, no shares move (they were escrowed), and the
    // receipt's rent comes back less the fee.
    expect(data.expectedBalanceChanges).toMatchObject({
      asset: { amount: data.details.claimAmount.net.amount },
      shares: { amount: "0" },
      sol: {
        lamports: (
          rentExemptMinimum(WITHDRAWAL_RECEIPT_ACCOUNT_SIZE) -
          BigInt(data.expectedBalanceChanges?.networkFeeLamports ?? "0")
        ).toString(),
      },
    });
    expect(BigInt(data.details.claimAmount.net.amount)).toBeGreaterThan(99_000_000n);
    const signature = await api.harness.signAndSend(data.transaction, wallet);
    const recorded = historyRecordResponse.parse(
      (
        await api.harness.request("POST", "/api/history", {
          key: api.writeKey,
          body: { wallet: address, vault_id: api.harness.vaultId, signature },
        })
      ).body,
    ).data;
    expect(recorded).toMatchObject({
      duplicate: false,
      activity: { kind: "claim", fee: { symbol: "USDC" } },
    });
    // Nothing pending now; the milestones are the claimed withdrawal's, claimed by its owner.
    await indexer.runOnce();
    const after = withdrawalStatusResponse.parse(
      (await api.harness.request("GET", `${api.withdrawPath()}?wallet=${address}`, { key: api.readKey }))
        .body,
    ).data;
    const claimedAt = (
      await api.harness.connection.getTransaction(signature, {
        commitment: "confirmed",
        maxSupportedTransactionVersion: 0,
      })
    )?.blockTime;
    expect(after).toMatchObject({
      hasPendingWithdrawal: false,
      milestones: {
        navStruckAt: status.milestones?.navStruckAt,
        claimedBy: "owner",
        claimSigner: address,
        claimedNet: { amount: data.details.claimAmount.net.amount, symbol: "USDC" },
      },
    });
    expect(
      Math.abs(Date.parse(after.milestones?.claimedAt ?? "") / 1000 - (claimedAt ?? 0)),
    ).toBeLessThanOrEqual(1);
  });

  it("says a withdrawal the keeper delivered arrived: when, how much, and that the keeper sent it", async () => {
    const other = await api.harness.fundedWallet(200n * USDC);
    const otherAddress = other.publicKey.toBase58();
    await api.deposit(other, 100n * USDC);
    const initiate = withdrawResponse.parse(
      (
        await api.harness.request("POST", api.withdrawPath(), {
          key: api.writeKey,
          body: { wallet: otherAddress, sharesAmount: "50000000000" },
        })
      ).body,
    ).data;
    await api.harness.signAndSend(initiate.transaction, other);
    await api.keeper().strikeNav(api.primeVault().vault);
    await api.keeper().stageWithdrawals(api.primeVault().vault);
    const usdc = async () =>
      BigInt(
        (
          await api.harness.connection.getTokenAccountBalance(
            findAssociatedTokenAddress(other.publicKey, api.harness.localnet.addresses.usdcMint),
          )
        ).value.amount,
      );
    const before = await usdc();
    // The keeper claims for the owner, who signs nothing.
    const [delivery] = await api.keeper().deliverWithdrawals(api.primeVault().vault);
    expect(delivery).toMatchObject({ owner: otherAddress, outcome: "delivered" });
    const net = delivery?.net ?? 0n;
    // 50 shares at a share price just above 1, less the 0.1 % fee.
    expect(net).toBeGreaterThanOrEqual(49_950_000n);
    expect(await usdc()).toBe(before + net);

    await indexer.runOnce();
    const status = withdrawalStatusResponse.parse(
      (await api.harness.request("GET", `${api.withdrawPath()}?wallet=${otherAddress}`, { key: api.readKey }))
        .body,
    ).data;
    expect(status).toMatchObject({
      hasPendingWithdrawal: false,
      canClaimNow: false,
      milestones: {
        claimedBy: "keeper",
        claimSigner: api.harness.localnet.addresses.manager.toBase58(),
        claimedNet: { amount: net.toString(), symbol: "USDC", decimals: 6 },
      },
    });
    const milestones = status.milestones;
    expect(Date.parse(milestones?.claimedAt ?? "")).toBeGreaterThanOrEqual(
      Date.parse(milestones?.claimableAt ?? ""),
    );
    expect(milestones?.requestedAt).not.toBeNull();
  });
});
