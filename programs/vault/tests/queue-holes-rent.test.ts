// Issue 28 item 2, the hole list's rent: the first cancel that leaves a hole creates the vault's list
// and its owner pays the rent; once staging has passed every hole, anyone's close_queue_holes returns
// every lamport of it to that owner, and the next cancel that needs a list creates it again. With the
// numbers, and the refusals an attacker would try.
import { describe, expect, it } from "vitest";

import { findQueueHoles, findQueueHolesAndBump } from "../../../lib/vault/program/addresses";
import { QUEUE_HOLES_ACCOUNT_SIZE, WITHDRAWAL_RECEIPT_ACCOUNT_SIZE } from "../../../lib/vault/program/idl";
import { TestChain } from "./harness";
import { expectRefused, expectSuccess } from "./expectations";
import { type Member, TestVault } from "./vault-fixture";

// USDC: 6 decimals; shares 9. At the starting price 1 USDC (10^6 raw) is 10^9 raw shares.
const USDC = 1_000_000n;
const SHARES_PER_USDC = 1_000_000_000n;

/**
 * A vault with `count` holders of 100 USDC, each with a request for all of it, in order: holder 0 heads
 * the queue (a cancel there settles at the frontier), so a later one cancelled unfunded leaves a hole.
 */
function queued(count: number): { chain: TestChain; vault: TestVault; holders: Member[] } {
  const chain = TestChain.create();
  const { vault } = TestVault.create(chain);
  const holders = Array.from({ length: count }, () => {
    const holder = vault.addMember(100n * USDC);
    expectSuccess(vault.deposit(holder, 100n * USDC));
    expectSuccess(vault.requestWithdrawal(holder, 100n * SHARES_PER_USDC));
    return holder;
  });
  return { chain, vault, holders };
}

function pick(holders: Member[], index: number): Member {
  const holder = holders[index];
  if (holder === undefined) throw new Error(`no holder ${index}`);
  return holder;
}

describe("the hole list's rent comes back when it empties", () => {
  it("returns exactly the rent the cancelling owner paid (0.0032 SOL for 330 bytes), to it, whoever sends the close", () => {
    const { chain, vault, holders } = queued(3);
    const [head, cancelling, behind] = [pick(holders, 0), pick(holders, 1), pick(holders, 2)];
    const listAddress = findQueueHoles(vault.key);
    const listRent = chain.rentExemptBalance(QUEUE_HOLES_ACCOUNT_SIZE);
    const receiptRent = chain.rentExemptBalance(WITHDRAWAL_RECEIPT_ACCOUNT_SIZE);
    // (128 + 330) × 6,960 lamports a byte-year: 3,187,680 lamports.
    expect(listRent).toBe(3_187_680n);

    const beforeCreate = chain.lamportsOf(cancelling.publicKey);
    expectSuccess(vault.cancelWithdrawal(cancelling));
    const afterCreate = chain.lamportsOf(cancelling.publicKey);
    // The cancel closed the receipt (its rent back) and created the list (its rent paid); the chain's
    // fee payer pays the transaction fee.
    expect(afterCreate - beforeCreate).toBe(receiptRent - listRent);
    expect(chain.lamportsOf(listAddress)).toBe(listRent);
    expect(vault.queueHoles()).toEqual([[100n * SHARES_PER_USDC, 200n * SHARES_PER_USDC]]);
    expect(vault.queueHolesPayer().equals(cancelling.publicKey)).toBe(true);

    // Staging passes the hole: the list is empty, and anyone (the chain's fee payer alone signs) closes it.
    expectSuccess(vault.stageWithdrawals(200n * SHARES_PER_USDC));
    expect(vault.queueHoles()).toEqual([]);
    expectSuccess(vault.closeQueueHoles());
    const afterClose = chain.lamportsOf(cancelling.publicKey);
    expect(afterClose - afterCreate).toBe(listRent);
    expect(afterClose - beforeCreate).toBe(receiptRent);
    expect(chain.readAccount(listAddress)).toBeNull();
    expect(vault.queueHoles()).toBeNull();
    // The queue is as staging left it; the other two requests are funded and claim in full.
    expect(vault.state()).toMatchObject({
      queueTail: 300n * SHARES_PER_USDC,
      queueFunded: 300n * SHARES_PER_USDC,
      queueClaimed: 100n * SHARES_PER_USDC,
    });
    expectSuccess(vault.updateNav(0n, 0n));
    for (const holder of [head, behind]) {
      expectSuccess(vault.claimWithdrawal(holder));
      expect(chain.tokenBalance(holder.assetAccount)).toBe(100n * USDC);
    }
  });

  it("refuses while a hole remains (6035), for another payer (6006), a read-only payer (6010) and another vault's list (6006)", () => {
    const { chain, vault, holders } = queued(3);
    expectSuccess(vault.cancelWithdrawal(pick(holders, 1)));
    expectRefused(chain, [vault.closeQueueHolesInstruction()], [], "QueueHolesNotEmpty");

    expectSuccess(vault.stageWithdrawals(100n * SHARES_PER_USDC));
    expect(vault.queueHoles()).toEqual([]);
    const stranger = chain.createFundedKeypair();
    expectRefused(chain, [vault.closeQueueHolesInstruction(stranger.publicKey)], [], "InvalidAccount");
    const readOnly = vault.closeQueueHolesInstruction();
    const payerMeta = readOnly.keys[2];
    if (payerMeta === undefined) throw new Error("no payer account");
    readOnly.keys[2] = { ...payerMeta, isWritable: false };
    expectRefused(chain, [readOnly], [], "AccountNotWritable");

    // A second vault's empty list, named for the first vault: not the first vault's address.
    const { vault: other } = TestVault.create(chain);
    const otherHolders = [
      other.addMember(100n * USDC),
      other.addMember(100n * USDC),
      other.addMember(100n * USDC),
    ];
    for (const holder of otherHolders) {
      expectSuccess(other.deposit(holder, 100n * USDC));
      expectSuccess(other.requestWithdrawal(holder, 100n * SHARES_PER_USDC));
    }
    expectSuccess(other.cancelWithdrawal(pick(otherHolders, 1)));
    expectSuccess(other.stageWithdrawals(100n * SHARES_PER_USDC));
    const foreign = vault.closeQueueHolesInstruction();
    const listMeta = foreign.keys[1];
    if (listMeta === undefined) throw new Error("no list account");
    foreign.keys[1] = { ...listMeta, pubkey: findQueueHoles(other.key) };
    foreign.keys[2] = { pubkey: other.queueHolesPayer(), isSigner: false, isWritable: true };
    expectRefused(chain, [foreign], [], "InvalidAccount");

    // The right payer closes each.
    expectSuccess(vault.closeQueueHoles());
    expectSuccess(other.closeQueueHoles());
  });

  it("refuses a second close, in the same transaction or later, and a close with no list ever created (6007)", () => {
    const { chain, vault, holders } = queued(3);
    expectRefused(
      chain,
      [vault.closeQueueHolesInstruction(pick(holders, 1).publicKey)],
      [],
      "InvalidAccountOwner",
    );
    expectSuccess(vault.cancelWithdrawal(pick(holders, 1)));
    expectSuccess(vault.stageWithdrawals(100n * SHARES_PER_USDC));
    const payer = vault.queueHolesPayer();
    const payerBefore = chain.lamportsOf(payer);
    // Twice in one transaction: the second finds no list, and the whole transaction (the first close
    // included) is undone.
    expectRefused(
      chain,
      [vault.closeQueueHolesInstruction(payer), vault.closeQueueHolesInstruction(payer)],
      [],
      "InvalidAccountOwner",
    );
    expect(chain.lamportsOf(payer)).toBe(payerBefore);
    expectSuccess(vault.closeQueueHoles(payer));
    expectRefused(chain, [vault.closeQueueHolesInstruction(payer)], [], "InvalidAccountOwner");
    expect(chain.lamportsOf(payer) - payerBefore).toBe(chain.rentExemptBalance(QUEUE_HOLES_ACCOUNT_SIZE));
  });

  it("after a close, staging and a cancel without a hole need no list, and the next hole creates it again for its owner", () => {
    const { chain, vault, holders } = queued(6);
    const [h0, h1, h2, h3, h4, h5] = [0, 1, 2, 3, 4, 5].map((index) => pick(holders, index)) as [
      Member,
      Member,
      Member,
      Member,
      Member,
      Member,
    ];
    expectSuccess(vault.cancelWithdrawal(h1));
    expectSuccess(vault.stageWithdrawals(100n * SHARES_PER_USDC)); // funds h0, passes h1's hole
    expectSuccess(vault.closeQueueHoles());
    const listAddress = findQueueHoles(vault.key);
    expect(chain.readAccount(listAddress)).toBeNull();

    // The closed list passed to stage (funds h2) and to a funded cancel (h2, settled): none is created.
    expectSuccess(vault.stageWithdrawals(100n * SHARES_PER_USDC));
    expectSuccess(vault.cancelWithdrawal(h2));
    expect(chain.readAccount(listAddress)).toBeNull();

    // h4 cancels unfunded with h5 behind it: the list comes back, paid by h4 and recording h4.
    const listRent = chain.rentExemptBalance(QUEUE_HOLES_ACCOUNT_SIZE);
    const before = chain.lamportsOf(h4.publicKey);
    expectSuccess(vault.cancelWithdrawal(h4));
    expect(vault.queueHoles()).toEqual([[400n * SHARES_PER_USDC, 500n * SHARES_PER_USDC]]);
    expect(vault.queueHolesPayer().equals(h4.publicKey)).toBe(true);
    expect(chain.lamportsOf(listAddress)).toBe(listRent);
    expectSuccess(vault.stageWithdrawals(200n * SHARES_PER_USDC)); // funds h3, passes the hole, funds h5
    // h1, the first list's payer, is not this one's.
    expectRefused(chain, [vault.closeQueueHolesInstruction(h1.publicKey)], [], "InvalidAccount");
    expectSuccess(vault.closeQueueHoles());
    expect(chain.lamportsOf(h4.publicKey) - before).toBe(
      chain.rentExemptBalance(WITHDRAWAL_RECEIPT_ACCOUNT_SIZE),
    );
    expectSuccess(vault.updateNav(0n, 0n));
    for (const holder of [h0, h3, h5]) {
      expectSuccess(vault.claimWithdrawal(holder));
      expect(chain.tokenBalance(holder.assetAccount)).toBe(100n * USDC);
    }
  });

  it("closes a list a cancel emptied (the last request shrinking the tail past the hole)", () => {
    const { chain, vault, holders } = queued(3);
    expectSuccess(vault.cancelWithdrawal(pick(holders, 1)));
    expect(vault.queueHoles()).toHaveLength(1);
    expectSuccess(vault.cancelWithdrawal(pick(holders, 2)));
    expect(vault.queueHoles()).toEqual([]);
    expect(vault.state().queueTail).toBe(100n * SHARES_PER_USDC);
    const payer = pick(holders, 1).publicKey;
    const before = chain.lamportsOf(payer);
    expectSuccess(vault.closeQueueHoles());
    expect(chain.lamportsOf(payer) - before).toBe(chain.rentExemptBalance(QUEUE_HOLES_ACCOUNT_SIZE));
  });

  it("keeps the list's bump in the vault from the first look, and still refuses another address for a missing list (6006)", () => {
    const { chain, vault, holders } = queued(3);
    expect(vault.state().queueHolesBump).toBe(0);
    const [head, middle] = [pick(holders, 0), pick(holders, 1)];
    const impostor = chain.createFundedKeypair().publicKey;
    expectRefused(
      chain,
      [vault.stageWithdrawalsInstruction(100n * SHARES_PER_USDC, { queueHoles: impostor })],
      [vault.manager],
      "InvalidAccount",
    );
    expectSuccess(vault.stageWithdrawals(50n * SHARES_PER_USDC)); // funds half the head; no list yet
    expect(vault.state().queueHolesBump).toBe(findQueueHolesAndBump(vault.key).bump);
    // With the bump known, a missing list is checked by one derivation: an impostor is still refused.
    expectRefused(
      chain,
      [vault.cancelWithdrawalInstruction(head, { queueHoles: impostor })],
      [head.keypair],
      "InvalidAccount",
    );
    expectRefused(
      chain,
      [vault.stageWithdrawalsInstruction(100n * SHARES_PER_USDC, { queueHoles: impostor })],
      [vault.manager],
      "InvalidAccount",
    );
    // The real address: the unfunded middle request becomes a hole and the list is created there.
    expectSuccess(vault.cancelWithdrawal(middle));
    expect(vault.queueHolesPayer().equals(middle.publicKey)).toBe(true);
  });
});
