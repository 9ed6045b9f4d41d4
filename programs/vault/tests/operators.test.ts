// Issue 21's attacks by a stolen manager key, written with their numbers against the built program: a
// fee raised just before a request, funded exits locked by a pause, a minimum withdrawal that refuses
// every request, and NAV pumped by many in-bound strikes.
import type { TransactionInstruction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { TestChain } from "./harness";
import { expectRefused, expectSuccess } from "./expectations";
import {
  DEFAULT_NAV_RATES,
  NAV_RATE_CEILINGS,
  type NavBounds,
} from "../../../lib/vault/program/instructions";
import { U64_MAX, strikeLimits, valueOfShares } from "./model";
import { DEFAULT_VAULT_SETTINGS, TestProtocol, TestVault, type Member } from "./vault-fixture";

describe("a fee raised just before a request", () => {
  it("is refused, not applied: the holder shown 10 bps keeps its 1,000 USDC of shares until it accepts more", () => {
    const chain = TestChain.create();
    // USDC: 6 decimals, so 1,000 USDC is 10^9 raw units and 10^12 shares.
    const { vault } = TestVault.create(chain, { feeBps: 10 });
    const holder = vault.addMember(1_000_000_000n);
    const other = vault.addMember(1_000_000_000n);
    expectSuccess(vault.deposit(holder, 1_000_000_000n));
    expectSuccess(vault.deposit(other, 1_000_000_000n));
    const shares = chain.tokenBalance(holder.shareAccount);
    expect(shares).toBe(1_000_000_000_000n);

    // The holder is shown 10 bps and signs a request accepting at most that.
    const signed = vault.requestWithdrawalInstruction(holder, shares, {}, 10);
    // The stolen key raises the fee to 1,000 bps first: before, the receipt recorded 10% and the
    // holder received 900 of 1,000 USDC. Now the raise waits its notice (3 days) and the request
    // lands at 10 bps.
    expectSuccess(vault.updateConfig({ feeBps: 1_000 }));
    expect(vault.state()).toMatchObject({
      feeBps: 10,
      pendingFeeBps: 1_000,
      pendingEffectiveAt: chain.now() + 259_200n,
    });
    expectSuccess(chain.send([signed], [holder.keypair]));
    expect(vault.receiptFeeOf(holder)).toBe(10);
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(shares));
    expectSuccess(vault.claimWithdrawal(holder));
    // 999 USDC (fee ceil(10^9 × 10 / 10^4) = 10^6), not 900.
    expect(chain.tokenBalance(holder.assetAccount)).toBe(999_000_000n);

    // After the notice the raise applies to the next request, and only to one that accepts it.
    chain.warpBy(259_200n);
    const otherShares = chain.tokenBalance(other.shareAccount);
    expectRefused(
      chain,
      [vault.requestWithdrawalInstruction(other, otherShares, {}, 10)],
      [other.keypair],
      "FeeAboveMaximum",
    );
    expect(chain.tokenBalance(other.shareAccount)).toBe(otherShares);
    expectSuccess(
      chain.send([vault.requestWithdrawalInstruction(other, otherShares, {}, 1_000)], [other.keypair]),
    );
    expect(vault.receiptFeeOf(other)).toBe(1_000);
    expect(vault.state().pendingEffectiveAt).toBe(0n);
  });

  it("a lower fee than the one accepted applies at once: the receipt records the vault's fee, not the maximum", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain, { feeBps: 25 });
    const holder = vault.addMember(1_000_000n);
    expectSuccess(vault.deposit(holder, 1_000_000n));
    expectSuccess(vault.updateConfig({ feeBps: 5 }));
    expectSuccess(vault.requestWithdrawal(holder, 1_000_000n, 25));
    expect(vault.receiptFeeOf(holder)).toBe(5);
  });
});

describe("a pause", () => {
  it("never stops the claim of a funded, claimable receipt: 100,000 USDC arrive while the vault is paused", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain, { feeBps: 10 });
    const holder = vault.addMember(100_000_000_000n);
    expectSuccess(vault.deposit(holder, 100_000_000_000n));
    const shares = chain.tokenBalance(holder.shareAccount);
    expectSuccess(vault.requestWithdrawal(holder, shares));
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(shares));
    // Before: the stolen key paused the vault and the funded claim was refused (6002).
    expectSuccess(vault.updateConfig({ paused: true }));
    expectSuccess(vault.claimWithdrawal(holder));
    // gross 100,000 USDC, fee ceil(10^11 × 10 / 10^4) = 10^8 (100 USDC): 99,900 USDC paid.
    expect(chain.tokenBalance(holder.assetAccount)).toBe(99_900_000_000n);
    expect(vault.receiptOf(holder)).toBeNull();
    // New money and new exits stay stopped.
    const late = vault.addMember(1_000_000n);
    expectRefused(chain, [vault.depositInstruction(late, 1_000_000n)], [late.keypair], "VaultPaused");
  });
});

describe("the minimum withdrawal", () => {
  it("has a ceiling of 1,000 whole shares: u64::MAX is refused by update_config and initialize_vault", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain);
    // USDC shares have 9 decimals: the ceiling is 10^12 share units.
    expectRefused(
      chain,
      [vault.updateConfigInstruction({ minWithdrawalShares: U64_MAX })],
      [vault.manager],
      "InvalidConfig",
    );
    expectRefused(
      chain,
      [vault.updateConfigInstruction({ minWithdrawalShares: 1_000_000_000_001n })],
      [vault.manager],
      "InvalidConfig",
    );
    expectSuccess(vault.updateConfig({ minWithdrawalShares: 1_000_000_000_000n }));
    expect(vault.state().pendingMinWithdrawalShares).toBe(1_000_000_000_000n);
    const next = TestVault.at(chain, chain.createFundedKeypair(), 1n, vault.protocol);
    expectRefused(
      chain,
      [next.initializeInstruction({ ...DEFAULT_VAULT_SETTINGS, minWithdrawalShares: U64_MAX })],
      [vault.protocol.admin],
      "InvalidConfig",
    );
  });

  it("never stops a holder requesting all of its shares, even with min_withdrawal_shares = u64::MAX", () => {
    const chain = TestChain.create();
    // The minimum at its ceiling (10^12 share units, 1,000 USDC at the start) is above this holding.
    const { vault } = TestVault.create(chain, { minWithdrawalShares: 1_000_000_000_000n });
    const holder = vault.addMember(250_000_000n);
    expectSuccess(vault.deposit(holder, 250_000_000n));
    const shares = chain.tokenBalance(holder.shareAccount);
    expect(shares).toBe(250_000_000_000n);
    // Before: every request was refused (6017). A part of the holding still is.
    expectRefused(
      chain,
      [vault.requestWithdrawalInstruction(holder, shares - 1n)],
      [holder.keypair],
      "BelowMinimumWithdrawal",
    );
    expectSuccess(vault.requestWithdrawal(holder, shares));
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(shares));
    expectSuccess(vault.claimWithdrawal(holder));
    expect(chain.tokenBalance(holder.assetAccount)).toBe(250_000_000n);
  });
});

const USDC = 1_000_000n;
const MINUTE = 60n;
const DAY_SECONDS = 86_400n;
/** The README's per-strike bounds (10 bps up, 50 bps down, 60 s apart) and the default rates over time. */
const README_BOUNDS = {
  maxGainBps: 10,
  maxLossBps: 50,
  minNavIntervalSeconds: 60,
  ...DEFAULT_NAV_RATES,
};

/**
 * A stolen manager key striking the largest gain the program accepts every `every` seconds for
 * `duration`, after the vault sat a day without a strike (the most catch-up there is). Returns NAV after.
 */
function pumpNav(vault: TestVault, duration: bigint, every: bigint): bigint {
  const { chain } = vault;
  const bounds = vault.protocol.state();
  const end = chain.now() + duration;
  while (chain.now() < end) {
    const limits = strikeLimits(vault.state(), bounds, chain.now());
    expectSuccess(vault.updateNav(limits.gain, 0n));
    // One raw unit more is refused: the bound is the program's, not the test's.
    chain.warpBy(every);
  }
  return vault.state().totalAssets;
}

/** The 1,000,000 USDC of others and the thief's 100,000 USDC stake, a day after the last strike. */
function thiefSetup(bounds: NavBounds) {
  const chain = TestChain.create();
  const { protocol } = TestProtocol.create(chain, bounds);
  const { vault } = TestVault.create(chain, {}, { protocol });
  const others = vault.addMember(1_000_000n * USDC);
  const thief = vault.addMember(100_000n * USDC);
  expectSuccess(vault.deposit(others, 1_000_000n * USDC));
  expectSuccess(vault.deposit(thief, 100_000n * USDC));
  chain.warpBy(DAY_SECONDS);
  return { chain, vault, thief };
}

/** The thief leaves with every share: caps are 0 (none) already, as the thief set them. */
function exitAll(vault: TestVault, member: Member): bigint {
  const shares = vault.chain.tokenBalance(member.shareAccount);
  expectSuccess(vault.requestWithdrawal(member, shares));
  vault.chain.warpBy(MINUTE);
  expectSuccess(vault.updateNav(0n, 0n));
  expectSuccess(vault.stageWithdrawals(shares));
  expectSuccess(vault.claimWithdrawal(member));
  return vault.chain.tokenBalance(member.assetAccount);
}

/** parts per million of `value / base − 1`, rounded down. */
function ppmAbove(value: bigint, base: bigint): bigint {
  return ((value - base) * 1_000_000n) / base;
}

describe("NAV pumped by many in-bound strikes", () => {
  it("24 h of maximum strikes every 60 s move NAV by at most 1% (0.11% at the defaults) and the thief's exit returns at most 101% of its stake", () => {
    const { vault, thief } = thiefSetup(README_BOUNDS);
    const before = vault.state().totalAssets;
    // One more unit than the bound is refused at the first strike, with a day of catch-up.
    const first = strikeLimits(vault.state(), vault.protocol.state(), vault.chain.now());
    expectRefused(
      vault.chain,
      [vault.updateNavInstruction(first.gain + 1n, 0n)],
      [vault.manager],
      "NavGainAboveRate",
    );
    const after = pumpNav(vault, DAY_SECONDS, MINUTE);
    // Before: ×4.22 (1,100,000 → 4,642,000 USDC) and the thief's 100,000 claimed 421,000.
    const navPpm = ppmAbove(after, before);
    expect(after * 100n).toBeLessThanOrEqual(before * 101n);
    // 2 days' worth at 20% a year (a day of catch-up plus the day): 1,096 ppm, compounding per strike.
    expect(navPpm).toBeGreaterThanOrEqual(1_090n);
    expect(navPpm).toBeLessThanOrEqual(1_100n);
    const paid = exitAll(vault, thief);
    const stake = 100_000n * USDC;
    expect(paid * 100n).toBeLessThanOrEqual(stake * 101n);
    expect(ppmAbove(paid, stake)).toBeLessThanOrEqual(1_100n);
    console.log(
      `stolen key, defaults (${README_BOUNDS.maxAnnualGainBps} bps/yr): 24 h of max strikes: NAV ${before} -> ${after} raw (+${navPpm} ppm); thief's 100,000 USDC stake exits with ${paid} raw (+${ppmAbove(paid, stake)} ppm)`,
    );
  });

  it("at the program's ceiling (100% a year) a day moves NAV by at most 0.55% (0.37% with the 10 bps strike bound) and a week by at most 2.2%", () => {
    const ceiling = { ...README_BOUNDS, ...NAV_RATE_CEILINGS };
    const { vault, thief } = thiefSetup(ceiling);
    const before = vault.state().totalAssets;
    const day = pumpNav(vault, DAY_SECONDS, MINUTE);
    const dayPpm = ppmAbove(day, before);
    // 2/365 = 5,479 ppm, a little more compounded per strike.
    expect(dayPpm).toBeLessThanOrEqual(5_500n);
    expect(day * 100n).toBeLessThanOrEqual(before * 101n);
    // Six more days, striking every hour (the bound is per second elapsed; the interval only changes
    // the compounding): 8 days' worth at most, 8/365 = 21,918 ppm.
    const week = pumpNav(vault, 6n * DAY_SECONDS, 60n * MINUTE);
    const weekPpm = ppmAbove(week, before);
    expect(weekPpm).toBeLessThanOrEqual(22_200n);
    const paid = exitAll(vault, thief);
    const stake = 100_000n * USDC;
    expect(ppmAbove(paid, stake)).toBeLessThanOrEqual(22_200n);
    console.log(
      `stolen key, ceiling (${NAV_RATE_CEILINGS.maxAnnualGainBps} bps/yr): NAV +${dayPpm} ppm in 24 h, +${weekPpm} ppm in a week; thief's stake returns +${ppmAbove(paid, stake)} ppm`,
    );
  });

  it("the defaults' worst week: +0.44%, and a day of maximum losses −1.0% (50 bps a day, a day of catch-up)", () => {
    const { vault, thief } = thiefSetup(README_BOUNDS);
    const before = vault.state().totalAssets;
    const week = pumpNav(vault, 7n * DAY_SECONDS, 60n * MINUTE);
    const weekPpm = ppmAbove(week, before);
    // 8 days at 20% a year: 4,383 ppm.
    expect(weekPpm).toBeLessThanOrEqual(4_400n);
    const paid = exitAll(vault, thief);
    expect(ppmAbove(paid, 100_000n * USDC)).toBeLessThanOrEqual(4_400n);

    // The same key striking losses instead: bounded at 50 bps a day, so a day (with a day of catch-up)
    // takes at most ~1%.
    const { vault: other } = thiefSetup(README_BOUNDS);
    const start = other.state().totalAssets;
    const end = other.chain.now() + DAY_SECONDS;
    while (other.chain.now() < end) {
      const limits = strikeLimits(other.state(), other.protocol.state(), other.chain.now());
      expectSuccess(other.updateNav(0n, limits.loss));
      other.chain.warpBy(60n * MINUTE);
    }
    const lossPpm = ppmAbove(start, other.state().totalAssets);
    expect(lossPpm).toBeLessThanOrEqual(10_100n);
    console.log(
      `stolen key, defaults: NAV +${weekPpm} ppm in a week (thief's stake +${ppmAbove(paid, 100_000n * USDC)} ppm); a day of max losses −${lossPpm} ppm of the pre-loss NAV`,
    );
  });
});

/** The instruction with the owner's account marked as not signing. */
function unsignedByOwner(instruction: TransactionInstruction, owner: Member): TransactionInstruction {
  instruction.keys = instruction.keys.map((meta) =>
    meta.pubkey.equals(owner.publicKey) ? { ...meta, isSigner: false } : meta,
  );
  return instruction;
}

describe("a claimable withdrawal", () => {
  it("can be sent by anyone, and pays only the owner: the keeper delivers 5,000 USDC without the owner signing", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain, { feeBps: 10 });
    const owner = vault.addMember(5_000n * USDC);
    const stranger = vault.addMember(0n);
    expectSuccess(vault.deposit(owner, 5_000n * USDC));
    const shares = chain.tokenBalance(owner.shareAccount);
    expectSuccess(vault.requestWithdrawal(owner, shares));
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(shares));
    const receiptRent = chain.lamportsOf(owner.receipt);
    const ownerLamports = chain.lamportsOf(owner.publicKey);

    // Paying the stranger's own asset account instead is refused (the account must be the owner's).
    expectRefused(
      chain,
      [
        unsignedByOwner(
          vault.claimWithdrawalInstruction(owner, { ownerAsset: stranger.assetAccount }),
          owner,
        ),
      ],
      [],
      "InvalidTokenOwner",
    );
    // The chain's fee payer (a keeper, a partner) sends and signs; the owner does not.
    expectSuccess(chain.send([unsignedByOwner(vault.claimWithdrawalInstruction(owner), owner)], []));
    // 5,000 USDC less ceil(5 × 10^9 × 10 / 10^4) = 5 USDC of fee; the receipt's rent back to the owner.
    expect(chain.tokenBalance(owner.assetAccount)).toBe(4_995n * USDC);
    expect(chain.tokenBalance(stranger.assetAccount)).toBe(0n);
    expect(chain.lamportsOf(owner.publicKey)).toBe(ownerLamports + receiptRent);
    expect(vault.receiptOf(owner)).toBeNull();
  });
});

describe("the last holders' queued exit", () => {
  it("leaves its fee as surplus: a 1 USDC deposit made while it was queued stays worth 1 USDC (before: 100.9999)", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain, { feeBps: 1_000 });
    const holder = vault.addMember(1_000n * USDC);
    const depositor = vault.addMember(1n * USDC);
    expectSuccess(vault.deposit(holder, 1_000n * USDC));
    const shares = chain.tokenBalance(holder.shareAccount);
    expectSuccess(vault.requestWithdrawal(holder, shares));
    expect(vault.receiptOf(holder)?.lastHolderExit).toBe(true);
    // Deposited while the exit is queued: floor(10^6 × (10^12 + 10^3) / (10^9 + 1)) = 10^9 shares.
    expectSuccess(vault.deposit(depositor, 1n * USDC));
    expect(chain.tokenBalance(depositor.shareAccount)).toBe(1_000_000_000n);
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(shares));
    expectSuccess(vault.claimWithdrawal(holder));
    // gross 1,000 USDC, fee 100 USDC, net 900 USDC paid; the fee leaves NAV into the surplus.
    expect(chain.tokenBalance(holder.assetAccount)).toBe(900n * USDC);
    expect(vault.registration().surplusAssets).toBe(100n * USDC);
    expect(vault.state()).toMatchObject({ totalAssets: 1n * USDC, totalShares: 1_000_000_000n });
    // Before: NAV kept the 100 USDC fee and the depositor's 10^9 shares were worth 100,999,900 raw.
    expect(valueOfShares(vault.state(), 1_000_000_000n)).toBe(1n * USDC);
  });

  it("is only the request that queues the last unqueued shares: an earlier exit's fee stays with the holders", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain, { feeBps: 1_000 });
    const first = vault.addMember(1_000n * USDC);
    const last = vault.addMember(1_000n * USDC);
    expectSuccess(vault.deposit(first, 1_000n * USDC));
    expectSuccess(vault.deposit(last, 1_000n * USDC));
    expectSuccess(vault.requestWithdrawal(first, chain.tokenBalance(first.shareAccount)));
    expect(vault.receiptOf(first)?.lastHolderExit).toBe(false);
    expectSuccess(vault.requestWithdrawal(last, chain.tokenBalance(last.shareAccount)));
    expect(vault.receiptOf(last)?.lastHolderExit).toBe(true);
  });
});
