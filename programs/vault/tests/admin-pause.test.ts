// Issue 28 item 1, the admin's part, against the built program: a pause by the manager alone ends by
// itself after 7 days; holding it longer takes the protocol's admin (set_admin_pause), whose pause the
// manager cannot lift, which lasts at most 30 days from when it is set, and which the admin lifts at
// once. Meanwhile requests are refused (VaultPaused) and funded claims still pay.
import { describe, expect, it } from "vitest";

import { TestChain } from "./harness";
import { expectRefused, expectSuccess } from "./expectations";
import { TestVault } from "./vault-fixture";
import { decodeVaultEvents } from "../../../lib/vault/program/events";

const USDC = 1_000_000n;
const DAY = 86_400n;
const ALL = 1_000_000_000_000n;

/** A USDC vault (10 bps fee) with two holders of 1,000 USDC each (10^12 shares each). */
function twoHolders() {
  const chain = TestChain.create();
  const { vault } = TestVault.create(chain, { feeBps: 10 });
  const alice = vault.addMember(1_000n * USDC);
  const bob = vault.addMember(1_000n * USDC);
  expectSuccess(vault.deposit(alice, 1_000n * USDC));
  expectSuccess(vault.deposit(bob, 1_000n * USDC));
  return { chain, vault, alice, bob };
}

describe("set_admin_pause", () => {
  it("holds the manager's 7-day pause to day 20; the manager cannot lift it; funded claims still pay", () => {
    const { chain, vault, alice, bob } = twoHolders();
    // Bob's request is funded before the pause: his claim is his money whatever happens next.
    expectSuccess(vault.requestWithdrawal(bob, ALL));
    chain.warpBy(60n);
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(ALL));

    expectSuccess(vault.updateConfig({ paused: true }));
    const pausedAt = chain.now();
    expect(vault.state()).toMatchObject({
      paused: true,
      pauseUntil: pausedAt + 7n * DAY,
      adminPaused: false,
    });

    // Day 1: the admin holds it to day 20. More than 30 days ahead is refused; so is anyone but the admin.
    chain.warpTo(pausedAt + DAY);
    expectRefused(
      chain,
      [vault.setAdminPauseInstruction(chain.now() + 30n * DAY + 1n)],
      [vault.protocol.admin],
      "InvalidConfig",
    );
    expectRefused(
      chain,
      [vault.setAdminPauseInstruction(pausedAt + 20n * DAY, vault.manager.publicKey)],
      [vault.manager],
      "Unauthorized",
    );
    const held = expectSuccess(vault.setAdminPause(pausedAt + 20n * DAY));
    expect(decodeVaultEvents(held.logs)).toMatchObject([
      { name: "ConfigUpdated", data: { paused: true, pauseUntil: pausedAt + 20n * DAY, adminPaused: true } },
    ]);

    // Days 2–19: the manager strikes (it is not silent), cannot lift the pause, and requests are refused.
    for (let day = 2n; day < 20n; day += 1n) {
      chain.warpTo(pausedAt + day * DAY);
      expectSuccess(vault.updateNav(0n, 0n));
      expectRefused(
        chain,
        [vault.updateConfigInstruction({ paused: false })],
        [vault.manager],
        "Unauthorized",
      );
      expectRefused(chain, [vault.requestWithdrawalInstruction(alice, ALL)], [alice.keypair], "VaultPaused");
    }
    // Day 19, well past the manager's own 7 days: Bob's funded claim pays 999 of 1,000 USDC.
    expect(vault.state().pauseUntil).toBe(pausedAt + 20n * DAY);
    expectSuccess(vault.claimWithdrawal(bob));
    expect(chain.tokenBalance(bob.assetAccount)).toBe(999n * USDC);

    chain.warpTo(pausedAt + 20n * DAY - 1n);
    expectRefused(chain, [vault.requestWithdrawalInstruction(alice, ALL)], [alice.keypair], "VaultPaused");
    // Day 20: the admin's pause ends by itself; the manager's cooldown counts from there (7 days).
    chain.warpTo(pausedAt + 20n * DAY);
    expectSuccess(vault.requestWithdrawal(alice, 1_000_000_000n));
    expectRefused(chain, [vault.updateConfigInstruction({ paused: true })], [vault.manager], "PauseCooldown");
    chain.warpTo(pausedAt + 27n * DAY);
    expectSuccess(vault.updateConfig({ paused: true }));
    expect(vault.state()).toMatchObject({
      paused: true,
      pauseUntil: pausedAt + 34n * DAY,
      adminPaused: false,
    });
  });

  it("without the admin the manager's pause ends after 7 days", () => {
    const { chain, vault, alice } = twoHolders();
    expectSuccess(vault.updateConfig({ paused: true }));
    const pausedAt = chain.now();
    chain.warpTo(pausedAt + 7n * DAY - 1n);
    expectRefused(chain, [vault.requestWithdrawalInstruction(alice, ALL)], [alice.keypair], "VaultPaused");
    chain.warpTo(pausedAt + 7n * DAY);
    expectSuccess(vault.requestWithdrawal(alice, ALL));
  });

  it("is lifted by the admin at once (until 0), and lifting nothing changes nothing", () => {
    const { chain, vault, alice } = twoHolders();
    expectSuccess(vault.setAdminPause(chain.now() + 30n * DAY));
    chain.warpBy(5n * DAY);
    expectRefused(chain, [vault.requestWithdrawalInstruction(alice, ALL)], [alice.keypair], "VaultPaused");
    const lifted = expectSuccess(vault.setAdminPause(0n));
    const liftedAt = chain.now();
    expect(vault.state()).toMatchObject({ paused: false, pauseUntil: liftedAt, adminPaused: false });
    expect(decodeVaultEvents(lifted.logs)).toMatchObject([
      { name: "ConfigUpdated", data: { paused: false, pauseUntil: liftedAt, adminPaused: false } },
    ]);
    expectSuccess(vault.requestWithdrawal(alice, ALL));
    chain.warpBy(60n);
    expectSuccess(vault.setAdminPause(0n));
    expect(vault.state()).toMatchObject({ paused: false, pauseUntil: liftedAt });
  });

  it("keeps the silence hatch: after 7 days without a strike holders may request through the admin's pause", () => {
    const { chain, vault, alice } = twoHolders();
    const struckAt = vault.state().navUpdatedAt;
    expectSuccess(vault.setAdminPause(chain.now() + 30n * DAY));
    chain.warpTo(struckAt + 7n * DAY - 1n);
    expectRefused(chain, [vault.requestWithdrawalInstruction(alice, ALL)], [alice.keypair], "VaultPaused");
    chain.warpTo(struckAt + 7n * DAY);
    expectSuccess(vault.requestWithdrawal(alice, ALL));
    // Deposits stay refused.
    expectRefused(chain, [vault.depositInstruction(alice, USDC)], [alice.keypair], "VaultPaused");
  });
});
