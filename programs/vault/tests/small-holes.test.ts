// Issue 28 item 2 against the built program, each attack of the review with its numbers: a second share
// account no longer dodges the minimum, a stranger's delivery pays only into the owner's associated
// token account, holding the caps for an hour and cancelling costs the exit fee, and dust requests
// cannot fill the hole list.
import { describe, expect, it } from "vitest";

import { buildTransferInstruction } from "../../../lib/chain/spl-token";
import { decodeVaultEvents } from "../../../lib/vault/program/events";
import { TestChain } from "./harness";
import { expectRefused, expectSuccess } from "./expectations";
import { TestVault } from "./vault-fixture";

// USDC: 6 decimals; shares 9. At the starting price 1 USDC (10^6 raw) is 10^9 raw shares.
const USDC = 1_000_000n;
const SHARES_PER_USDC = 1_000_000_000n;

describe("the minimum is checked against the owner's associated share account", () => {
  it("refuses a 1-raw-share request from a second account under a 1,000-share minimum; the ATA's whole balance passes", () => {
    const chain = TestChain.create();
    // A minimum of 1,000 shares (10^12 raw).
    const { vault } = TestVault.create(chain, { minWithdrawalShares: 1_000n * SHARES_PER_USDC });
    const mallory = vault.addMember(5_000n * USDC);
    expectSuccess(vault.deposit(mallory, 5_000n * USDC));
    // A second share account of her own, holding 1 raw share moved from her ATA.
    const second = chain.createTokenAccount(mallory.publicKey, vault.addresses.shareMint);
    expectSuccess(
      chain.send(
        [buildTransferInstruction(mallory.shareAccount, second, mallory.publicKey, 1n)],
        [mallory.keypair],
      ),
    );
    expect(chain.tokenBalance(second)).toBe(1n);
    expectRefused(
      chain,
      [vault.requestWithdrawalInstruction(mallory, 1n, { ownerShares: second })],
      [mallory.keypair],
      "BelowMinimumWithdrawal",
    );
    expect(vault.state().pendingRequests).toBe(0n);

    // A small holder whose whole balance (500 shares) sits in its ATA may still leave.
    const small = vault.addMember(500n * USDC);
    expectSuccess(vault.deposit(small, 500n * USDC));
    expectSuccess(vault.requestWithdrawal(small, 500n * SHARES_PER_USDC));
    expect(vault.receiptOf(small)?.shares).toBe(500n * SHARES_PER_USDC);
  });
});

describe("a delivered claim pays only into the owner's associated token account", () => {
  it("refuses a stranger's delivery of 999 USDC into a plain account the holder owns; the ATA gets it", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain, { feeBps: 10 });
    const holder = vault.addMember(1_000n * USDC);
    const stranger = chain.createFundedKeypair();
    expectSuccess(vault.deposit(holder, 1_000n * USDC));
    expectSuccess(vault.requestWithdrawal(holder, 1_000n * SHARES_PER_USDC));
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(1_000n * SHARES_PER_USDC));

    const unwatched = chain.createTokenAccount(holder.publicKey, chain.assetMint);
    expectRefused(
      chain,
      [vault.claimWithdrawalInstruction(holder, { ownerAsset: unwatched })],
      [stranger],
      "NotAssociatedTokenAccount",
    );
    expect(chain.tokenBalance(unwatched)).toBe(0n);

    const before = chain.tokenBalance(holder.assetAccount);
    expectSuccess(chain.send([vault.claimWithdrawalInstruction(holder)], [stranger]));
    // 1,000 USDC less the 10 bps fee (1 USDC), into the ATA.
    expect(chain.tokenBalance(holder.assetAccount) - before).toBe(999n * USDC);
  });

  it("lets the owner itself claim into any asset account of its own", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain);
    const holder = vault.addMember(100n * USDC);
    expectSuccess(vault.deposit(holder, 100n * USDC));
    expectSuccess(vault.requestWithdrawal(holder, 100n * SHARES_PER_USDC));
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(100n * SHARES_PER_USDC));
    const own = chain.createTokenAccount(holder.publicKey, chain.assetMint);
    const claim = vault.claimWithdrawalInstruction(holder, { ownerAsset: own });
    claim.keys[0] = { pubkey: holder.publicKey, isSigner: true, isWritable: true }; // the owner signs
    expectSuccess(chain.send([claim], [holder.keypair]));
    expect(chain.tokenBalance(own)).toBe(100n * USDC);
  });
});

describe("holding the hourly cap and cancelling is not free", () => {
  it("costs the griefer the 10 bps exit fee on 25,000 USDC (25 USDC), which stays with the other holders", () => {
    const chain = TestChain.create();
    const hourlyCap = 25_000n * USDC;
    const { vault } = TestVault.create(chain, { feeBps: 10, hourlyCap, dailyCap: 100_000n * USDC });
    const griefer = vault.addMember(25_000n * USDC);
    const honest = vault.addMember(75_000n * USDC);
    expectSuccess(vault.deposit(griefer, 25_000n * USDC));
    expectSuccess(vault.deposit(honest, 75_000n * USDC));
    const valueOf = (shares: bigint): bigint => {
      const { totalAssets, totalShares } = vault.state();
      return (shares * (totalAssets + 1n)) / (totalShares + 1_000n);
    };
    const honestBefore = valueOf(chain.tokenBalance(honest.shareAccount));

    // HH:00 the griefer takes the whole hourly cap; everyone else is refused for the hour.
    chain.warpTo((chain.now() / 3_600n + 1n) * 3_600n);
    const all = chain.tokenBalance(griefer.shareAccount);
    expectSuccess(vault.requestWithdrawal(griefer, all));
    expectRefused(
      chain,
      [vault.requestWithdrawalInstruction(honest, 1_000n * SHARES_PER_USDC)],
      [honest.keypair],
      "HourlyWithdrawalCapExceeded",
    );
    // HH:59 the cancel: the fee ceil(25,000 × 10^9 × 10 / 10,000) = 25 × 10^9 shares is burned.
    chain.warpBy(3_540n);
    const outcome = expectSuccess(vault.cancelWithdrawal(griefer));
    const feeShares = 25n * SHARES_PER_USDC;
    expect(chain.tokenBalance(griefer.shareAccount)).toBe(all - feeShares);
    expect(decodeVaultEvents(outcome.logs)[0]).toMatchObject({
      name: "WithdrawalCancelled",
      data: { shares: all, feeShares },
    });
    expect(vault.shareSupply()).toBe(vault.state().totalShares);
    // The griefer is 25 USDC down (give or take a raw unit); its fee raised the honest holder's 75%.
    const grieferAfter = valueOf(chain.tokenBalance(griefer.shareAccount));
    expect(25_000n * USDC - grieferAfter).toBeGreaterThanOrEqual(25n * USDC - (25n * USDC) / 4n - 1n);
    expect(valueOf(chain.tokenBalance(honest.shareAccount)) - honestBefore).toBeGreaterThan(18n * USDC);
    // An honest exit of the same shares would have cost the same fee: 25 USDC kept in the vault.
    expect(vault.state().totalAssets).toBe(100_000n * USDC);
  });
});

describe("dust cannot fill the hole list", () => {
  it("refuses mid-queue cancels of 32 whole-balance dust requests under a 1,000-share minimum; the list stays empty", () => {
    const chain = TestChain.create();
    const minimum = 1_000n * SHARES_PER_USDC;
    const { vault } = TestVault.create(chain, { minWithdrawalShares: minimum });
    const [front, back] = [vault.addMember(10_000n * USDC), vault.addMember(10_000n * USDC)];
    expectSuccess(vault.deposit(front, 10_000n * USDC));
    expectSuccess(vault.deposit(back, 10_000n * USDC));
    // A real request ahead of them and one behind keep every dust request inside the queue.
    expectSuccess(vault.requestWithdrawal(front, minimum));
    // 32 wallets holding 1 raw USDC each (10^3 raw shares: their whole balance, below the minimum).
    const dust = Array.from({ length: 32 }, () => {
      const member = vault.addMember(1n);
      expectSuccess(vault.deposit(member, 1n));
      expectSuccess(vault.requestWithdrawal(member, 1_000n));
      return member;
    });
    expectSuccess(vault.requestWithdrawal(back, minimum));
    for (const member of dust) {
      expectRefused(
        chain,
        [vault.cancelWithdrawalInstruction(member)],
        [member.keypair],
        "SmallRequestCannotLeaveQueue",
      );
    }
    expect(vault.queueHoles()).toBeNull();

    // Once staging funds them they leave, settled, without a hole (less the fee: none here).
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(minimum + 32_000n));
    const [first] = dust;
    if (first === undefined) throw new Error("no dust");
    expectSuccess(vault.cancelWithdrawal(first));
    expect(chain.tokenBalance(first.shareAccount)).toBe(1_000n);
    expect(vault.queueHoles()).toBeNull();
  });
});
