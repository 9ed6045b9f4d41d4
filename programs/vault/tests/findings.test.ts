// Issue 10's findings written as the attacks, with their numbers, against the built program: leftover
// capture in an emptied vault (and its partial-exit variant), vaults created outside the protocol,
// unbounded NAV strikes, a fee raised under a queued request, and the two-step hand-overs.
import { describe, expect, it } from "vitest";

import { TestChain } from "./harness";
import { expectRefused, expectSuccess } from "./expectations";
import { valueOfShares } from "./model";
import { decodeProgramEvents } from "./program-client";
import {
  DEFAULT_VAULT_SETTINGS,
  OPEN_NAV_BOUNDS,
  TestProtocol,
  TestVault,
  type Member,
} from "./vault-fixture";

/** What `member` could redeem at the vault's current NAV (its shares and any escrowed in a receipt). */
function redeemable(vault: TestVault, member: Member): bigint {
  const shares = vault.chain.tokenBalance(member.shareAccount) + (vault.receiptOf(member)?.shares ?? 0n);
  return valueOfShares(vault.state(), shares);
}

/** Requests every share the member holds, strikes, stages and claims; returns the net paid. */
function exitFully(vault: TestVault, member: Member, keep = 0n): bigint {
  const before = vault.chain.tokenBalance(member.assetAccount);
  const shares = vault.chain.tokenBalance(member.shareAccount) - keep;
  expectSuccess(vault.requestWithdrawal(member, shares));
  expectSuccess(vault.updateNav(0n, 0n));
  expectSuccess(vault.stageWithdrawals(shares));
  expectSuccess(vault.claimWithdrawal(member));
  return vault.chain.tokenBalance(member.assetAccount) - before;
}

describe("finding 1: leftover assets in an emptied vault", () => {
  it("the 10% fee left by the last holder leaves NAV; the attacker's 1 unit takes nothing from victims of 50,000 and 150,000", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain, { feeBps: 1_000 });
    const holder = vault.addMember(1_000_000n);
    const attacker = vault.addMember(1n);
    const victim = vault.addMember(50_000n);
    const second = vault.addMember(150_000n);

    expectSuccess(vault.deposit(holder, 1_000_000n));
    const exitOutcomeNet = exitFully(vault, holder);
    // gross = floor(10^9 × 1_000_001 / 1_000_001_000) = 1_000_000; fee 100_000; net 900_000.
    expect(exitOutcomeNet).toBe(900_000n);
    // Before the fix: total_assets 100_000 with no shares, and the next deposit priced 1:1.
    expect(vault.state()).toMatchObject({ totalAssets: 0n, totalShares: 0n });
    expect(vault.registration().surplusAssets).toBe(100_000n);
    expect(vault.reserveBalance()).toBe(100_000n);

    // The attacker's 1 unit: 1_000 shares (10^3 per unit into an empty NAV).
    expectSuccess(vault.deposit(attacker, 1n));
    expect(chain.tokenBalance(attacker.shareAccount)).toBe(1_000n);
    // Before: refused as below the share price. Now accepted at a fair price.
    expectSuccess(vault.deposit(victim, 50_000n));
    expect(chain.tokenBalance(victim.shareAccount)).toBe(50_000_000n);
    // Before: 1 share worth 125_000 for 150_000 paid, and the attacker's share worth 125_000 too.
    expectSuccess(vault.deposit(second, 150_000n));
    expect(chain.tokenBalance(second.shareAccount)).toBe(150_000_000n);

    expect(redeemable(vault, victim)).toBeGreaterThanOrEqual(50_000n - 1n);
    expect(redeemable(vault, second)).toBeGreaterThanOrEqual(150_000n - 1n);
    expect(redeemable(vault, attacker)).toBeLessThanOrEqual(1n);

    // And the exits pay it: the attacker gets back at most the unit he paid (less the fee).
    expectSuccess(vault.updateConfig({ feeBps: 0 }));
    expect(exitFully(vault, attacker)).toBeLessThanOrEqual(1n);
    expect(exitFully(vault, victim)).toBeGreaterThanOrEqual(50_000n - 1n);
    expect(exitFully(vault, second)).toBeGreaterThanOrEqual(150_000n - 1n);
    // The leftover never left the reserve: it is still there, outside NAV.
    expect(vault.reserveBalance()).toBeGreaterThanOrEqual(100_000n);
  });

  it("the emptying claim emits the retained surplus", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain, { feeBps: 1_000 });
    const holder = vault.addMember(1_000_000n);
    expectSuccess(vault.deposit(holder, 1_000_000n));
    expectSuccess(vault.requestWithdrawal(holder, 1_000_000_000n));
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(1_000_000_000n));
    const outcome = expectSuccess(vault.claimWithdrawal(holder));
    expect(decodeProgramEvents(outcome.logs).map((event) => event.name)).toEqual([
      "WithdrawalClaimed",
      "SurplusRetained",
    ]);
    expect(decodeProgramEvents(outcome.logs)[1]?.data).toEqual({
      vault: vault.key,
      assets: 100_000n,
      surplus_assets: 100_000n,
      timestamp: chain.now(),
    });
  });

  it("partial exit: a sole holder keeping 1 raw share strands the fee, and a victim loses less than one share's price", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain, { feeBps: 1_000 });
    const griefer = vault.addMember(1_000_000n);
    const victim = vault.addMember(50_000n);
    const second = vault.addMember(150_000n);
    expectSuccess(vault.deposit(griefer, 1_000_000n));
    // gross = floor((10^9 − 1) × 1_000_001 / 1_000_001_000) = 999_999, fee 100_000, net 899_999.
    expect(exitFully(vault, griefer, 1n)).toBe(899_999n);
    expect(vault.state()).toMatchObject({ totalAssets: 100_001n, totalShares: 1n });

    // One share costs (A + 1) / (S + 10^3) = 100_002 / 1_001 ≈ 99.9 raw units: the rounding a depositor
    // can lose is below that, however much the griefer strands (he forfeits it himself).
    const sharePrice = (100_001n + 1n + 1_000n) / (1n + 1_000n);
    expectSuccess(vault.deposit(victim, 50_000n));
    // floor(50_000 × 1_001 / 100_002) = 500 shares, worth floor(500 × 150_002 / 1_501) = 49_967.
    expect(chain.tokenBalance(victim.shareAccount)).toBe(500n);
    expect(redeemable(vault, victim)).toBe(49_967n);
    expect(50_000n - redeemable(vault, victim)).toBeLessThanOrEqual(sharePrice);
    expectSuccess(vault.deposit(second, 150_000n));
    expect(150_000n - redeemable(vault, second)).toBeLessThanOrEqual(sharePrice);
    // The griefer's raw share is worth about 100 of the 100_000 he stranded.
    expect(redeemable(vault, griefer)).toBeLessThan(101n);
  });
});

describe("finding 2: only the protocol's admin registers vaults, and strikes stay within bounds", () => {
  it("a stranger's initialize_vault of a second 'USDC Prime' on the same mint fails", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain, { name: "USDC Prime" });
    const stranger = chain.createFundedKeypair();
    const fake = TestVault.at(chain, stranger, 1n, vault.protocol);
    expectRefused(
      chain,
      [
        fake.initializeInstruction(
          { ...DEFAULT_VAULT_SETTINGS, name: "USDC Prime" },
          { payer: stranger.publicKey, admin: stranger.publicKey },
        ),
      ],
      [stranger],
      "Unauthorized",
    );
    // His own protocol is his own: a vault there is not under the deployment's protocol.
    const { protocol: own } = TestProtocol.create(chain, OPEN_NAV_BOUNDS, stranger);
    const { vault: outside } = TestVault.create(chain, { name: "USDC Prime" }, { protocol: own });
    expect(outside.registration().protocol.equals(vault.protocol.key)).toBe(false);
    expect(vault.protocol.state().vaultCount).toBe(1n);
  });

  it("a rogue manager cannot inflate NAV beyond the bounds, nor strike again too soon", () => {
    const chain = TestChain.create();
    // 10% APY struck every minute is ~0.0019 bps a strike: 1 bps up and 10 bps down is ample.
    const { protocol } = TestProtocol.create(chain, {
      maxGainBps: 1,
      maxLossBps: 10,
      minNavIntervalSeconds: 60,
      maxAnnualGainBps: 10_000,
      maxDailyLossBps: 1_000,
    });
    const { vault } = TestVault.create(chain, {}, { protocol });
    const alice = vault.addMember(1_000_000_000n);
    expectSuccess(vault.deposit(alice, 1_000_000_000n));
    // A keeper's minute of 10% APY on 1_000_000_000: floor(10^9 × 0.10 × 60 / 31_536_000) = 190.
    chain.warpBy(60n);
    expectSuccess(vault.updateNav(190n, 0n));
    chain.warpBy(59n);
    expectRefused(chain, [vault.updateNavInstruction(190n, 0n)], [vault.manager], "NavStrikeTooSoon");
    chain.warpBy(1n);
    // Bound: floor(1_000_000_190 × 1 / 10_000) = 100_000.
    expectRefused(chain, [vault.updateNavInstruction(100_001n, 0n)], [vault.manager], "NavGainAboveBound");
    // The drain the finding describes: a strike doubling NAV before claiming.
    expectRefused(
      chain,
      [vault.updateNavInstruction(1_000_000_190n, 0n)],
      [vault.manager],
      "NavGainAboveBound",
    );
    expectRefused(chain, [vault.updateNavInstruction(0n, 1_000_001n)], [vault.manager], "NavLossAboveBound");
    // Within the per-strike bound, yet above the bound over time: a minute at 100% a year is
    // floor(1_000_000_190 × 10_000 × 60 / (10^4 × 31_536_000)) = 1_902.
    expectRefused(chain, [vault.updateNavInstruction(100_000n, 0n)], [vault.manager], "NavGainAboveRate");
    expectSuccess(vault.updateNav(1_902n, 0n));
    expect(vault.state().totalAssets).toBe(1_000_002_092n);
  });

  it("an empty vault admits no gain at all, and the admin can loosen the bounds", () => {
    const chain = TestChain.create();
    const { protocol } = TestProtocol.create(chain, {
      maxGainBps: 1,
      maxLossBps: 1,
      minNavIntervalSeconds: 0,
      maxAnnualGainBps: 10_000,
      maxDailyLossBps: 1_000,
    });
    const { vault } = TestVault.create(chain, {}, { protocol });
    expectRefused(chain, [vault.updateNavInstruction(1n, 0n)], [vault.manager], "NavGainAboveBound");
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(
      protocol.setNavBounds({
        maxGainBps: 500,
        maxLossBps: 500,
        minNavIntervalSeconds: 5,
        maxAnnualGainBps: 10_000,
        maxDailyLossBps: 1_000,
      }),
    );
    expect(protocol.state()).toMatchObject({
      maxGainBps: 500,
      maxLossBps: 500,
      minNavIntervalSeconds: 5,
      maxAnnualGainBps: 10_000,
      maxDailyLossBps: 1_000,
    });
    expectRefused(
      chain,
      [
        protocol.setNavBoundsInstruction({
          maxGainBps: 10_001,
          maxLossBps: 0,
          minNavIntervalSeconds: 0,
          maxAnnualGainBps: 10_000,
          maxDailyLossBps: 1_000,
        }),
      ],
      [protocol.admin],
      "InvalidConfig",
    );
  });
});

describe("the fee a holder signed for", () => {
  it("a fee raised after the request does not apply to it", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain, { feeBps: 10 });
    const alice = vault.addMember(1_000_000n);
    const bob = vault.addMember(1_000_000n);
    expectSuccess(vault.deposit(alice, 1_000_000n));
    expectSuccess(vault.deposit(bob, 1_000_000n));
    expectSuccess(vault.requestWithdrawal(alice, 1_000_000_000n));
    expect(vault.receiptFeeOf(alice)).toBe(10);
    expectSuccess(vault.updateConfig({ feeBps: 1_000 }));
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(1_000_000_000n));
    expectSuccess(vault.claimWithdrawal(alice));
    // gross = floor(10^9 × 2_000_001 / 2_000_001_000) = 1_000_000; fee at 10 bps = 1_000, not 100_000.
    expect(chain.tokenBalance(alice.assetAccount)).toBe(999_000n);
    // A request made once the change's notice has run out pays the new fee.
    chain.warpBy(259_200n);
    expectSuccess(vault.requestWithdrawal(bob, 1_000_000_000n, 1_000));
    expect(vault.receiptFeeOf(bob)).toBe(1_000);
  });
});

describe("two-step hand-overs", () => {
  it("the admin hand-over: the old admin loses every power once the new one accepts", () => {
    const chain = TestChain.create();
    const { protocol } = TestProtocol.create(chain);
    const next = chain.createFundedKeypair();
    const stranger = chain.createFundedKeypair();
    expectRefused(
      chain,
      [protocol.proposeAdminInstruction(stranger.publicKey, { admin: stranger.publicKey })],
      [stranger],
      "Unauthorized",
    );
    expectSuccess(chain.send([protocol.proposeAdminInstruction(next.publicKey)], [protocol.admin]));
    // Proposed, not yet accepted: the old admin still rules.
    expect(protocol.state()).toMatchObject({ admin: protocol.admin.publicKey, pendingAdmin: next.publicKey });
    expectRefused(chain, [protocol.acceptAdminInstruction(stranger.publicKey)], [stranger], "Unauthorized");
    const accepted = expectSuccess(chain.send([protocol.acceptAdminInstruction(next.publicKey)], [next]));
    expect(decodeProgramEvents(accepted.logs)).toEqual([
      {
        name: "AdminAccepted",
        data: {
          protocol: protocol.key,
          previous_admin: protocol.admin.publicKey,
          admin: next.publicKey,
          timestamp: chain.now(),
        },
      },
    ]);

    const old = protocol.admin;
    expectRefused(chain, [protocol.setNavBoundsInstruction(OPEN_NAV_BOUNDS)], [old], "Unauthorized");
    const unborn = TestVault.at(chain, chain.createFundedKeypair(), 0n, protocol);
    expectRefused(chain, [unborn.initializeInstruction(DEFAULT_VAULT_SETTINGS)], [old], "Unauthorized");
    expectSuccess(
      chain.send(
        [
          unborn.initializeInstruction(DEFAULT_VAULT_SETTINGS, {
            payer: next.publicKey,
            admin: next.publicKey,
          }),
        ],
        [next],
      ),
    );
    expectSuccess(
      chain.send([protocol.setNavBoundsInstruction(OPEN_NAV_BOUNDS, { admin: next.publicKey })], [next]),
    );
  });

  it("the manager hand-over: proposed by the admin, accepted by the new manager, the old one is out", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain);
    const next = chain.createFundedKeypair();
    const stranger = chain.createFundedKeypair();
    expectRefused(
      chain,
      [vault.proposeManagerInstruction(stranger.publicKey, stranger.publicKey)],
      [stranger],
      "Unauthorized",
    );
    expectSuccess(
      chain.send(
        [vault.proposeManagerInstruction(vault.protocol.admin.publicKey, next.publicKey)],
        [vault.protocol.admin],
      ),
    );
    expect(vault.registration().pendingManager.equals(next.publicKey)).toBe(true);
    expectRefused(chain, [vault.acceptManagerInstruction(stranger.publicKey)], [stranger], "Unauthorized");
    expectSuccess(chain.send([vault.acceptManagerInstruction(next.publicKey)], [next]));
    expect(vault.state().manager.equals(next.publicKey)).toBe(true);
    expectRefused(chain, [vault.updateNavInstruction(0n, 0n)], [vault.manager], "Unauthorized");
    expectSuccess(chain.send([vault.updateNavInstruction(0n, 0n, { manager: next.publicKey })], [next]));
  });
});
