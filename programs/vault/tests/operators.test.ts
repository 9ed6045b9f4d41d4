// Issue 21's attacks by a stolen manager key, written with their numbers against the built program: a
// fee raised just before a request, funded exits locked by a pause, a minimum withdrawal that refuses
// every request, and NAV pumped by many in-bound strikes.
import { describe, expect, it } from "vitest";

import { TestChain } from "./harness";
import { expectRefused, expectSuccess } from "./expectations";
import { U64_MAX } from "./model";
import { DEFAULT_VAULT_SETTINGS, TestVault } from "./vault-fixture";

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
    // holder received 900 of 1,000 USDC.
    expectSuccess(vault.updateConfig({ feeBps: 1_000 }));
    expectRefused(chain, [signed], [holder.keypair], "FeeAboveMaximum");
    expect(chain.tokenBalance(holder.shareAccount)).toBe(shares);
    expect(vault.receiptOf(holder)).toBeNull();

    // Back at 10 bps the same request goes through and pays 999 USDC (fee ceil(10^9 × 10 / 10^4) = 10^6).
    expectSuccess(vault.updateConfig({ feeBps: 10 }));
    expectSuccess(chain.send([vault.requestWithdrawalInstruction(holder, shares, {}, 10)], [holder.keypair]));
    expect(vault.receiptFeeOf(holder)).toBe(10);
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(shares));
    expectSuccess(vault.claimWithdrawal(holder));
    expect(chain.tokenBalance(holder.assetAccount)).toBe(999_000_000n);
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
    expect(vault.state().minWithdrawalShares).toBe(1_000_000_000_000n);
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
