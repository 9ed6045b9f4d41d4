// Issue 21 item 2 and the exit after a long silence (item 4), with their numbers against the built
// program: config changes that can hurt holders or move some ahead of others (any cap change) wait out
// the vault's notice period (3 days by default), a lower fee or minimum applies at once, a non-zero cap has a floor, and holders leave without a manager that stopped.
import { describe, expect, it } from "vitest";

import { buildApplyConfigInstruction } from "../../../lib/vault/program/instructions";
import { decodeVaultEvents } from "../../../lib/vault/program/events";
import { TestChain } from "./harness";
import { expectRefused, expectSuccess } from "./expectations";
import { TestVault } from "./vault-fixture";

const USDC = 1_000_000n;
const NOTICE = 259_200n;
const SILENCE = 604_800n;

/** A USDC vault with two holders of 1,000 USDC each (10^12 shares each at the starting price). */
function twoHolders(settings: Parameters<typeof TestVault.create>[1] = {}) {
  const chain = TestChain.create();
  const { vault } = TestVault.create(chain, settings);
  const alice = vault.addMember(1_000n * USDC);
  const bob = vault.addMember(1_000n * USDC);
  expectSuccess(vault.deposit(alice, 1_000n * USDC));
  expectSuccess(vault.deposit(bob, 1_000n * USDC));
  return { chain, vault, alice, bob };
}

describe("a fee raised by 1,000 bps", () => {
  it("does not apply to a request made inside the notice period, and does to one made after it", () => {
    const { chain, vault, alice, bob } = twoHolders({ feeBps: 0 });
    const scheduled = expectSuccess(vault.updateConfig({ feeBps: 1_000 }));
    const effectiveAt = chain.now() + NOTICE;
    expect(decodeVaultEvents(scheduled.logs).map((event) => event.name)).toEqual([
      "ConfigUpdated",
      "ConfigScheduled",
    ]);
    expect(vault.state()).toMatchObject({ feeBps: 0, pendingFeeBps: 1_000, pendingEffectiveAt: effectiveAt });

    // One second before the effective time: Alice, shown 0 bps, requests at 0 bps and gets 1,000 USDC.
    chain.warpTo(effectiveAt - 1n);
    expectSuccess(vault.requestWithdrawal(alice, 1_000_000_000_000n, 0));
    expect(vault.receiptFeeOf(alice)).toBe(0);
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(1_000_000_000_000n));
    expectSuccess(vault.claimWithdrawal(alice));
    expect(chain.tokenBalance(alice.assetAccount)).toBe(1_000n * USDC);

    // At the effective time: Bob's request applies the pending config first (ConfigUpdated) and records
    // 1,000 bps: 900 USDC of 1,000 (he accepted up to 1,000 bps, as the API fills it from what it shows).
    chain.warpTo(effectiveAt);
    const requested = expectSuccess(vault.requestWithdrawal(bob, 1_000_000_000_000n, 1_000));
    expect(decodeVaultEvents(requested.logs).map((event) => event.name)).toEqual([
      "ConfigUpdated",
      "WithdrawalRequested",
    ]);
    expect(vault.receiptFeeOf(bob)).toBe(1_000);
    expect(vault.state()).toMatchObject({ feeBps: 1_000, pendingEffectiveAt: 0n });
    chain.warpBy(60n);
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(1_000_000_000_000n));
    expectSuccess(vault.claimWithdrawal(bob));
    // gross = value(10^12) = 1,000 USDC; fee ceil(gross × 10%) = 100 USDC.
    expect(chain.tokenBalance(bob.assetAccount)).toBe(900n * USDC);
  });
});

describe("lowering caps and raising the minimum", () => {
  it("wait out the notice: 500 USDC fits the old 1,000 USDC hourly cap and 50 USDC the old minimum for 3 days", () => {
    const { chain, vault, alice, bob } = twoHolders({ hourlyCap: 1_000n * USDC, dailyCap: 2_000n * USDC });
    // To 100 USDC an hour and a 60 USDC minimum (6 × 10^10 shares); the floor at NAV 2,000 USDC is
    // 20 USDC a day and 0.83 USDC an hour, lifted to the minimum's 60 USDC: 100 USDC is above it.
    expectSuccess(vault.updateConfig({ hourlyCap: 100n * USDC, minWithdrawalShares: 60_000_000_000n }));
    expect(vault.state()).toMatchObject({
      hourlyCap: 1_000n * USDC,
      minWithdrawalShares: 0n,
      pendingHourlyCap: 100n * USDC,
      pendingMinWithdrawalShares: 60_000_000_000n,
    });
    chain.warpBy(NOTICE - 1n);
    expectSuccess(vault.requestWithdrawal(alice, 500_000_000_000n));
    expectSuccess(vault.requestWithdrawal(bob, 50_000_000_000n));
    expect(vault.state().hourlyUsed).toBe(550n * USDC);
  });

  it("apply after it: the same requests are then above the hourly cap and below the minimum", () => {
    const { chain, vault, alice, bob } = twoHolders({ hourlyCap: 1_000n * USDC, dailyCap: 2_000n * USDC });
    expectSuccess(vault.updateConfig({ hourlyCap: 100n * USDC, minWithdrawalShares: 60_000_000_000n }));
    chain.warpBy(NOTICE);
    expectRefused(
      chain,
      [vault.requestWithdrawalInstruction(alice, 500_000_000_000n)],
      [alice.keypair],
      "HourlyWithdrawalCapExceeded",
    );
    expectRefused(
      chain,
      [vault.requestWithdrawalInstruction(bob, 50_000_000_000n)],
      [bob.keypair],
      "BelowMinimumWithdrawal",
    );
    // The refused requests applied nothing (they failed whole); anyone applies it.
    expect(vault.state().pendingEffectiveAt).not.toBe(0n);
    expectSuccess(vault.applyConfig());
    expect(vault.state()).toMatchObject({ hourlyCap: 100n * USDC, minWithdrawalShares: 60_000_000_000n });
  });

  it("removing a cap (0 = none) waits too: it is how a stolen key's own exit would drain the reserve first", () => {
    const { chain, vault } = twoHolders({ hourlyCap: 1_000n * USDC, dailyCap: 2_000n * USDC });
    expectSuccess(vault.updateConfig({ hourlyCap: 0n, dailyCap: 0n }));
    expect(vault.state()).toMatchObject({ hourlyCap: 1_000n * USDC, dailyCap: 2_000n * USDC });
    expect(vault.state().pendingEffectiveAt).toBe(chain.now() + NOTICE);
  });
});

describe("raising the caps to u64::MAX (none in effect)", () => {
  it("waits the notice: the 500,000 USDC request stays refused until it ends", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain, { hourlyCap: 25_000n * USDC, dailyCap: 100_000n * USDC });
    const insider = vault.addMember(600_000n * USDC);
    const holder = vault.addMember(1_400_000n * USDC);
    expectSuccess(vault.deposit(insider, 600_000n * USDC));
    expectSuccess(vault.deposit(holder, 1_400_000n * USDC));
    const request = () => vault.requestWithdrawalInstruction(insider, 500_000_000_000_000n);
    expectRefused(chain, [request()], [insider.keypair], "HourlyWithdrawalCapExceeded");

    const max = 18_446_744_073_709_551_615n;
    expectSuccess(vault.updateConfig({ hourlyCap: max, dailyCap: max }));
    const effectiveAt = chain.now() + NOTICE;
    expect(vault.state()).toMatchObject({
      hourlyCap: 25_000n * USDC,
      dailyCap: 100_000n * USDC,
      pendingHourlyCap: max,
      pendingEffectiveAt: effectiveAt,
    });
    expectRefused(chain, [request()], [insider.keypair], "HourlyWithdrawalCapExceeded");
    chain.warpTo(effectiveAt - 1n);
    expectRefused(chain, [request()], [insider.keypair], "HourlyWithdrawalCapExceeded");
    // The whole notice, 72 h, in which every holder saw it announced and could request at 25,000 an hour.
    chain.warpTo(effectiveAt);
    expectSuccess(vault.requestWithdrawal(insider, 500_000_000_000_000n));
  });
});

describe("easing changes", () => {
  it("a lower fee or minimum applies at once; a raised cap waits with the rest", () => {
    const { chain, vault, alice } = twoHolders({
      feeBps: 50,
      minWithdrawalShares: 100_000_000_000n,
      hourlyCap: 100n * USDC,
      dailyCap: 200n * USDC,
    });
    expectSuccess(vault.updateConfig({ feeBps: 5, minWithdrawalShares: 0n }));
    expect(vault.state()).toMatchObject({ feeBps: 5, minWithdrawalShares: 0n, pendingEffectiveAt: 0n });
    // Mixed: the lower fee applies now, the raised caps wait.
    expectSuccess(vault.updateConfig({ feeBps: 4, hourlyCap: 300n * USDC, dailyCap: 500n * USDC }));
    expect(vault.state()).toMatchObject({
      feeBps: 4,
      hourlyCap: 100n * USDC,
      dailyCap: 200n * USDC,
      pendingHourlyCap: 300n * USDC,
      pendingEffectiveAt: chain.now() + NOTICE,
    });
    // 250 USDC does not fit the old 100 USDC hourly cap until the notice ends.
    expectRefused(
      chain,
      [vault.requestWithdrawalInstruction(alice, 250_000_000_000n, {}, 4)],
      [alice.keypair],
      "HourlyWithdrawalCapExceeded",
    );
    // A later update of the fee alone replaces (withdraws) the pending raise.
    chain.warpBy(60n);
    const withdrawn = expectSuccess(vault.updateConfig({ feeBps: 3 }));
    expect(vault.state()).toMatchObject({ feeBps: 3, hourlyCap: 100n * USDC, pendingEffectiveAt: 0n });
    expect(decodeVaultEvents(withdrawn.logs).at(-1)).toMatchObject({
      name: "ConfigScheduled",
      data: { effectiveAt: 0n },
    });
    chain.warpBy(NOTICE);
    expectRefused(chain, [buildApplyConfigInstruction({ vault: vault.key })], [], "NoConfigDue");
  });
});

describe("the cap floor", () => {
  it("refuses a tiny cap: 1 USDC a day on 2,000 USDC of NAV, or below the minimum withdrawal's value", () => {
    const { chain, vault } = twoHolders({ dailyCap: 1_000n * USDC });
    // Daily floor: 1% of 2,000 USDC = 20 USDC; hourly: 20 / 24 = 0.833333 USDC.
    expectRefused(
      chain,
      [vault.updateConfigInstruction({ dailyCap: 1n * USDC })],
      [vault.manager],
      "CapBelowFloor",
    );
    expectRefused(
      chain,
      [vault.updateConfigInstruction({ dailyCap: 19_999_999n })],
      [vault.manager],
      "CapBelowFloor",
    );
    expectRefused(
      chain,
      [vault.updateConfigInstruction({ hourlyCap: 833_332n })],
      [vault.manager],
      "CapBelowFloor",
    );
    expectSuccess(vault.updateConfig({ dailyCap: 20n * USDC, hourlyCap: 833_333n }));
    // A minimum worth 50 USDC (5 × 10^10 shares) lifts both floors to 50 USDC: those caps no longer fit.
    expectRefused(
      chain,
      [
        vault.updateConfigInstruction({
          minWithdrawalShares: 50_000_000_000n,
          dailyCap: 20n * USDC,
          hourlyCap: 833_333n,
        }),
      ],
      [vault.manager],
      "CapBelowFloor",
    );
    expectSuccess(
      vault.updateConfig({
        minWithdrawalShares: 50_000_000_000n,
        hourlyCap: 50n * USDC,
        dailyCap: 50n * USDC,
      }),
    );
    expect(vault.state()).toMatchObject({ pendingHourlyCap: 50n * USDC, pendingDailyCap: 50n * USDC });
  });
});

describe("a manager silent for 7 days", () => {
  it("no longer holds exits: a paused vault takes the request, anyone stages, the claim pays at the last NAV", () => {
    const { chain, vault, alice, bob } = twoHolders({ feeBps: 10 });
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.updateConfig({ paused: true }));
    const struckAt = chain.now();
    const stranger = chain.createFundedKeypair();

    // Six days, 23 h 59 min 59 s later: still paused, and nobody but the manager may stage.
    chain.warpTo(struckAt + SILENCE - 1n);
    expectRefused(
      chain,
      [vault.requestWithdrawalInstruction(alice, 1_000_000_000_000n)],
      [alice.keypair],
      "VaultPaused",
    );
    expectRefused(
      chain,
      [vault.stageWithdrawalsInstruction(1n, { manager: bob.publicKey })],
      [bob.keypair],
      "Unauthorized",
    );

    chain.warpTo(struckAt + SILENCE);
    expectSuccess(vault.requestWithdrawal(alice, 1_000_000_000_000n));
    // The manager never staged: its staging silence counts from its last strike, 7 days ago.
    expectSuccess(vault.stageWithdrawalsBy(stranger, 1_000_000_000_000n));
    expect(vault.state().stagedAt).toBe(0n);
    // No strike since the request: paid at the last struck NAV, 2,000 USDC over 2 × 10^12 shares:
    // gross 1,000 USDC, fee ceil(10 bps) = 1 USDC.
    expectSuccess(vault.claimWithdrawal(alice));
    expect(chain.tokenBalance(alice.assetAccount)).toBe(999n * USDC);
  });

  it("keeps the NAV floor while the manager strikes: a claim before a strike after its request waits", () => {
    const { chain, vault, alice } = twoHolders();
    expectSuccess(vault.updateNav(0n, 0n));
    chain.warpBy(SILENCE - 60n);
    expectSuccess(vault.updateNav(0n, 0n));
    chain.warpBy(120n);
    expectSuccess(vault.requestWithdrawal(alice, 1_000_000_000_000n));
    expectSuccess(vault.stageWithdrawals(1_000_000_000_000n));
    expectRefused(chain, [vault.claimWithdrawalInstruction(alice)], [alice.keypair], "NavFloorNotPassed");
  });
});
