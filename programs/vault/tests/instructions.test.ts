// Each instruction's happy path with the exact state after it, every custom error the IDL defines,
// the withdrawal-cap windows, the claim order and the fee arithmetic, per programs/vault/README.md.
import { Keypair, PublicKey, type TransactionInstruction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { VAULT_ERRORS } from "../../../lib/vault/program/program-errors";
import { decodeVaultEvents, type VaultEvent } from "../../../lib/vault/program/events";
import { VAULT_PROGRAM_ID } from "../../../lib/vault/program/idl";
import { buildApplyConfigInstruction } from "../../../lib/vault/program/instructions";
import { ASSET_DECIMALS, DEFAULT_START_TIME, TestChain, type TransactionOutcome } from "./harness";
import { expectRefused, expectSuccess } from "./expectations";
import { decodeMint, decodeTokenAccount, TOKEN_PROGRAM_ID } from "../../../lib/chain/spl-token";
import { U64_MAX, valueOfShares } from "./model";
import { decodeProgramEvents } from "./program-client";
import {
  DEFAULT_VAULT_SETTINGS,
  TestProtocol,
  TestVault,
  type Member,
  type VaultSettings,
} from "./vault-fixture";

const HOUR = 3600n;
const DAY = 86_400n;
/** DEFAULT_START_TIME is ten minutes into 2026-01-01 UTC. */
const DAY_START = DEFAULT_START_TIME - (DEFAULT_START_TIME % DAY);

function setup(settings: Partial<VaultSettings> = {}, memberAssets: bigint[] = [1_000_000n, 1_000_000n]) {
  const chain = TestChain.create();
  const { vault } = TestVault.create(chain, settings);
  const members = memberAssets.map((assets) => vault.addMember(assets));
  return { chain, vault, members };
}

function memberAt(members: Member[], index: number): Member {
  const member = members[index];
  if (member === undefined) {
    throw new Error(`No member ${index}`);
  }
  return member;
}

function onlyEvent(outcome: TransactionOutcome): VaultEvent {
  const events = decodeVaultEvents(outcome.logs);
  expect(events).toHaveLength(1);
  const [event] = events;
  if (event === undefined) {
    throw new Error("No event");
  }
  return event;
}

function bump(seeds: Uint8Array[]): number {
  return PublicKey.findProgramAddressSync(seeds, VAULT_PROGRAM_ID)[1];
}

describe("initialize_vault", () => {
  it("creates the vault, its share mint, reserve and escrow with the given settings", () => {
    const chain = TestChain.create();
    const settings = { name: "USDC core", feeBps: 25, minWithdrawalShares: 10n, hourlyCap: 7n, dailyCap: 9n };
    const { vault, outcome } = TestVault.create(chain, settings);
    const { authority, shareMint, reserve, escrow } = vault.addresses;
    const manager = vault.manager.publicKey;
    const protocol = vault.protocol.key;
    const index = new Uint8Array(8);

    expect(vault.state()).toEqual({
      protocol,
      manager,
      pendingManager: PublicKey.default,
      assetMint: chain.assetMint,
      shareMint,
      reserve,
      escrow,
      authority,
      index: 0n,
      bump: bump([Buffer.from("vault"), protocol.toBytes(), index]),
      authorityBump: bump([Buffer.from("authority"), vault.key.toBytes()]),
      shareMintBump: bump([Buffer.from("shares"), vault.key.toBytes()]),
      reserveBump: bump([Buffer.from("reserve"), vault.key.toBytes()]),
      escrowBump: bump([Buffer.from("escrow"), vault.key.toBytes()]),
      assetDecimals: ASSET_DECIMALS,
      shareDecimals: ASSET_DECIMALS + 3,
      paused: false,
      name: "USDC core",
      totalAssets: 0n,
      totalShares: 0n,
      navSequence: 0n,
      navUpdatedAt: DEFAULT_START_TIME,
      feeBps: 25,
      minWithdrawalShares: 10n,
      hourlyCap: 7n,
      dailyCap: 9n,
      hourlyWindowStart: DAY_START,
      hourlyUsed: 0n,
      dailyWindowStart: DAY_START,
      dailyUsed: 0n,
      queueTail: 0n,
      queueFunded: 0n,
      queueClaimed: 0n,
      nextRequestId: 0n,
      pendingRequests: 0n,
      surplusAssets: 0n,
      pendingFeeBps: 0,
      pendingMinWithdrawalShares: 0n,
      pendingHourlyCap: 0n,
      pendingDailyCap: 0n,
      pendingEffectiveAt: 0n,
      configNoticeSeconds: 259_200,
      silenceSeconds: 604_800,
      stagedAt: 0n,
      pauseUntil: 0n,
      maxPauseSeconds: 604_800,
      adminPaused: false,
    });
    expect(vault.registration()).toEqual({
      protocol,
      pendingManager: PublicKey.default,
      shareDecimals: ASSET_DECIMALS + 3,
      surplusAssets: 0n,
    });
    expect(vault.protocol.state().vaultCount).toBe(1n);
    expect(chain.readAccount(vault.key)?.owner.equals(VAULT_PROGRAM_ID)).toBe(true);

    const mintAccount = chain.readAccount(shareMint);
    expect(mintAccount?.owner.equals(TOKEN_PROGRAM_ID)).toBe(true);
    expect(mintAccount && decodeMint(mintAccount.owner, mintAccount.data)).toMatchObject({
      mintAuthority: authority,
      supply: 0n,
      decimals: ASSET_DECIMALS + 3,
      freezeAuthority: null,
    });
    for (const [account, mint] of [
      [reserve, chain.assetMint],
      [escrow, shareMint],
    ] as const) {
      const raw = chain.readAccount(account);
      expect(raw && decodeTokenAccount(raw.owner, raw.data)).toMatchObject({
        mint,
        owner: authority,
        amount: 0n,
      });
    }
    expect(decodeProgramEvents(outcome.logs)).toEqual([
      {
        name: "VaultInitialized",
        data: {
          vault: vault.key,
          protocol,
          manager,
          asset_mint: chain.assetMint,
          share_mint: shareMint,
          index: 0n,
          share_decimals: ASSET_DECIMALS + 3,
          timestamp: DEFAULT_START_TIME,
        },
      },
    ]);
  });

  it.each(["simd-0194", "classic"] as const)(
    "creates its accounts rent-exempt under the %s encoding of the rent sysvar",
    (rentEncoding) => {
      const chain = TestChain.create({ rentEncoding });
      const { vault } = TestVault.create(chain);
      expect(chain.lamportsOf(vault.key)).toBe(chain.rentExemptBalance(514));
      expect(chain.lamportsOf(vault.addresses.reserve)).toBe(chain.rentExemptBalance(165));
    },
  );

  it("funds every account it creates at exactly the rent-exempt minimum", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain);
    const { shareMint, reserve, escrow } = vault.addresses;
    expect(chain.lamportsOf(vault.key)).toBe(chain.rentExemptBalance(514));
    expect(chain.lamportsOf(shareMint)).toBe(chain.rentExemptBalance(82));
    expect(chain.lamportsOf(reserve)).toBe(chain.rentExemptBalance(165));
    expect(chain.lamportsOf(escrow)).toBe(chain.rentExemptBalance(165));
  });
});

describe("deposit", () => {
  it("mints 10^3 shares per asset unit into an empty vault (the decimals offset)", () => {
    const { chain, vault, members } = setup();
    const alice = memberAt(members, 0);
    const before = vault.state();
    // floor(1_000_000 × (0 + 1_000) / (0 + 1))
    const outcome = expectSuccess(vault.deposit(alice, 1_000_000n, 1_000_000_000n));

    expect(vault.state()).toEqual({ ...before, totalAssets: 1_000_000n, totalShares: 1_000_000_000n });
    expect(chain.tokenBalance(alice.assetAccount)).toBe(0n);
    expect(chain.tokenBalance(alice.shareAccount)).toBe(1_000_000_000n);
    expect(vault.reserveBalance()).toBe(1_000_000n);
    expect(vault.shareSupply()).toBe(1_000_000_000n);
    expect(onlyEvent(outcome)).toEqual({
      name: "Deposited",
      data: {
        vault: vault.key,
        owner: alice.publicKey,
        assets: 1_000_000n,
        shares: 1_000_000_000n,
        totalAssets: 1_000_000n,
        totalShares: 1_000_000_000n,
        hourlyUsed: 0n,
        dailyUsed: 0n,
        timestamp: DEFAULT_START_TIME,
      },
    });
  });

  it("mints floor(amount × (total_shares + 10^3) / (total_assets + 1)) once the NAV has moved", () => {
    const { chain, vault, members } = setup();
    const [alice, bob] = [memberAt(members, 0), memberAt(members, 1)];
    expectSuccess(vault.deposit(alice, 1_000_000n));
    // +50%: days of strikes at the ceiling rate, as the program allows no faster.
    vault.moveNavTo(1_500_000n);
    const before = vault.state();
    // 299_999 × 1_000_001_000 / 1_500_001 = 199_999_399.6…, rounded down.
    expectSuccess(vault.deposit(bob, 299_999n, 199_999_399n));

    // The deposit also rolls the cap windows to this hour and day (the strikes took days).
    expect(vault.state()).toMatchObject({
      ...before,
      totalAssets: 1_799_999n,
      totalShares: 1_199_999_399n,
      hourlyWindowStart: chain.now() - (chain.now() % 3_600n),
      dailyWindowStart: chain.now() - (chain.now() % 86_400n),
    });
    expect(chain.tokenBalance(bob.shareAccount)).toBe(199_999_399n);
    expect(chain.tokenBalance(bob.assetAccount)).toBe(700_001n);
    expect(vault.reserveBalance()).toBe(1_299_999n);
    expect(vault.shareSupply()).toBe(1_199_999_399n);
  });
});

describe("request_withdrawal", () => {
  it("escrows the shares, opens the receipt, extends the queue and charges the windows", () => {
    const { chain, vault, members } = setup({ hourlyCap: 1_000_000n, dailyCap: 2_000_000n });
    const [alice, bob] = [memberAt(members, 0), memberAt(members, 1)];
    expectSuccess(vault.deposit(alice, 1_000_000n));
    expectSuccess(vault.deposit(bob, 500_000n));
    vault.moveNavTo(1_800_000n);
    chain.warpBy(60n);
    const now = chain.now();
    expectSuccess(vault.requestWithdrawal(bob, 100_000_000n));
    const before = vault.state();
    const lamportsBefore = chain.lamportsOf(alice.publicKey);
    // value(400_000_000) = floor(400_000_000 × 1_800_001 / 1_500_001_000) = 479_999
    const outcome = expectSuccess(vault.requestWithdrawal(alice, 400_000_000n));

    expect(vault.state()).toEqual({
      ...before,
      hourlyUsed: before.hourlyUsed + 479_999n,
      dailyUsed: before.dailyUsed + 479_999n,
      queueTail: 500_000_000n,
      nextRequestId: before.nextRequestId + 1n,
      pendingRequests: 2n,
    });
    expect(vault.receiptOf(alice)).toEqual({
      vault: vault.key,
      owner: alice.publicKey,
      shares: 400_000_000n,
      assetsAtRequest: 479_999n,
      navFloor: before.navSequence,
      requestId: before.nextRequestId,
      requestedAt: now,
      queueStart: 100_000_000n,
      queueEnd: 500_000_000n,
      feeBps: 0,
      bump: bump([Buffer.from("receipt"), vault.key.toBytes(), alice.publicKey.toBytes()]),
      // Bob's 100,000,000 and Alice's other 600,000,000 shares are not queued: not the last exit.
      lastHolderExit: false,
    });
    expect(vault.receiptFeeOf(alice)).toBe(0);
    expect(chain.readAccount(alice.receipt)?.owner.equals(VAULT_PROGRAM_ID)).toBe(true);
    expect(chain.lamportsOf(alice.publicKey)).toBe(lamportsBefore - chain.rentExemptBalance(132));
    expect(chain.tokenBalance(alice.shareAccount)).toBe(600_000_000n);
    expect(vault.escrowBalance()).toBe(500_000_000n);
    expect(vault.shareSupply()).toBe(1_500_000_000n);
    expect(onlyEvent(outcome)).toMatchObject({
      name: "WithdrawalRequested",
      data: {
        vault: vault.key,
        owner: alice.publicKey,
        requestId: before.nextRequestId,
        shares: 400_000_000n,
        assets: 479_999n,
        navFloor: before.navSequence,
        queueStart: 100_000_000n,
        queueEnd: 500_000_000n,
        hourlyUsed: before.hourlyUsed + 479_999n,
        dailyUsed: before.dailyUsed + 479_999n,
        timestamp: now,
      },
    });
  });
});

describe("update_nav", () => {
  it("moves total assets by gain − loss, advances the sequence and stamps the time", () => {
    const { chain, vault, members } = setup();
    expectSuccess(vault.deposit(memberAt(members, 0), 1_000_000n));
    // A day since the vault was created: up to floor(10^6 × 10_000 × 86_400 / (10^4 × 365 days)) = 2_739
    // up and floor(10^6 × 1_000 × 86_400 / (10^4 × 86_400)) = 100_000 down.
    chain.warpBy(86_400n);
    const before = vault.state();
    const outcome = expectSuccess(vault.updateNav(2_739n, 20_000n));

    expect(vault.state()).toEqual({
      ...before,
      totalAssets: 982_739n,
      navSequence: 1n,
      navUpdatedAt: chain.now(),
    });
    // A gain is notional: no tokens move.
    expect(vault.reserveBalance()).toBe(1_000_000n);
    expect(onlyEvent(outcome)).toEqual({
      name: "NavUpdated",
      data: {
        vault: vault.key,
        navSequence: 1n,
        gain: 2_739n,
        loss: 20_000n,
        previousTotalAssets: 1_000_000n,
        totalAssets: 982_739n,
        totalShares: 1_000_000_000n,
        timestamp: chain.now(),
      },
    });
  });
});

describe("stage_withdrawals", () => {
  it("funds at most max_shares of the queue", () => {
    const { vault, members } = setup();
    const alice = memberAt(members, 0);
    expectSuccess(vault.deposit(alice, 1_000_000n));
    expectSuccess(vault.requestWithdrawal(alice, 300_000_000n));
    const before = vault.state();
    const outcome = expectSuccess(vault.stageWithdrawals(120_000_000n));

    expect(vault.state()).toEqual({ ...before, queueFunded: 120_000_000n, stagedAt: vault.chain.now() });
    expect(onlyEvent(outcome)).toMatchObject({
      name: "WithdrawalsStaged",
      data: {
        vault: vault.key,
        stagedShares: 120_000_000n,
        queueFunded: 120_000_000n,
        queueTail: 300_000_000n,
      },
    });
    expectSuccess(vault.stageWithdrawals(1_000_000_000n));
    expect(vault.state().queueFunded).toBe(300_000_000n);
  });

  it("funds only what idle reserve assets cover, after the liabilities already staged", () => {
    const { vault, members } = setup();
    const alice = memberAt(members, 0);
    expectSuccess(vault.deposit(alice, 1_000_000n));
    expectSuccess(vault.requestWithdrawal(alice, 1_000_000_000n));
    // Total assets double on paper while the reserve still holds 1_000_000 (253 days of strikes).
    vault.moveNavTo(2_000_000n);
    // liabilities 0, idle 1_000_000,
    // affordable = floor(1_000_000 × 1_000_001_000 / 2_000_001) = 500_000_249
    expectSuccess(vault.stageWithdrawals(900_000_000n));
    expect(vault.state().queueFunded).toBe(500_000_249n);
    // liabilities = ceil(500_000_249 × 2_000_001 / 1_000_001_000) = 1_000_000: nothing idle is left.
    expectRefused(
      vault.chain,
      [vault.stageWithdrawalsInstruction(1n)],
      [vault.manager],
      "InsufficientLiquidity",
    );
  });

  it("succeeds without any change when nothing is queued", () => {
    const { chain, vault, members } = setup();
    expectSuccess(vault.deposit(memberAt(members, 0), 1_000_000n));
    const before = chain.readAccount(vault.key);
    const outcome = expectSuccess(vault.stageWithdrawals(5n));
    expect(chain.readAccount(vault.key)).toEqual(before);
    expect(decodeVaultEvents(outcome.logs)).toEqual([]);
  });
});

describe("claim_withdrawal", () => {
  it("burns the escrowed shares, pays gross − ceil(fee), keeps the fee in the vault and closes the receipt", () => {
    const { chain, vault, members } = setup({ feeBps: 30 });
    const alice = memberAt(members, 0);
    expectSuccess(vault.deposit(alice, 1_000_000n));
    vault.moveNavTo(1_333_333n);
    expectSuccess(vault.requestWithdrawal(alice, 250_000_000n));
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(250_000_000n));
    const before = vault.state();
    const receipt = vault.receiptOf(alice);
    const receiptRent = chain.lamportsOf(alice.receipt);
    const lamportsBefore = chain.lamportsOf(alice.publicKey);
    const outcome = expectSuccess(vault.claimWithdrawal(alice));

    // gross = floor(250_000_000 × 1_333_334 / 1_000_001_000) = 333_333
    // fee = ceil(333_333 × 30 / 10_000) = ceil(999.9999) = 1_000; net = 332_333
    expect(vault.state()).toEqual({
      ...before,
      totalAssets: 1_333_333n - 332_333n,
      totalShares: 750_000_000n,
      queueClaimed: 250_000_000n,
      pendingRequests: 0n,
    });
    expect(chain.tokenBalance(alice.assetAccount)).toBe(332_333n);
    expect(vault.reserveBalance()).toBe(1_000_000n - 332_333n);
    expect(vault.escrowBalance()).toBe(0n);
    expect(vault.shareSupply()).toBe(750_000_000n);
    expect(chain.readAccount(alice.receipt)).toBeNull();
    expect(chain.lamportsOf(alice.publicKey)).toBe(lamportsBefore + receiptRent);
    expect(onlyEvent(outcome)).toEqual({
      name: "WithdrawalClaimed",
      data: {
        vault: vault.key,
        owner: alice.publicKey,
        requestId: receipt?.requestId,
        shares: 250_000_000n,
        gross: 333_333n,
        fee: 1_000n,
        net: 332_333n,
        totalAssets: 1_001_000n,
        totalShares: 750_000_000n,
        timestamp: chain.now(),
      },
    });
  });

  it("charges no fee when gross × fee_bps divides evenly and fee_bps is 0", () => {
    const { chain, vault, members } = setup({ feeBps: 0 });
    const alice = memberAt(members, 0);
    expectSuccess(vault.deposit(alice, 1_000n));
    expectSuccess(vault.requestWithdrawal(alice, 1_000_000n));
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(1_000_000n));
    expectSuccess(vault.claimWithdrawal(alice));
    // gross = floor(1_000_000 × 1_001 / 1_001_000) = 1_000: nothing is left to the surplus.
    expect(chain.tokenBalance(alice.assetAccount)).toBe(1_000_000n);
    expect(vault.state()).toMatchObject({ totalAssets: 0n, totalShares: 0n });
    expect(vault.registration().surplusAssets).toBe(0n);
  });

  it("lets the wallet request again once its receipt is closed", () => {
    const { vault, members } = setup();
    const alice = memberAt(members, 0);
    expectSuccess(vault.deposit(alice, 1_000n));
    expectSuccess(vault.requestWithdrawal(alice, 400_000n));
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(400_000n));
    expectSuccess(vault.claimWithdrawal(alice));
    expectSuccess(vault.requestWithdrawal(alice, 600_000n));
    expect(vault.receiptOf(alice)).toMatchObject({
      shares: 600_000n,
      queueStart: 400_000n,
      queueEnd: 1_000_000n,
    });
  });
});

describe("update_config", () => {
  it("applies easing fields, the pause and the name at once and schedules the fields that hurt holders", () => {
    const { vault } = setup({ feeBps: 5, minWithdrawalShares: 3n, hourlyCap: 100n, dailyCap: 200n });
    const chain = vault.chain;
    const before = vault.state();
    // Removing the hourly cap hurts holders (a big exit could drain the reserve first): it waits.
    const outcome = expectSuccess(vault.updateConfig({ hourlyCap: 0n, paused: true, name: "Renamed" }));
    const effectiveAt = chain.now() + 259_200n;
    expect(vault.state()).toEqual({
      ...before,
      paused: true,
      pauseUntil: chain.now() + 604_800n,
      name: "Renamed",
      pendingFeeBps: 5,
      pendingMinWithdrawalShares: 3n,
      pendingHourlyCap: 0n,
      pendingDailyCap: 200n,
      pendingEffectiveAt: effectiveAt,
    });
    expect(decodeVaultEvents(outcome.logs)).toEqual([
      {
        name: "ConfigUpdated",
        data: {
          vault: vault.key,
          feeBps: 5,
          minWithdrawalShares: 3n,
          hourlyCap: 100n,
          dailyCap: 200n,
          paused: true,
          pauseUntil: chain.now() + 604_800n,
          adminPaused: false,
          name: "Renamed",
          timestamp: chain.now(),
        },
      },
      {
        name: "ConfigScheduled",
        data: {
          vault: vault.key,
          feeBps: 5,
          minWithdrawalShares: 3n,
          hourlyCap: 0n,
          dailyCap: 200n,
          effectiveAt,
          timestamp: chain.now(),
        },
      },
    ]);
    // Mixed: the lower minimum applies now; the 1,000 bps fee and the higher daily cap are scheduled
    // and replace the pending cap removal (which is no longer pending).
    chain.warpBy(60n);
    expectSuccess(
      vault.updateConfig({ feeBps: 1000, minWithdrawalShares: 0n, dailyCap: 300n, name: "x".repeat(32) }),
    );
    expect(vault.state()).toMatchObject({
      feeBps: 5,
      minWithdrawalShares: 0n,
      hourlyCap: 100n,
      dailyCap: 200n,
      name: "x".repeat(32),
      pendingFeeBps: 1000,
      pendingDailyCap: 300n,
      pendingHourlyCap: 100n,
      pendingEffectiveAt: chain.now() + 259_200n,
    });
    // One second before its time nothing applies; at its time anyone applies it.
    chain.warpBy(259_199n);
    expectRefused(chain, [buildApplyConfigInstruction({ vault: vault.key })], [], "NoConfigDue");
    chain.warpBy(1n);
    const applied = expectSuccess(vault.applyConfig());
    expect(vault.state()).toMatchObject({
      feeBps: 1000,
      hourlyCap: 100n,
      dailyCap: 300n,
      pendingEffectiveAt: 0n,
    });
    expect(onlyEvent(applied)).toMatchObject({ name: "ConfigUpdated", data: { feeBps: 1000 } });
  });

  it("waits the notice the protocol's admin set for the vault, within 1 to 30 days", () => {
    const { chain, vault } = setup({ feeBps: 5 });
    for (const configNoticeSeconds of [86_399, 2_592_001]) {
      expectRefused(
        chain,
        [vault.setVaultPeriodsInstruction({ configNoticeSeconds, silenceSeconds: 604_800 })],
        [vault.protocol.admin],
        "InvalidConfig",
      );
    }
    expectRefused(
      chain,
      [
        vault.setVaultPeriodsInstruction(
          { configNoticeSeconds: 86_400, silenceSeconds: 604_800 },
          vault.manager.publicKey,
        ),
      ],
      [vault.manager],
      "Unauthorized",
    );
    const outcome = expectSuccess(
      vault.setVaultPeriods({ configNoticeSeconds: 86_400, silenceSeconds: 1_209_600 }),
    );
    expect(onlyEvent(outcome)).toEqual({
      name: "VaultPeriodsUpdated",
      data: {
        vault: vault.key,
        configNoticeSeconds: 86_400,
        silenceSeconds: 1_209_600,
        timestamp: chain.now(),
      },
    });
    expectSuccess(vault.updateConfig({ feeBps: 6 }));
    expect(vault.state().pendingEffectiveAt).toBe(chain.now() + 86_400n);
  });
});

interface RefusalScenario {
  chain: TestChain;
  instructions: TransactionInstruction[];
  signers: Keypair[];
}

/** One scenario per IDL error: a transaction the program must refuse with exactly that error. */
const refusalScenarios: Record<string, () => RefusalScenario> = {
  CapBelowFloor: () => {
    // NAV 1,000,000: a daily cap below 1% of it (10,000) would hold every exit for over 100 days.
    const { chain, vault, members } = setup();
    expectSuccess(vault.deposit(memberAt(members, 0), 1_000_000n));
    return {
      chain,
      instructions: [vault.updateConfigInstruction({ dailyCap: 9_999n })],
      signers: [vault.manager],
    };
  },
  PauseCooldown: () => {
    const { chain, vault } = setup();
    expectSuccess(vault.updateConfig({ paused: true }));
    expectSuccess(vault.updateConfig({ paused: false }));
    return {
      chain,
      instructions: [vault.updateConfigInstruction({ paused: true })],
      signers: [vault.manager],
    };
  },
  NoConfigDue: () => {
    const { chain, vault } = setup({ feeBps: 5 });
    expectSuccess(vault.updateConfig({ feeBps: 50 }));
    return { chain, instructions: [buildApplyConfigInstruction({ vault: vault.key })], signers: [] };
  },
  Unauthorized: () => {
    const { chain, vault, members } = setup();
    const mallory = memberAt(members, 1);
    return {
      chain,
      instructions: [vault.updateNavInstruction(1n, 0n, { manager: mallory.publicKey })],
      signers: [mallory.keypair],
    };
  },
  InvalidAmount: () => {
    const { chain, vault, members } = setup();
    const alice = memberAt(members, 0);
    return { chain, instructions: [vault.depositInstruction(alice, 0n)], signers: [alice.keypair] };
  },
  VaultPaused: () => {
    const { chain, vault, members } = setup();
    const alice = memberAt(members, 0);
    expectSuccess(vault.updateConfig({ paused: true }));
    return { chain, instructions: [vault.depositInstruction(alice, 10n)], signers: [alice.keypair] };
  },
  MathOverflow: () => {
    // floor(amount × 10^3) shares into an empty vault exceed u64 for amount > u64::MAX / 10^3.
    const { chain, vault, members } = setup({}, [U64_MAX / 1_000n + 1n]);
    const alice = memberAt(members, 0);
    return {
      chain,
      instructions: [vault.depositInstruction(alice, U64_MAX / 1_000n + 1n)],
      signers: [alice.keypair],
    };
  },
  InvalidMint: () => {
    const { chain, vault, members } = setup();
    const alice = memberAt(members, 0);
    const otherMint = chain.createMint(ASSET_DECIMALS, chain.mintAuthority.publicKey);
    const otherAsset = chain.createTokenAccount(alice.publicKey, otherMint);
    return {
      chain,
      instructions: [vault.depositInstruction(alice, 10n, 0n, { depositorAsset: otherAsset })],
      signers: [alice.keypair],
    };
  },
  InvalidTokenOwner: () => {
    const { chain, vault, members } = setup();
    const [alice, bob] = [memberAt(members, 0), memberAt(members, 1)];
    return {
      chain,
      instructions: [vault.depositInstruction(alice, 10n, 0n, { depositorAsset: bob.assetAccount })],
      signers: [alice.keypair],
    };
  },
  InvalidAccount: () => {
    const { chain, vault, members } = setup();
    const alice = memberAt(members, 0);
    const fakeReserve = chain.createTokenAccount(vault.addresses.authority, chain.assetMint);
    return {
      chain,
      instructions: [vault.depositInstruction(alice, 10n, 0n, { reserve: fakeReserve })],
      signers: [alice.keypair],
    };
  },
  InvalidAccountOwner: () => {
    const { chain, vault } = setup();
    const real = chain.readAccount(vault.key);
    if (real === null) throw new Error("No vault");
    const impostor = Keypair.generate().publicKey;
    chain.writeAccount({ ...real, address: impostor, owner: Keypair.generate().publicKey });
    return {
      chain,
      instructions: [vault.updateNavInstruction(1n, 0n, { vault: impostor })],
      signers: [vault.manager],
    };
  },
  InvalidAccountData: () => {
    const { chain, vault } = setup();
    const real = chain.readAccount(vault.key);
    if (real === null) throw new Error("No vault");
    chain.writeAccount({ ...real, data: Uint8Array.from([...real.data, 0]) });
    return { chain, instructions: [vault.updateNavInstruction(1n, 0n)], signers: [vault.manager] };
  },
  MissingSigner: () => {
    const { chain, vault } = setup();
    const instruction = vault.updateNavInstruction(1n, 0n);
    instruction.keys = instruction.keys.map((meta) =>
      meta.pubkey.equals(vault.manager.publicKey) ? { ...meta, isSigner: false } : meta,
    );
    return { chain, instructions: [instruction], signers: [] };
  },
  AccountNotWritable: () => {
    const { chain, vault, members } = setup();
    const alice = memberAt(members, 0);
    const instruction = vault.depositInstruction(alice, 10n);
    instruction.keys = instruction.keys.map((meta) =>
      meta.pubkey.equals(vault.key) ? { ...meta, isWritable: false } : meta,
    );
    return { chain, instructions: [instruction], signers: [alice.keypair] };
  },
  AlreadyInitialized: () => {
    const { chain, vault } = setup();
    return {
      chain,
      instructions: [vault.initializeInstruction(DEFAULT_VAULT_SETTINGS)],
      signers: [vault.protocol.admin],
    };
  },
  WithdrawalAlreadyPending: () => {
    const { chain, vault, members } = setup();
    const alice = memberAt(members, 0);
    expectSuccess(vault.deposit(alice, 100n));
    expectSuccess(vault.requestWithdrawal(alice, 10n));
    return {
      chain,
      instructions: [vault.requestWithdrawalInstruction(alice, 10n)],
      signers: [alice.keypair],
    };
  },
  NoPendingWithdrawal: () => {
    const { chain, vault, members } = setup();
    const alice = memberAt(members, 0);
    expectSuccess(vault.deposit(alice, 100n));
    return { chain, instructions: [vault.claimWithdrawalInstruction(alice)], signers: [alice.keypair] };
  },
  NavFloorNotPassed: () => {
    const { chain, vault, members } = setup();
    const alice = memberAt(members, 0);
    expectSuccess(vault.deposit(alice, 100n));
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.requestWithdrawal(alice, 10n));
    expectSuccess(vault.stageWithdrawals(10n));
    return { chain, instructions: [vault.claimWithdrawalInstruction(alice)], signers: [alice.keypair] };
  },
  QueueNotFunded: () => {
    const { chain, vault, members } = setup();
    const alice = memberAt(members, 0);
    expectSuccess(vault.deposit(alice, 100n));
    expectSuccess(vault.requestWithdrawal(alice, 10n));
    expectSuccess(vault.updateNav(0n, 0n));
    return { chain, instructions: [vault.claimWithdrawalInstruction(alice)], signers: [alice.keypair] };
  },
  InsufficientLiquidity: () => {
    const { chain, vault, members } = setup();
    const alice = memberAt(members, 0);
    expectSuccess(vault.deposit(alice, 1_000_000n));
    expectSuccess(vault.requestWithdrawal(alice, 1_000_000_000n));
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(1_000_000_000n));
    // A day later a gain of 100 on paper: the claim is worth
    // floor(10^9 × 1_000_101 / 1_000_001_000) = 1_000_100, the reserve holds 1_000_000.
    vault.moveNavTo(1_000_100n);
    return { chain, instructions: [vault.claimWithdrawalInstruction(alice)], signers: [alice.keypair] };
  },
  BelowMinimumWithdrawal: () => {
    const { chain, vault, members } = setup({ minWithdrawalShares: 10n });
    const alice = memberAt(members, 0);
    expectSuccess(vault.deposit(alice, 100n));
    return { chain, instructions: [vault.requestWithdrawalInstruction(alice, 9n)], signers: [alice.keypair] };
  },
  FeeAboveMaximum: () => {
    const { chain, vault, members } = setup({ feeBps: 10 });
    const alice = memberAt(members, 0);
    expectSuccess(vault.deposit(alice, 100n));
    return {
      chain,
      instructions: [vault.requestWithdrawalInstruction(alice, 10n, {}, 9)],
      signers: [alice.keypair],
    };
  },
  InvalidConfig: () => {
    const { chain, vault } = setup();
    return {
      chain,
      instructions: [vault.updateConfigInstruction({ feeBps: 1001 })],
      signers: [vault.manager],
    };
  },
  SlippageExceeded: () => {
    const { chain, vault, members } = setup();
    const alice = memberAt(members, 0);
    return {
      chain,
      instructions: [vault.depositInstruction(alice, 100n, 100_001n)],
      signers: [alice.keypair],
    };
  },
  HourlyWithdrawalCapExceeded: () => {
    const { chain, vault, members } = setup({ hourlyCap: 50n, dailyCap: 1_000n });
    const alice = memberAt(members, 0);
    expectSuccess(vault.deposit(alice, 100n));
    return {
      chain,
      // value(51_000) = floor(51_000 × 101 / 101_000) = 51
      instructions: [vault.requestWithdrawalInstruction(alice, 51_000n)],
      signers: [alice.keypair],
    };
  },
  DailyWithdrawalCapExceeded: () => {
    const { chain, vault, members } = setup({ hourlyCap: 0n, dailyCap: 50n });
    const alice = memberAt(members, 0);
    expectSuccess(vault.deposit(alice, 100n));
    return {
      chain,
      // value(51_000) = floor(51_000 × 101 / 101_000) = 51
      instructions: [vault.requestWithdrawalInstruction(alice, 51_000n)],
      signers: [alice.keypair],
    };
  },
  NavGainAboveBound: () => {
    const { chain, vault } = boundedSetup();
    // max gain = floor(1_000_000 × 10 / 10_000) = 1_000
    return { chain, instructions: [vault.updateNavInstruction(1_001n, 0n)], signers: [vault.manager] };
  },
  NavLossAboveBound: () => {
    const { chain, vault } = boundedSetup();
    // max loss = floor(1_000_000 × 50 / 10_000) = 5_000
    return { chain, instructions: [vault.updateNavInstruction(0n, 5_001n)], signers: [vault.manager] };
  },
  NavStrikeTooSoon: () => {
    const { chain, vault } = boundedSetup();
    expectSuccess(vault.updateNav(1_000n, 0n));
    chain.warpBy(59n);
    return { chain, instructions: [vault.updateNavInstruction(0n, 0n)], signers: [vault.manager] };
  },
  NavGainAboveRate: () => {
    const { chain, vault, members } = setup();
    expectSuccess(vault.deposit(memberAt(members, 0), 1_000_000n));
    // 60 s at 100% a year: floor(10^6 × 10_000 × 60 / (10^4 × 31_536_000)) = 1.
    chain.warpBy(60n);
    return { chain, instructions: [vault.updateNavInstruction(2n, 0n)], signers: [vault.manager] };
  },
  NavLossAboveRate: () => {
    const { chain, vault, members } = setup();
    expectSuccess(vault.deposit(memberAt(members, 0), 1_000_000n));
    // 60 s at 10% a day: floor(10^6 × 1_000 × 60 / (10^4 × 86_400)) = 69.
    chain.warpBy(60n);
    return { chain, instructions: [vault.updateNavInstruction(0n, 70n)], signers: [vault.manager] };
  },
  QueueHolesFull: () => {
    // 35 requests of 10 shares, none funded; every other one from the second cancelled: 16 holes, the
    // most the list holds. Cancelling the 34th (between two live requests) would need a 17th.
    const { chain, vault, members } = setup(
      {},
      Array.from({ length: 35 }, () => 100n),
    );
    for (const member of members) {
      expectSuccess(vault.deposit(member, 100n));
      expectSuccess(vault.requestWithdrawal(member, 10n));
    }
    for (let index = 1; index <= 31; index += 2) {
      expectSuccess(vault.cancelWithdrawal(memberAt(members, index)));
    }
    const last = memberAt(members, 33);
    return { chain, instructions: [vault.cancelWithdrawalInstruction(last)], signers: [last.keypair] };
  },
  NotAssociatedTokenAccount: () => {
    // A stranger delivers alice's claimable withdrawal into a plain token account alice owns but her
    // wallet does not watch.
    const { chain, vault, members } = setup();
    const [alice, stranger] = [memberAt(members, 0), memberAt(members, 1)];
    expectSuccess(vault.deposit(alice, 100n));
    expectSuccess(vault.requestWithdrawal(alice, 10_000n));
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(10_000n));
    const unwatched = chain.createTokenAccount(alice.publicKey, chain.assetMint);
    return {
      chain,
      instructions: [vault.claimWithdrawalInstruction(alice, { ownerAsset: unwatched })],
      signers: [stranger.keypair],
    };
  },
  PartnerFeeAboveMaximum: () => {
    // The protocol allows 100 bps by default; the depositor signs 101.
    const { chain, vault, members } = setup();
    const alice = memberAt(members, 0);
    return {
      chain,
      instructions: [vault.depositWithPartnerFeeInstruction(alice, vault.addPartner(), 1_000n, 101)],
      signers: [alice.keypair],
    };
  },
  SmallRequestCannotLeaveQueue: () => {
    // Under a 5,000-share minimum, bob's whole balance of 1,000 shares is queued between two requests;
    // cancelling it would leave a hole.
    const { chain, vault, members } = setup({ minWithdrawalShares: 5_000n }, [1_000n, 1n, 1_000n]);
    const [alice, bob, carol] = [memberAt(members, 0), memberAt(members, 1), memberAt(members, 2)];
    for (const [member, assets] of [
      [alice, 100n],
      [bob, 1n],
      [carol, 100n],
    ] as const) {
      expectSuccess(vault.deposit(member, assets));
    }
    expectSuccess(vault.requestWithdrawal(alice, 10_000n));
    expectSuccess(vault.requestWithdrawal(bob, 1_000n));
    expectSuccess(vault.requestWithdrawal(carol, 10_000n));
    return { chain, instructions: [vault.cancelWithdrawalInstruction(bob)], signers: [bob.keypair] };
  },
  VaultIndexMismatch: () => {
    const chain = TestChain.create();
    const protocol = TestProtocol.of(chain);
    // Vault 1 at its own address, while the protocol's next index is 0.
    const skipped = TestVault.at(chain, chain.createFundedKeypair(), 1n, protocol);
    return {
      chain,
      instructions: [skipped.initializeInstruction(DEFAULT_VAULT_SETTINGS)],
      signers: [protocol.admin],
    };
  },
};

/** A vault of a protocol bounding strikes to +0.1% / −0.5% and one a minute, holding 1_000_000. */
function boundedSetup() {
  const chain = TestChain.create();
  const { protocol } = TestProtocol.create(chain, STRICT_BOUNDS);
  const { vault } = TestVault.create(chain, {}, { protocol });
  const members = [vault.addMember(1_000_000n)];
  expectSuccess(vault.deposit(memberAt(members, 0), 1_000_000n));
  // A day without a strike: the bounds over time (the ceilings here) allow more than the per-strike ones.
  chain.warpBy(86_400n);
  return { chain, vault, members };
}

const STRICT_BOUNDS = {
  maxGainBps: 10,
  maxLossBps: 50,
  minNavIntervalSeconds: 60,
  maxAnnualGainBps: 10_000,
  maxDailyLossBps: 1_000,
};

describe("custom errors", () => {
  const seen = new Set<number>();

  it.each(VAULT_ERRORS.map((error) => [error.code, error.name] as const))(
    "%i %s is raised, with no effect",
    (code, name) => {
      const scenario = refusalScenarios[name];
      expect(scenario, `no scenario for ${name}`).toBeDefined();
      if (scenario === undefined) return;
      const { chain, instructions, signers } = scenario();
      expectRefused(chain, instructions, signers, name);
      seen.add(code);
    },
  );

  it("has seen every error code the IDL defines", () => {
    expect([...seen].sort()).toEqual(VAULT_ERRORS.map((error) => error.code));
  });

  it("refuses invalid settings at initialisation with InvalidConfig, and accepts the limits", () => {
    const chain = TestChain.create();
    const manager = chain.createFundedKeypair();
    const unborn = TestVault.at(chain, manager, 0n);
    const admin = unborn.protocol.admin;
    const invalid: Partial<VaultSettings>[] = [{ feeBps: 1001 }, { name: "" }, { name: "n".repeat(33) }];
    for (const settings of invalid) {
      expectRefused(
        chain,
        [unborn.initializeInstruction({ ...DEFAULT_VAULT_SETTINGS, ...settings })],
        [admin],
        "InvalidConfig",
      );
    }
    const limits = { ...DEFAULT_VAULT_SETTINGS, feeBps: 1000, name: "n".repeat(32) };
    expectSuccess(chain.send([unborn.initializeInstruction(limits)], [admin]));
    expect(unborn.state()).toMatchObject({ feeBps: 1000, name: "n".repeat(32) });
  });

  it("refuses a cap below the minimum withdrawal's value at initialisation with CapBelowFloor", () => {
    const chain = TestChain.create();
    const unborn = TestVault.at(chain, chain.createFundedKeypair(), 0n);
    const admin = unborn.protocol.admin;
    // 1,000 whole shares (10^12 units) are worth 1,000 USDC at the starting price: a 999.999999 USDC
    // hourly or daily cap could never take the smallest request the minimum allows.
    const minimum = { ...DEFAULT_VAULT_SETTINGS, minWithdrawalShares: 1_000_000_000_000n };
    for (const caps of [{ hourlyCap: 999_999_999n }, { dailyCap: 999_999_999n }]) {
      expectRefused(chain, [unborn.initializeInstruction({ ...minimum, ...caps })], [admin], "CapBelowFloor");
    }
    const atFloor = { ...minimum, hourlyCap: 1_000_000_000n, dailyCap: 1_000_000_000n };
    expectSuccess(chain.send([unborn.initializeInstruction(atFloor)], [admin]));
    expect(unborn.state()).toMatchObject({ hourlyCap: 1_000_000_000n, dailyCap: 1_000_000_000n });
  });

  it("refuses a config name outside 1–32 bytes with InvalidConfig", () => {
    const { chain, vault } = setup();
    for (const name of ["", "é".repeat(17)]) {
      expectRefused(chain, [vault.updateConfigInstruction({ name })], [vault.manager], "InvalidConfig");
    }
  });

  it("refuses a deposit worth zero shares with InvalidAmount", () => {
    // Strikes can no longer double NAV; a 10% exit fee left to one remaining holder raises the price
    // instead: A = 100_001 for S = 1_000 shares, and floor(1 × 2_000 / 100_002) = 0.
    const { chain, vault, members } = setup({ feeBps: 1_000 });
    const [alice, bob] = [memberAt(members, 0), memberAt(members, 1)];
    expectSuccess(vault.deposit(alice, 1_000_000n));
    expectSuccess(vault.deposit(bob, 1n));
    expectSuccess(vault.requestWithdrawal(alice, 1_000_000_000n));
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(1_000_000_000n));
    expectSuccess(vault.claimWithdrawal(alice));
    expect(vault.state()).toMatchObject({ totalAssets: 100_001n, totalShares: 1_000n });
    expectRefused(chain, [vault.depositInstruction(bob, 1n)], [bob.keypair], "InvalidAmount");
  });

  it("prices a deposit after a write-down, which the bounds spread over days (100 → 10 at 10% a day)", () => {
    const { chain, vault, members } = setup();
    const [alice, bob] = [memberAt(members, 0), memberAt(members, 1)];
    expectSuccess(vault.deposit(alice, 100n));
    // A write-off to 0 is out of reach now: each strike loses at most 10% a day of what is left.
    vault.moveNavTo(10n);
    // floor(10 × (100_000 + 1_000) / (10 + 1)) = 91_818 shares, worth
    // floor(91_818 × 21 / 192_818) = 9: the depositor keeps what he paid, less one unit of rounding.
    expectSuccess(vault.deposit(bob, 10n, 91_818n));
    expect(chain.tokenBalance(bob.shareAccount)).toBe(91_818n);
    expect(vault.state()).toMatchObject({ totalAssets: 20n, totalShares: 191_818n });
    expect(valueOfShares(vault.state(), 91_818n)).toBe(9n);
  });

  it("refuses share totals beyond u64 with MathOverflow", () => {
    const { chain, vault, members } = setup({}, [U64_MAX / 1_000n, 1n]);
    const [alice, bob] = [memberAt(members, 0), memberAt(members, 1)];
    // floor(u64::MAX / 10^3) × 10^3 shares fit; S + 10^3 then does not.
    expectSuccess(vault.deposit(alice, U64_MAX / 1_000n));
    expect(vault.state().totalShares).toBe((U64_MAX / 1_000n) * 1_000n);
    expectRefused(chain, [vault.depositInstruction(bob, 1n)], [bob.keypair], "MathOverflow");
  });

  it("refuses zero shares to request or stage with InvalidAmount", () => {
    const { chain, vault, members } = setup();
    const alice = memberAt(members, 0);
    expectSuccess(vault.deposit(alice, 100n));
    expectRefused(chain, [vault.requestWithdrawalInstruction(alice, 0n)], [alice.keypair], "InvalidAmount");
    expectSuccess(vault.requestWithdrawal(alice, 10n));
    expectRefused(chain, [vault.stageWithdrawalsInstruction(0n)], [vault.manager], "InvalidAmount");
  });
});

describe("withdrawal cap windows", () => {
  it("resets the hourly window at the next UTC hour and the daily window at the next UTC day", () => {
    const { chain, vault, members } = setup({ hourlyCap: 100_000n, dailyCap: 250_000n }, [
      1_000_000n,
      1_000_000n,
      1_000_000n,
      1_000_000n,
    ]);
    const [a, b, c, d] = [
      memberAt(members, 0),
      memberAt(members, 1),
      memberAt(members, 2),
      memberAt(members, 3),
    ];
    for (const member of members) expectSuccess(vault.deposit(member, 1_000_000n));

    expectSuccess(vault.requestWithdrawal(a, 100_000_000n));
    expectRefused(
      chain,
      [vault.requestWithdrawalInstruction(b, 1_000n)],
      [b.keypair],
      "HourlyWithdrawalCapExceeded",
    );
    chain.warpTo(DAY_START + HOUR - 1n);
    expectRefused(
      chain,
      [vault.requestWithdrawalInstruction(b, 1_000n)],
      [b.keypair],
      "HourlyWithdrawalCapExceeded",
    );

    chain.warpTo(DAY_START + HOUR);
    expectSuccess(vault.requestWithdrawal(b, 100_000_000n));
    expect(vault.state()).toMatchObject({
      hourlyWindowStart: DAY_START + HOUR,
      hourlyUsed: 100_000n,
      dailyWindowStart: DAY_START,
      dailyUsed: 200_000n,
    });

    chain.warpTo(DAY_START + 2n * HOUR);
    expectRefused(
      chain,
      [vault.requestWithdrawalInstruction(c, 50_001_000n)],
      [c.keypair],
      "DailyWithdrawalCapExceeded",
    );
    expectSuccess(vault.requestWithdrawal(c, 50_000_000n));
    expect(vault.state()).toMatchObject({ hourlyUsed: 50_000n, dailyUsed: 250_000n });

    chain.warpTo(DAY_START + DAY - 1n);
    expectRefused(
      chain,
      [vault.requestWithdrawalInstruction(d, 1_000n)],
      [d.keypair],
      "DailyWithdrawalCapExceeded",
    );

    chain.warpTo(DAY_START + DAY);
    expectSuccess(vault.requestWithdrawal(d, 100_000_000n));
    expect(vault.state()).toMatchObject({
      hourlyWindowStart: DAY_START + DAY,
      hourlyUsed: 100_000n,
      dailyWindowStart: DAY_START + DAY,
      dailyUsed: 100_000n,
    });
  });

  it("gives capacity back for deposits, saturating at zero", () => {
    const { chain, vault, members } = setup({ hourlyCap: 100_000n, dailyCap: 150_000n }, [
      1_000_000n,
      1_000_000n,
      1_000_000n,
    ]);
    const [a, b, c] = [memberAt(members, 0), memberAt(members, 1), memberAt(members, 2)];
    expectSuccess(vault.deposit(a, 500_000n));
    expectSuccess(vault.deposit(b, 500_000n));
    expectSuccess(vault.requestWithdrawal(a, 100_000_000n));
    expectRefused(
      chain,
      [vault.requestWithdrawalInstruction(b, 40_000_000n)],
      [b.keypair],
      "HourlyWithdrawalCapExceeded",
    );

    expectSuccess(vault.deposit(c, 40_000n));
    expect(vault.state()).toMatchObject({ hourlyUsed: 60_000n, dailyUsed: 60_000n });
    expectSuccess(vault.requestWithdrawal(b, 40_000_000n));
    expect(vault.state()).toMatchObject({ hourlyUsed: 100_000n, dailyUsed: 100_000n });

    expectSuccess(vault.deposit(c, 500_000n));
    expect(vault.state()).toMatchObject({ hourlyUsed: 0n, dailyUsed: 0n });
  });

  it("gives capacity back in the current window, after a stale one has rolled over", () => {
    const { chain, vault, members } = setup({ hourlyCap: 100_000n }, [1_000_000n, 1_000_000n]);
    const [a, b] = [memberAt(members, 0), memberAt(members, 1)];
    expectSuccess(vault.deposit(a, 500_000n));
    expectSuccess(vault.requestWithdrawal(a, 100_000_000n));
    chain.warpTo(DAY_START + HOUR);
    expectSuccess(vault.deposit(b, 30_000n));
    expect(vault.state()).toMatchObject({
      hourlyWindowStart: DAY_START + HOUR,
      hourlyUsed: 0n,
      dailyUsed: 70_000n,
    });
  });
});

describe("claim order", () => {
  it("refuses a claim before a NAV strike after the request, then allows it", () => {
    const { chain, vault, members } = setup();
    const alice = memberAt(members, 0);
    expectSuccess(vault.deposit(alice, 1_000n));
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.requestWithdrawal(alice, 500_000n));
    expectSuccess(vault.stageWithdrawals(500_000n));
    expectRefused(chain, [vault.claimWithdrawalInstruction(alice)], [alice.keypair], "NavFloorNotPassed");
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.claimWithdrawal(alice));
  });

  it("refuses a claim before staging covers it, then allows it", () => {
    const { chain, vault, members } = setup();
    const alice = memberAt(members, 0);
    expectSuccess(vault.deposit(alice, 1_000n));
    expectSuccess(vault.requestWithdrawal(alice, 500_000n));
    expectSuccess(vault.updateNav(0n, 0n));
    expectRefused(chain, [vault.claimWithdrawalInstruction(alice)], [alice.keypair], "QueueNotFunded");
    expectSuccess(vault.stageWithdrawals(499_000n));
    expectRefused(chain, [vault.claimWithdrawalInstruction(alice)], [alice.keypair], "QueueNotFunded");
    expectSuccess(vault.stageWithdrawals(1_000n));
    expectSuccess(vault.claimWithdrawal(alice));
  });

  it("serves two wallets first in, first out: the second waits until staging reaches its queue_end", () => {
    const { chain, vault, members } = setup();
    const [alice, bob] = [memberAt(members, 0), memberAt(members, 1)];
    expectSuccess(vault.deposit(alice, 1_000_000n));
    expectSuccess(vault.deposit(bob, 1_000_000n));
    expectSuccess(vault.requestWithdrawal(alice, 300_000_000n));
    expectSuccess(vault.requestWithdrawal(bob, 200_000_000n));
    expect(vault.receiptOf(bob)).toMatchObject({ queueStart: 300_000_000n, queueEnd: 500_000_000n });
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(300_000_000n));

    expectRefused(chain, [vault.claimWithdrawalInstruction(bob)], [bob.keypair], "QueueNotFunded");
    expectSuccess(vault.claimWithdrawal(alice));
    expectRefused(chain, [vault.claimWithdrawalInstruction(bob)], [bob.keypair], "QueueNotFunded");
    expectSuccess(vault.stageWithdrawals(1_000_000_000n));
    expectSuccess(vault.claimWithdrawal(bob));
    expect(vault.state()).toMatchObject({
      queueTail: 500_000_000n,
      queueFunded: 500_000_000n,
      queueClaimed: 500_000_000n,
    });
    expect(chain.tokenBalance(alice.assetAccount)).toBe(300_000n);
    expect(chain.tokenBalance(bob.assetAccount)).toBe(200_000n);
  });
});

describe("pause", () => {
  it("blocks deposit and request, never the claim of a funded receipt, while the manager keeps striking and staging", () => {
    const { chain, vault, members } = setup();
    const [alice, bob] = [memberAt(members, 0), memberAt(members, 1)];
    expectSuccess(vault.deposit(alice, 1_000n));
    expectSuccess(vault.deposit(bob, 1_000n));
    expectSuccess(vault.requestWithdrawal(alice, 500_000n));
    expectSuccess(vault.updateConfig({ paused: true }));

    expectRefused(chain, [vault.depositInstruction(bob, 10n)], [bob.keypair], "VaultPaused");
    expectRefused(chain, [vault.requestWithdrawalInstruction(bob, 10_000n)], [bob.keypair], "VaultPaused");
    expectSuccess(vault.updateNav(0n, 0n));
    expectSuccess(vault.stageWithdrawals(500_000n));
    // A pause stops new money in and new exits, not an exit already funded: 500,000 shares pay 500.
    expectSuccess(vault.claimWithdrawal(alice));
    expect(chain.tokenBalance(alice.assetAccount)).toBe(1_000_000n - 1_000n + 500n);

    expectSuccess(vault.updateConfig({ paused: false }));
    expectSuccess(vault.deposit(bob, 10n));
    expectSuccess(vault.requestWithdrawal(bob, 10_000n));
  });
});
