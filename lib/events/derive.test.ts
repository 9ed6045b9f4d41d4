// Partner events from stored program events, with numbers: ids stable across runs, token amounts as
// the API's, capacity_low only on the request that crosses the threshold, pause and resume only on a
// change.
import { describe, expect, it } from "vitest";

import type { StoredEvent } from "../store/indexer";
import { claimableEvent, partnerEventsOf, type VaultEventContext } from "./derive";
import { NO_PAUSE } from "../vault/model/pause";

const VAULT = "5wmiQyQXVpAVrfsVoQAqiHnkNZTW6n6998Rq56hs5DXS";
const WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const KEEPER = "KeeperManager111111111111111111111111111111";
const context: VaultEventContext = {
  asset: { mint: "AssetMint1111111111111111111111111111111111", symbol: "USDC", decimals: 6 },
  shares: { mint: "ShareMint1111111111111111111111111111111111", symbol: "vUSDC", decimals: 6 },
  hourlyCap: 1_000_000_000n,
  dailyCap: 0n,
  capacityLowBps: 1_000,
  pauseBefore: NO_PAUSE,
  // The wallet sent the transaction (its own deposit, request, claim or cancel).
  signers: [WALLET],
};

function stored(name: string, data: Record<string, unknown>, eventIndex = 0): StoredEvent {
  return {
    signature: "sig1",
    eventIndex,
    vault: VAULT,
    name,
    owner: "owner" in data ? String(data.owner) : null,
    requestId: "requestId" in data ? BigInt(String(data.requestId)) : null,
    slot: 42,
    blockTime: new Date(1_700_000_000_000),
    data: { vault: VAULT, timestamp: "1700000000", ...data },
  };
}

const request = (assets: bigint, hourlyUsed: bigint) =>
  stored("WithdrawalRequested", {
    owner: WALLET,
    requestId: "7",
    shares: "5000000",
    assets: assets.toString(),
    navFloor: "3",
    queueStart: "0",
    queueEnd: "5000000",
    hourlyUsed: hourlyUsed.toString(),
    dailyUsed: hourlyUsed.toString(),
  });

describe("partnerEventsOf", () => {
  it("turns a deposit with a partner fee into deposit.confirmed (net) and the partner's partner.fee_paid", () => {
    const partner = "PartnerWa11et111111111111111111111111111111";
    const events = partnerEventsOf(
      [
        stored("Deposited", { owner: WALLET, assets: "997500000", shares: "997500000" }, 0),
        stored(
          "PartnerFeePaid",
          { owner: WALLET, partner, assets: "1000000000", fee: "2500000", feeBps: "25" },
          1,
        ),
      ],
      context,
    );
    expect(events.map((event) => event.type)).toEqual(["deposit.confirmed", "partner.fee_paid"]);
    expect(events[0]?.data.assets).toMatchObject({ amount: "997500000" });
    expect(events[1]).toMatchObject({
      type: "partner.fee_paid",
      vault: VAULT,
      wallet: WALLET,
      signature: "sig1",
      data: {
        partner,
        assets: { amount: "1000000000", uiAmount: 1_000, symbol: "USDC" },
        fee: { amount: "2500000", uiAmount: 2.5, symbol: "USDC" },
        feeBps: 25,
      },
    });
  });

  it("turns a deposit into deposit.confirmed with token amounts and a stable id", () => {
    const deposit = stored("Deposited", { owner: WALLET, assets: "250000000", shares: "249000000" });
    const [event] = partnerEventsOf([deposit], context);
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: "deposit.confirmed",
      timestamp: "2023-11-14T22:13:20.000Z",
      vault: VAULT,
      wallet: WALLET,
      signature: "sig1",
      slot: 42,
      data: {
        assets: { mint: context.asset.mint, symbol: "USDC", amount: "250000000", decimals: 6, uiAmount: 250 },
        shares: {
          mint: context.shares.mint,
          symbol: "vUSDC",
          amount: "249000000",
          decimals: 6,
          uiAmount: 249,
        },
      },
    });
    expect(partnerEventsOf([deposit], context)[0]?.id).toBe(event?.id);
    expect(partnerEventsOf([{ ...deposit, eventIndex: 1 }], context)[0]?.id).not.toBe(event?.id);
  });

  it("turns a cancel into withdrawal.cancelled at its cancelled_at, with the shares that came back", () => {
    const cancel = stored("WithdrawalCancelled", {
      owner: WALLET,
      requestId: "7",
      shares: "5000000",
      feeShares: "5000",
      cancelledAt: "1700000120",
    });
    const [event, ...rest] = partnerEventsOf([cancel], context);
    expect(rest).toEqual([]);
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: "withdrawal.cancelled",
      // 120 s after the block time the fixture's other events carry: the event's own clock.
      timestamp: "2023-11-14T22:15:20.000Z",
      vault: VAULT,
      wallet: WALLET,
      signature: "sig1",
      slot: 42,
      data: {
        requestId: "7",
        // 5 vUSDC escrowed, 0.005 burned as the fee: 4.995 came back.
        shares: {
          mint: context.shares.mint,
          symbol: "vUSDC",
          amount: "4995000",
          decimals: 6,
          uiAmount: 4.995,
        },
        feeShares: {
          mint: context.shares.mint,
          symbol: "vUSDC",
          amount: "5000",
          decimals: 6,
          uiAmount: 0.005,
        },
      },
    });
    expect(partnerEventsOf([{ ...cancel, eventIndex: 1 }], context)[0]?.id).not.toBe(event?.id);
  });

  it("announces capacity_low only for the request that crosses under 10% of the cap", () => {
    // 850 used before + 100 = 950 used: 50 left of 1000, under the 100 threshold, from 150 above it.
    const crossing = partnerEventsOf([request(100_000_000n, 950_000_000n)], context);
    expect(crossing.map((event) => event.type)).toEqual(["withdrawal.requested", "vault.capacity_low"]);
    expect(crossing[1]).toMatchObject({
      wallet: null,
      data: {
        window: "hourly",
        remaining: { amount: "50000000" },
        threshold: { amount: "100000000" },
        cap: { amount: "1000000000" },
      },
    });
    // Already under before this request (940 used before): no second announcement.
    expect(partnerEventsOf([request(10_000_000n, 950_000_000n)], context).map((event) => event.type)).toEqual(
      ["withdrawal.requested"],
    );
    // Exactly at the threshold is not under it.
    expect(partnerEventsOf([request(100_000_000n, 900_000_000n)], context)).toHaveLength(1);
  });

  it("announces pause and resume on a change of the pause only, with its end and whose it is", () => {
    // The manager pauses for 7 days from 1,700,000,000 (event timestamps are 1,700,000,000).
    const weekLater = "1700604800";
    const config = (data: Record<string, unknown>, index: number) =>
      stored("ConfigUpdated", { paused: false, pauseUntil: "0", adminPaused: false, ...data }, index);
    const managerPause = { paused: true, pauseUntil: weekLater };
    expect(partnerEventsOf([config({}, 0)], context)).toEqual([]);
    const events = partnerEventsOf(
      [config(managerPause, 0), config(managerPause, 1), config({ pauseUntil: "1700000000" }, 2)],
      context,
    );
    expect(events.map((event) => [event.type, event.data])).toEqual([
      ["vault.paused", { pausedUntil: "2023-11-21T22:13:20.000Z", by: "manager" }],
      ["vault.resumed", { by: "manager" }],
    ]);
    const pauseBefore = { paused: true, pauseUntil: 1_700_604_800n, adminPaused: false };
    expect(partnerEventsOf([config(managerPause, 0)], { ...context, pauseBefore })).toEqual([]);
    // The admin holds it to day 20: announced again, by the admin; the admin's lift resumes it.
    const held = partnerEventsOf(
      [
        config({ paused: true, pauseUntil: "1701728000", adminPaused: true }, 0),
        config({ pauseUntil: "1700000000" }, 1),
      ],
      { ...context, pauseBefore },
    );
    expect(held.map((event) => [event.type, event.data])).toEqual([
      ["vault.paused", { pausedUntil: "2023-12-04T22:13:20.000Z", by: "admin" }],
      ["vault.resumed", { by: "admin" }],
    ]);
    // A pause that ended by itself: a ConfigUpdated after its end announces nothing.
    const ended = { paused: true, pauseUntil: 1_699_999_999n, adminPaused: false };
    expect(
      partnerEventsOf([config({ paused: true, pauseUntil: "1699999999" }, 0)], {
        ...context,
        pauseBefore: ended,
      }),
    ).toEqual([]);
  });

  it("announces a scheduled config as vault.config_scheduled, and its withdrawal with effectiveAt null", () => {
    // A fee raise to 1,000 bps and the hourly cap removed, effective 72 h after 1,700,000,000.
    const scheduled = stored("ConfigScheduled", {
      feeBps: 1_000,
      minWithdrawalShares: "5000000",
      hourlyCap: "0",
      dailyCap: "2000000000",
      effectiveAt: "1700259200",
    });
    const [event] = partnerEventsOf(
      [stored("ConfigUpdated", { paused: false }, 0), { ...scheduled, eventIndex: 1 }],
      context,
    );
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: "vault.config_scheduled",
      timestamp: "2023-11-14T22:13:20.000Z",
      vault: VAULT,
      wallet: null,
      signature: "sig1",
      slot: 42,
      data: {
        feeBps: 1_000,
        minWithdrawalShares: {
          mint: context.shares.mint,
          symbol: "vUSDC",
          amount: "5000000",
          decimals: 6,
          uiAmount: 5,
        },
        hourlyCap: null,
        dailyCap: {
          mint: context.asset.mint,
          symbol: "USDC",
          amount: "2000000000",
          decimals: 6,
          uiAmount: 2_000,
        },
        effectiveAt: "2023-11-17T22:13:20.000Z",
      },
    });
    const [withdrawn] = partnerEventsOf(
      [{ ...scheduled, data: { ...scheduled.data, effectiveAt: "0" } }],
      context,
    );
    expect(withdrawn?.data.effectiveAt).toBeNull();
  });

  it("names who delivered a claim its owner did not sign, and no one for the owner's own", () => {
    const claimed = stored("WithdrawalClaimed", {
      owner: WALLET,
      requestId: "7",
      shares: "5000000",
      gross: "5005000",
      fee: "5005",
      net: "4999995",
    });
    const [delivered] = partnerEventsOf([claimed], { ...context, signers: [KEEPER] });
    expect(delivered).toMatchObject({
      type: "withdrawal.claimed",
      wallet: WALLET,
      data: {
        requestId: "7",
        net: { amount: "4999995", symbol: "USDC" },
        fee: { amount: "5005", symbol: "USDC" },
        deliveredBy: KEEPER,
      },
    });
    // A fee payer beside the owner's signature (a sponsored claim) is the owner's own claim.
    for (const signers of [[WALLET], [KEEPER, WALLET]]) {
      expect(partnerEventsOf([claimed], { ...context, signers })[0]?.data.deliveredBy).toBeNull();
    }
  });

  it("names the request and the trigger in withdrawal.claimable, with one id per request", () => {
    const nav = stored("NavUpdated", { navSequence: "4", totalAssets: "2", totalShares: "2" });
    const event = claimableEvent(request(1n, 1n), { ...nav, signature: "sig2" }, context);
    expect(event).toMatchObject({
      type: "withdrawal.claimable",
      wallet: WALLET,
      signature: "sig2",
      data: { requestId: "7", requestSignature: "sig1", shares: { amount: "5000000", uiAmount: 5 } },
    });
    expect(claimableEvent(request(1n, 1n), { ...nav, signature: "sig3" }, context).id).toBe(event.id);
  });
});
