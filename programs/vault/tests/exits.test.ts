// Issue 28 item 1 against the built program: a manager that looks alive (it strikes every day, never
// stages, or stages one raw share every six days) no longer holds a holder's exit. The silence hatch
// counts from the oldest unfunded request: once it has waited the silence period (7 days), anyone may
// stage it, naming its receipt, and deliver the claim.
import { describe, expect, it } from "vitest";

import { TestChain } from "./harness";
import { expectRefused, expectSuccess } from "./expectations";
import { TestVault, type Member } from "./vault-fixture";
import { findReceipt } from "../../../lib/vault/program/addresses";

const USDC = 1_000_000n;
const DAY = 86_400n;
const SILENCE = 7n * DAY;
const ALL = 1_000_000_000_000n;

/** A USDC vault (10 bps fee) with two holders of 1,000 USDC each (10^12 shares each). */
function twoHolders() {
  const chain = TestChain.create();
  const { vault } = TestVault.create(chain, { feeBps: 10 });
  const alice = vault.addMember(1_000n * USDC);
  const bob = vault.addMember(1_000n * USDC);
  expectSuccess(vault.deposit(alice, 1_000n * USDC));
  expectSuccess(vault.deposit(bob, 1_000n * USDC));
  return { chain, vault, alice, bob, stranger: chain.createFundedKeypair() };
}

/** A stranger's staging naming `head`'s receipt (of `receiptVault`, by default this one), refused. */
function expectStrangerRefused(
  vault: TestVault,
  stranger: ReturnType<TestChain["createFundedKeypair"]>,
  head: Member,
  error: string,
  receiptVault: TestVault = vault,
): void {
  const headReceipt = findReceipt(receiptVault.key, head.publicKey);
  expectRefused(
    vault.chain,
    [vault.stageWithdrawalsInstruction(ALL, { manager: stranger.publicKey, headReceipt })],
    [stranger],
    error,
  );
}

describe("a manager that strikes every day but never stages", () => {
  it("holds the request 7 days at most: a stranger then stages it and delivers 999 of 1,000 USDC", () => {
    const { chain, vault, alice, stranger } = twoHolders();
    expectSuccess(vault.requestWithdrawal(alice, ALL));
    const requestedAt = chain.now();
    // Days 1–6: a strike a day (the manager looks alive), and every stranger's staging is refused.
    for (let day = 1n; day < 7n; day += 1n) {
      chain.warpTo(requestedAt + day * DAY);
      expectSuccess(vault.updateNav(0n, 0n));
      expectStrangerRefused(vault, stranger, alice, "Unauthorized");
    }
    chain.warpTo(requestedAt + SILENCE - 1n);
    expectStrangerRefused(vault, stranger, alice, "Unauthorized");
    chain.warpTo(requestedAt + SILENCE);
    expectSuccess(vault.stageWithdrawalsBy(stranger, ALL, alice));
    expect(vault.state()).toMatchObject({ queueFunded: ALL, stagedAt: 0n });
    // The strikes passed the NAV floor; anyone delivers the claim into Alice's asset account.
    expectSuccess(vault.claimWithdrawal(alice));
    expect(chain.tokenBalance(alice.assetAccount)).toBe(999n * USDC);
    expect(chain.now() - requestedAt).toBe(SILENCE);
  });
});

describe("a manager that stages one raw share every 6 days", () => {
  it("cannot keep the hatch shut: 7 days after the request a stranger funds the rest", () => {
    const { chain, vault, alice, stranger } = twoHolders();
    expectSuccess(vault.requestWithdrawal(alice, ALL));
    const requestedAt = chain.now();
    expectSuccess(vault.stageWithdrawals(1n));
    chain.warpTo(requestedAt + 6n * DAY);
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(1n));
    expect(vault.state().queueFunded).toBe(2n);
    chain.warpTo(requestedAt + SILENCE);
    // The manager staged a day ago, so its staging silence has not run; Alice's request has waited 7 days.
    expectSuccess(vault.stageWithdrawalsBy(stranger, ALL, alice));
    expect(vault.state().queueFunded).toBe(ALL);
    expectSuccess(vault.claimWithdrawal(alice));
    expect(chain.tokenBalance(alice.assetAccount)).toBe(999n * USDC);
  });
});

describe("the hatch's receipt", () => {
  it("must be this vault's, not wholly funded, and 7 days old", () => {
    const { chain, vault, alice, bob, stranger } = twoHolders();
    expectSuccess(vault.requestWithdrawal(alice, ALL));
    const requestedAt = chain.now();
    // Another vault's receipt, however old, opens nothing.
    const { vault: other } = TestVault.create(chain);
    const carol = other.addMember(10n * USDC);
    expectSuccess(other.deposit(carol, 10n * USDC));
    expectSuccess(other.requestWithdrawal(carol, 1_000_000_000n));
    chain.warpTo(requestedAt + SILENCE);
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(1n));
    expectStrangerRefused(vault, stranger, carol, "InvalidAccount", other);
    // No receipt named: the manager staged a moment ago, so the stranger is refused.
    expectRefused(
      chain,
      [vault.stageWithdrawalsInstruction(ALL, { manager: stranger.publicKey })],
      [stranger],
      "Unauthorized",
    );
    // Bob's request is a minute old: refused; Alice's (7 days) opens it, and staging goes on FIFO past it.
    chain.warpBy(60n);
    expectSuccess(vault.requestWithdrawal(bob, ALL));
    expectStrangerRefused(vault, stranger, bob, "Unauthorized");
    expectSuccess(vault.stageWithdrawalsBy(stranger, ALL, alice));
    // The manager's 1 share, then 10^12: Alice's other 10^12 − 1 and Bob's first share.
    expect(vault.state().queueFunded).toBe(ALL + 1n);
    // Alice's receipt is now wholly funded: it no longer opens the hatch.
    expectStrangerRefused(vault, stranger, alice, "Unauthorized");
  });
});

describe("a manager that pauses and strikes a zero gain every day", () => {
  it("holds the request 7 days and the payment 7 more: paid in full by a stranger 14 days after the pause", () => {
    const { chain, vault, alice, stranger } = twoHolders();
    expectSuccess(vault.updateConfig({ paused: true }));
    const pausedAt = chain.now();
    for (let day = 1n; day < 7n; day += 1n) {
      chain.warpTo(pausedAt + day * DAY);
      expectSuccess(vault.updateNav(0n, 0n));
      expectRefused(chain, [vault.requestWithdrawalInstruction(alice, ALL)], [alice.keypair], "VaultPaused");
    }
    // The pause ends by itself after 7 days, and the manager may not pause again for 7 more.
    chain.warpTo(pausedAt + SILENCE);
    expectRefused(chain, [vault.updateConfigInstruction({ paused: true })], [vault.manager], "PauseCooldown");
    expectSuccess(vault.requestWithdrawal(alice, ALL));
    for (let day = 8n; day < 14n; day += 1n) {
      chain.warpTo(pausedAt + day * DAY);
      expectSuccess(vault.updateNav(0n, 0n));
      expectRefused(
        chain,
        [vault.updateConfigInstruction({ paused: true })],
        [vault.manager],
        "PauseCooldown",
      );
    }
    // The manager never stages: 7 days after the request a stranger does, and delivers the claim.
    chain.warpTo(pausedAt + 2n * SILENCE);
    expectSuccess(vault.stageWithdrawalsBy(stranger, ALL, alice));
    expectSuccess(vault.claimWithdrawal(alice));
    expect(chain.tokenBalance(alice.assetAccount)).toBe(999n * USDC);
    // Days from the pause (just before the request) to paid: the worst case with the defaults.
    expect((chain.now() - pausedAt) / DAY).toBe(14n);
  });

  it("cannot chain pauses by lifting one: the next waits 7 days after it ends", () => {
    const { chain, vault, alice } = twoHolders();
    expectSuccess(vault.updateConfig({ paused: true }));
    chain.warpBy(3_600n);
    expectSuccess(vault.updateConfig({ paused: false }));
    const liftedAt = chain.now();
    expect(vault.state()).toMatchObject({ paused: false, pauseUntil: liftedAt });
    chain.warpTo(liftedAt + SILENCE - 1n);
    expectRefused(chain, [vault.updateConfigInstruction({ paused: true })], [vault.manager], "PauseCooldown");
    expectSuccess(vault.requestWithdrawal(alice, 1_000_000_000n));
    chain.warpTo(liftedAt + SILENCE);
    expectSuccess(vault.updateConfig({ paused: true }));
    expect(vault.state().pauseUntil).toBe(chain.now() + SILENCE);
  });
});
