// Issue 21 item 3 against the built program, with its numbers: the owner cancels a pending request
// until it is claimed (also while paused); the shares and the cap usage come back exactly; a cancelled
// request inside the queue leaves a hole that staging passes at no asset cost, so nobody is paid more
// or earlier than funded and nobody behind it waits longer.
import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { findQueueHoles } from "../../../lib/vault/program/addresses";
import { decodeVaultEvents } from "../../../lib/vault/program/events";
import { TestChain } from "./harness";
import { expectRefused, expectSuccess } from "./expectations";
import { TestVault, type Member } from "./vault-fixture";

// USDC: 6 decimals, shares 9; at the starting price 1,000 USDC (10^9 raw) is 10^12 shares.
const USDC_1000 = 1_000_000_000n;
const SHARES_1000 = 1_000_000_000_000n;

function fundedMembers(vault: TestVault, count: number, assets: bigint = USDC_1000): Member[] {
  return Array.from({ length: count }, () => {
    const member = vault.addMember(assets);
    expectSuccess(vault.deposit(member, assets));
    return member;
  });
}

function holesOf(vault: TestVault): { count: number; holes: [bigint, bigint][] } | null {
  const holes = vault.queueHoles();
  return holes === null ? null : { count: holes.length, holes };
}

describe("cancel_withdrawal", () => {
  it("returns exactly the escrowed shares and the cap usage, closes the receipt, and the owner requests again at once", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain, { hourlyCap: USDC_1000, dailyCap: 1_500_000_000n });
    const [holder, other] = fundedMembers(vault, 2) as [Member, Member];
    expect(chain.tokenBalance(holder.shareAccount)).toBe(SHARES_1000);

    // 600 USDC of shares: value floor(6×10^11 × (2×10^9 + 1) / (2×10^12 + 10^3)) = 6×10^8.
    expectSuccess(vault.requestWithdrawal(holder, 600_000_000_000n));
    expect(vault.state()).toMatchObject({
      hourlyUsed: 600_000_000n,
      dailyUsed: 600_000_000n,
      pendingRequests: 1n,
    });
    expect(vault.escrowBalance()).toBe(600_000_000_000n);
    // 500 more USDC would pass the hourly cap of 1,000.
    expectRefused(
      chain,
      [vault.requestWithdrawalInstruction(other, 500_000_000_000n)],
      [other.keypair],
      "HourlyWithdrawalCapExceeded",
    );

    const lamportsBefore = chain.lamportsOf(holder.publicKey);
    const receiptRent = chain.lamportsOf(holder.receipt);
    const outcome = expectSuccess(vault.cancelWithdrawal(holder));
    expect(chain.tokenBalance(holder.shareAccount)).toBe(SHARES_1000);
    expect(vault.escrowBalance()).toBe(0n);
    expect(vault.receiptOf(holder)).toBeNull();
    expect(chain.lamportsOf(holder.publicKey)).toBe(lamportsBefore + receiptRent);
    expect(vault.state()).toMatchObject({
      hourlyUsed: 0n,
      dailyUsed: 0n,
      pendingRequests: 0n,
      queueTail: 0n,
      queueFunded: 0n,
      queueClaimed: 0n,
      totalAssets: 2n * USDC_1000,
      totalShares: 2n * SHARES_1000,
    });
    expect(decodeVaultEvents(outcome.logs)).toEqual([
      {
        name: "WithdrawalCancelled",
        data: {
          vault: vault.key,
          owner: holder.publicKey,
          requestId: 0n,
          shares: 600_000_000_000n,
          feeShares: 0n,
          cancelledAt: chain.now(),
        },
      },
    ]);
    // The cap it took is free again: the whole hourly 1,000 USDC, then the holder's new request.
    expectSuccess(vault.requestWithdrawal(other, SHARES_1000));
    expect(vault.state().hourlyUsed).toBe(USDC_1000);
    chain.warpBy(3_600n);
    expectSuccess(vault.requestWithdrawal(holder, 400_000_000_000n));
    expect(vault.receiptOf(holder)).toMatchObject({ requestId: 2n, shares: 400_000_000_000n });
    expect(vault.state()).toMatchObject({ hourlyUsed: 400_000_000n, dailyUsed: 1_400_000_000n });
  });

  it("gives the cap back only to the windows the request was charged in", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain, { hourlyCap: USDC_1000, dailyCap: 3n * USDC_1000 });
    const [first, second] = fundedMembers(vault, 2) as [Member, Member];
    expectSuccess(vault.requestWithdrawal(first, 500_000_000_000n)); // 500 USDC in hour 0
    chain.warpBy(3_600n);
    expectSuccess(vault.requestWithdrawal(second, 300_000_000_000n)); // 300 USDC in hour 1
    expect(vault.state()).toMatchObject({ hourlyUsed: 300_000_000n, dailyUsed: 800_000_000n });
    expectSuccess(vault.cancelWithdrawal(first));
    // Hour 1's usage is the second request's alone; the day gives back the first's 500.
    expect(vault.state()).toMatchObject({ hourlyUsed: 300_000_000n, dailyUsed: 300_000_000n });
    // The next day nothing is left to give back: used stays 0, never below.
    chain.warpBy(86_400n);
    expectSuccess(vault.cancelWithdrawal(second));
    expect(vault.state()).toMatchObject({ hourlyUsed: 0n, dailyUsed: 0n });
    expect(chain.tokenBalance(second.shareAccount)).toBe(SHARES_1000);
  });

  it("only the owner can cancel: another wallet's receipt, or the owner not signing, is refused", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain);
    const [owner, mallory] = fundedMembers(vault, 2) as [Member, Member];
    expectSuccess(vault.requestWithdrawal(owner, SHARES_1000));

    // Mallory signs as herself with the owner's receipt: the receipt is not her PDA.
    expectRefused(
      chain,
      [vault.cancelWithdrawalInstruction(mallory, { receipt: owner.receipt })],
      [mallory.keypair],
      "InvalidAccount",
    );
    // Naming the owner without its signature, the shares going to her own account.
    const notSigning = vault.cancelWithdrawalInstruction(owner, { ownerShares: mallory.shareAccount });
    notSigning.keys[0] = { pubkey: owner.publicKey, isSigner: false, isWritable: true };
    expectRefused(chain, [notSigning], [mallory.keypair], "MissingSigner");
    // The owner signing, the shares going to her account.
    expectRefused(
      chain,
      [vault.cancelWithdrawalInstruction(owner, { ownerShares: mallory.shareAccount })],
      [owner.keypair],
      "InvalidTokenOwner",
    );
    // Mallory with no receipt of her own.
    expectRefused(
      chain,
      [vault.cancelWithdrawalInstruction(mallory)],
      [mallory.keypair],
      "NoPendingWithdrawal",
    );

    expect(vault.escrowBalance()).toBe(SHARES_1000);
    expect(chain.tokenBalance(mallory.shareAccount)).toBe(SHARES_1000);
    expect(vault.receiptOf(owner)?.shares).toBe(SHARES_1000);
  });

  it("a claimed receipt cannot be cancelled", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain);
    const [holder] = fundedMembers(vault, 2) as [Member, Member];
    expectSuccess(vault.requestWithdrawal(holder, SHARES_1000));
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(SHARES_1000));
    expectSuccess(vault.claimWithdrawal(holder));
    expect(chain.tokenBalance(holder.assetAccount)).toBe(USDC_1000);
    expectRefused(
      chain,
      [vault.cancelWithdrawalInstruction(holder)],
      [holder.keypair],
      "NoPendingWithdrawal",
    );
    expect(chain.tokenBalance(holder.shareAccount)).toBe(0n);
  });

  it("works while the vault is paused, when a new request does not", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain);
    const [holder] = fundedMembers(vault, 1) as [Member];
    expectSuccess(vault.requestWithdrawal(holder, SHARES_1000));
    expectSuccess(vault.updateConfig({ paused: true }));
    expectSuccess(vault.cancelWithdrawal(holder));
    expect(chain.tokenBalance(holder.shareAccount)).toBe(SHARES_1000);
    expectRefused(
      chain,
      [vault.requestWithdrawalInstruction(holder, SHARES_1000)],
      [holder.keypair],
      "VaultPaused",
    );
  });
});

describe("a cancelled request inside the queue", () => {
  /** Three holders of 1,000 USDC each queue all their shares; the queue is A [0, 10^12), B, C. */
  function queueOfThree() {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain);
    const [a, b, c] = fundedMembers(vault, 3) as [Member, Member, Member];
    for (const member of [a, b, c]) {
      expectSuccess(vault.requestWithdrawal(member, SHARES_1000));
    }
    expectSuccess(vault.updateNav(0n, 0n));
    return { chain, vault, a, b, c };
  }

  it("is a hole staging passes at no asset cost: C is funded with C's assets only, and nobody is paid more", () => {
    const { chain, vault, a, b, c } = queueOfThree();
    expectSuccess(vault.cancelWithdrawal(b));
    expect(holesOf(vault)).toEqual({ count: 1, holes: [[SHARES_1000, 2n * SHARES_1000]] });
    expect(vault.state()).toMatchObject({
      queueTail: 3n * SHARES_1000,
      queueFunded: 0n,
      queueClaimed: 0n,
      pendingRequests: 2n,
    });
    // Not funded, not claimable: the hole moves nobody forward for free.
    expectRefused(chain, [vault.claimWithdrawalInstruction(c)], [c.keypair], "QueueNotFunded");

    // A budget of 2 × 10^12 shares, which without the cancel funded A and B: now A and C, the hole
    // passed for nothing (queue_claimed takes its 10^12 shares, no asset is held back for them).
    const staged = expectSuccess(vault.stageWithdrawals(2n * SHARES_1000));
    expect(decodeVaultEvents(staged.logs)).toEqual([
      {
        name: "WithdrawalsStaged",
        data: {
          vault: vault.key,
          stagedShares: 2n * SHARES_1000,
          queueFunded: 3n * SHARES_1000,
          queueTail: 3n * SHARES_1000,
          timestamp: chain.now(),
        },
      },
    ]);
    expect(vault.state()).toMatchObject({ queueFunded: 3n * SHARES_1000, queueClaimed: SHARES_1000 });
    expect(holesOf(vault)).toEqual({ count: 0, holes: [] });
    // Liabilities ceil(2 × 10^12 × (3 × 10^9 + 1) / (3 × 10^12 + 10^3)) = 2 × 10^9: the reserve's
    // other 1,000 USDC is B's, and staging has nothing more to fund.
    expectSuccess(vault.stageWithdrawals(SHARES_1000));
    expect(vault.state().queueFunded).toBe(3n * SHARES_1000);

    expectSuccess(vault.claimWithdrawal(c));
    expectSuccess(vault.claimWithdrawal(a));
    expect(chain.tokenBalance(a.assetAccount)).toBe(USDC_1000);
    expect(chain.tokenBalance(c.assetAccount)).toBe(USDC_1000);
    // B keeps its 10^12 shares, worth the reserve's remaining 1,000 USDC.
    expect(chain.tokenBalance(b.shareAccount)).toBe(SHARES_1000);
    expect(vault.reserveBalance()).toBe(USDC_1000);
    expect(vault.state()).toMatchObject({
      totalAssets: USDC_1000,
      totalShares: SHARES_1000,
      queueTail: 3n * SHARES_1000,
      queueFunded: 3n * SHARES_1000,
      queueClaimed: 3n * SHARES_1000,
    });
  });

  it("a hole list at another address is refused: staging cannot be made to fund the holes", () => {
    const { chain, vault, b } = queueOfThree();
    expectSuccess(vault.cancelWithdrawal(b));
    const elsewhere = chain.createFundedKeypair().publicKey;
    expectRefused(
      chain,
      [vault.stageWithdrawalsInstruction(SHARES_1000, { queueHoles: elsewhere })],
      [vault.manager],
      "InvalidAccount",
    );
    const { chain: otherChain, vault: other, c } = queueOfThree();
    expectRefused(
      otherChain,
      [other.cancelWithdrawalInstruction(c, { queueHoles: findQueueHoles(PublicKey.unique()) })],
      [c.keypair],
      "InvalidAccount",
    );
  });

  it("holds back only what funded receipts are owed: a cancelled half-funded request frees its half", () => {
    const { chain, vault, a, b, c } = queueOfThree();
    // Staging funds A and half of B: 1,500 USDC held back of the 3,000 in the reserve.
    expectSuccess(vault.stageWithdrawals(1_500_000_000_000n));
    expectSuccess(vault.cancelWithdrawal(b));
    // B's funded half leaves the funded, unclaimed shares (now A's 10^12 only); C stays unfunded.
    expect(vault.state()).toMatchObject({
      queueFunded: 2n * SHARES_1000,
      queueClaimed: SHARES_1000,
      queueTail: 3n * SHARES_1000,
    });
    expect(holesOf(vault)).toBeNull();
    expectRefused(chain, [vault.claimWithdrawalInstruction(c)], [c.keypair], "QueueNotFunded");
    // The idle 2,000 USDC less A's 1,000 fund C in full; nothing is left for more.
    expectSuccess(vault.stageWithdrawals(10n ** 18n));
    expect(vault.state().queueFunded).toBe(3n * SHARES_1000);
    expectSuccess(vault.claimWithdrawal(c));
    expect(chain.tokenBalance(c.assetAccount)).toBe(USDC_1000);
    expectSuccess(vault.claimWithdrawal(a));
    expect(chain.tokenBalance(a.assetAccount)).toBe(USDC_1000);
    expect(vault.reserveBalance()).toBe(USDC_1000);
  });

  it("a funded request cancelled is settled: its assets are idle again, the request behind it stays claimable", () => {
    const { chain, vault, a, b, c } = queueOfThree();
    expectSuccess(vault.stageWithdrawals(2n * SHARES_1000)); // A and B funded, 2,000 USDC held back
    expectSuccess(vault.cancelWithdrawal(a));
    expect(vault.state()).toMatchObject({ queueFunded: 2n * SHARES_1000, queueClaimed: SHARES_1000 });
    expect(chain.tokenBalance(a.shareAccount)).toBe(SHARES_1000);
    // Only B's 1,000 USDC is held back now: the other 2,000 fund C in full, once.
    expectSuccess(vault.stageWithdrawals(10n ** 18n));
    expect(vault.state().queueFunded).toBe(3n * SHARES_1000);
    expectSuccess(vault.claimWithdrawal(b));
    expectSuccess(vault.claimWithdrawal(c));
    expect(chain.tokenBalance(b.assetAccount)).toBe(USDC_1000);
    expect(chain.tokenBalance(c.assetAccount)).toBe(USDC_1000);
    expect(vault.reserveBalance()).toBe(USDC_1000);
  });

  it("does not hide the holders' last exit: a re-request of the last unqueued shares is still flagged", () => {
    const { vault, b } = queueOfThree();
    expectSuccess(vault.cancelWithdrawal(b));
    expect(holesOf(vault)?.count).toBe(1);
    // queue_tail − queue_claimed still counts B's hole (3 × 10^12), the escrow holds 2 × 10^12: B's
    // 10^12 are the only shares no request holds, so its new request is the last holders' exit.
    expectSuccess(vault.requestWithdrawal(b, SHARES_1000));
    expect(vault.receiptOf(b)).toMatchObject({ queueStart: 3n * SHARES_1000, lastHolderExit: true });
  });

  it("the last request cancelled shrinks the tail, past a hole just before it", () => {
    const { vault, b, c } = queueOfThree();
    expectSuccess(vault.cancelWithdrawal(b));
    expectSuccess(vault.cancelWithdrawal(c));
    expect(vault.state()).toMatchObject({ queueTail: SHARES_1000, queueFunded: 0n, queueClaimed: 0n });
    expect(holesOf(vault)).toEqual({ count: 0, holes: [] });
  });

  it("a full hole list refuses a cancel that needs a new hole, and clears as staging reaches the holes", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain);
    // 35 holders of 100 raw units (10^5 shares each) queue everything: member i holds [i × 10^5, (i+1) × 10^5).
    const members = fundedMembers(vault, 35, 100n);
    for (const member of members) {
      expectSuccess(vault.requestWithdrawal(member, 100_000n));
    }
    const member = (index: number): Member => members[index] as Member;
    for (let index = 1; index <= 31; index += 2) {
      expectSuccess(vault.cancelWithdrawal(member(index)));
    }
    expect(holesOf(vault)?.count).toBe(16);
    expectRefused(
      chain,
      [vault.cancelWithdrawalInstruction(member(33))],
      [member(33).keypair],
      "QueueHolesFull",
    );
    // A cancel between two holes merges them into [10^5, 4 × 10^5): one slot free.
    expectSuccess(vault.cancelWithdrawal(member(2)));
    expect(holesOf(vault)?.count).toBe(15);
    // Staging 3 × 10^5 shares funds members 0, 4 and 6 and passes the holes after each: 12 left.
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(300_000n));
    expect(vault.state()).toMatchObject({ queueFunded: 800_000n, queueClaimed: 500_000n });
    expect(holesOf(vault)?.count).toBe(12);
    expectSuccess(vault.cancelWithdrawal(member(33)));
    expect(chain.tokenBalance(member(33).shareAccount)).toBe(100_000n);
    expect(holesOf(vault)?.count).toBe(13);
    // The last request shrinks the tail past the hole member 33 left before it.
    expectSuccess(vault.cancelWithdrawal(member(34)));
    expect(vault.state().queueTail).toBe(3_300_000n);
    expect(holesOf(vault)?.count).toBe(12);
  });
});
