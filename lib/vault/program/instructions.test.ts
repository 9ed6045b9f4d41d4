import { Keypair, PublicKey } from "@solana/web3.js";
import BN from "bn.js";
import { describe, expect, it } from "vitest";

import { deriveVaultAddresses, findProtocolAddress, findQueueHoles, findReceipt } from "./addresses";
import { vaultCoder } from "../../../tests/fixtures/anchor-coder";
import { vaultIdl } from "./idl";
import {
  buildAcceptAdminInstruction,
  buildAcceptManagerInstruction,
  buildCancelWithdrawalInstruction,
  buildClaimWithdrawalInstruction,
  buildCloseQueueHolesInstruction,
  buildDepositInstruction,
  buildDepositWithPartnerFeeInstruction,
  buildInitializeProtocolInstruction,
  buildInitializeVaultInstruction,
  buildProposeAdminInstruction,
  buildApplyConfigInstruction,
  buildProposeManagerInstruction,
  buildSetVaultPeriodsInstruction,
  buildSetAdminPauseInstruction,
  buildSetMaxPartnerFeeInstruction,
  buildRequestWithdrawalInstruction,
  buildSetNavBoundsInstruction,
  buildStageWithdrawalsInstruction,
  buildUpdateConfigInstruction,
  buildUpdateNavInstruction,
} from "./instructions";

const key = (): PublicKey => Keypair.generate().publicKey;

describe("instruction builders", () => {
  const manager = key();
  const admin = key();
  const owner = key();
  const protocol = findProtocolAddress(admin);
  const addresses = deriveVaultAddresses(protocol, 3n);
  const bounds = {
    maxGainBps: 10,
    maxLossBps: 500,
    minNavIntervalSeconds: 30,
    maxAnnualGainBps: 10_000,
    maxDailyLossBps: 1_000,
  };
  const { vault, authority, shareMint, reserve, escrow } = addresses;
  const receipt = findReceipt(vault, owner);
  const depositAccounts = {
    depositor: owner,
    vault,
    authority,
    shareMint,
    reserve,
    depositorAsset: key(),
    depositorShares: key(),
  };
  const partner = key();
  const partnerAccounts = { ...depositAccounts, protocol, partner, partnerAsset: key() };
  const withdrawalAccounts = { owner, vault, receipt, ownerShares: key(), escrow };
  const built = {
    initialize_vault: buildInitializeVaultInstruction(
      { payer: key(), admin, protocol, vault, authority, shareMint, reserve, escrow, assetMint: key() },
      { index: 3n, manager, name: "v", feeBps: 1, minWithdrawalShares: 1n, hourlyCap: 0n, dailyCap: 0n },
    ),
    deposit: buildDepositInstruction(depositAccounts, { amount: 1n, minSharesOut: 0n }),
    request_withdrawal: buildRequestWithdrawalInstruction(withdrawalAccounts, { shares: 1n, maxFeeBps: 10 }),
    claim_withdrawal: buildClaimWithdrawalInstruction({
      owner,
      vault,
      authority,
      receipt,
      shareMint,
      escrow,
      reserve,
      ownerAsset: key(),
    }),
    cancel_withdrawal: buildCancelWithdrawalInstruction({
      ...withdrawalAccounts,
      authority,
      shareMint,
      queueHoles: findQueueHoles(vault),
    }),
    update_nav: buildUpdateNavInstruction({ manager, vault, protocol }, { gain: 1n, loss: 0n }),
    stage_withdrawals: buildStageWithdrawalsInstruction(
      { manager, vault, reserve, queueHoles: findQueueHoles(vault) },
      { maxShares: 1n },
    ),
    update_config: buildUpdateConfigInstruction({ manager, vault }, { paused: true }),
    initialize_protocol: buildInitializeProtocolInstruction({ creator: admin, protocol }, bounds),
    propose_admin: buildProposeAdminInstruction({ admin, protocol }, key()),
    accept_admin: buildAcceptAdminInstruction({ newAdmin: key(), protocol }),
    set_nav_bounds: buildSetNavBoundsInstruction({ admin, protocol }, bounds),
    propose_manager: buildProposeManagerInstruction({ proposer: admin, vault, protocol }, key()),
    accept_manager: buildAcceptManagerInstruction({ newManager: key(), vault }),
    apply_config: buildApplyConfigInstruction({ vault }),
    set_vault_periods: buildSetVaultPeriodsInstruction(
      { admin, protocol, vault },
      { configNoticeSeconds: 259_200, silenceSeconds: 604_800 },
    ),
    set_admin_pause: buildSetAdminPauseInstruction({ admin, protocol, vault }, 1_700_000_000n),
    close_queue_holes: buildCloseQueueHolesInstruction({
      vault,
      queueHoles: findQueueHoles(vault),
      payer: owner,
    }),
    deposit_with_partner_fee: buildDepositWithPartnerFeeInstruction(partnerAccounts, {
      amount: 1n,
      minSharesOut: 0n,
      partnerFeeBps: 25,
      partnerAssetBump: 255,
    }),
    set_max_partner_fee: buildSetMaxPartnerFeeInstruction({ admin, protocol }, 100),
  };

  it.each(vaultIdl.instructions.map((definition) => [definition.name, definition] as const))(
    "%s carries the IDL's accounts in order, with its signer and writable flags and discriminator",
    (name, definition) => {
      const instruction = built[name as keyof typeof built];
      expect(instruction.keys.map((meta) => [meta.isSigner, meta.isWritable])).toEqual(
        definition.accounts.map((account) => [account.signer === true, account.writable === true]),
      );
      definition.accounts.forEach((account, position) => {
        if (account.address !== undefined) {
          expect(instruction.keys[position]?.pubkey.toBase58()).toBe(account.address);
        }
      });
      expect([...instruction.data.subarray(0, 8)]).toEqual(definition.discriminator);
    },
  );

  it.each([
    [
      "deposit",
      () =>
        buildDepositInstruction(depositAccounts, { amount: 18_446_744_073_709_551_615n, minSharesOut: 7n }),
      { amount: new BN("18446744073709551615"), min_shares_out: new BN("7") },
    ],
    [
      "deposit_with_partner_fee",
      () =>
        buildDepositWithPartnerFeeInstruction(partnerAccounts, {
          amount: 1_000_000_000n,
          minSharesOut: 997_500_000_000n,
          partnerFeeBps: 25,
          partnerAssetBump: 253,
        }),
      {
        amount: new BN("1000000000"),
        min_shares_out: new BN("997500000000"),
        partner_fee_bps: 25,
        partner_asset_bump: 253,
      },
    ],
    [
      "set_max_partner_fee",
      () => buildSetMaxPartnerFeeInstruction({ admin, protocol }, 500),
      { max_partner_fee_bps: 500 },
    ],
    [
      "request_withdrawal",
      () =>
        buildRequestWithdrawalInstruction(withdrawalAccounts, {
          shares: 1_000_000_000_123n,
          maxFeeBps: 65_535,
        }),
      { shares: new BN("1000000000123"), max_fee_bps: 65_535 },
    ],
  ] as const)("%s's data is what the IDL's Borsh coder encodes", (name, build, args) => {
    const expected = vaultCoder.instruction.encode(name, args);
    expect(build().data.equals(expected)).toBe(true);
  });

  it.each([-1, 65_536, 1.5, Number.NaN])(
    "refuses a partner fee or a maximum partner fee of %s bps rather than wrap it",
    (bps) => {
      expect(() =>
        buildDepositWithPartnerFeeInstruction(partnerAccounts, {
          amount: 1n,
          minSharesOut: 0n,
          partnerFeeBps: bps,
          partnerAssetBump: 255,
        }),
      ).toThrow(RangeError);
      expect(() => buildSetMaxPartnerFeeInstruction({ admin, protocol }, bps)).toThrow(RangeError);
    },
  );

  it.each([-1, 256, 1.5, Number.NaN])("refuses a partner asset bump of %s rather than wrap it", (bump) => {
    expect(() =>
      buildDepositWithPartnerFeeInstruction(partnerAccounts, {
        amount: 1n,
        minSharesOut: 0n,
        partnerFeeBps: 25,
        partnerAssetBump: bump,
      }),
    ).toThrow(RangeError);
  });

  it.each([-1, 65_536, 1.5, Number.NaN])(
    "refuses a maximum fee of %s bps rather than wrap it",
    (maxFeeBps) => {
      expect(() => buildRequestWithdrawalInstruction(withdrawalAccounts, { shares: 1n, maxFeeBps })).toThrow(
        RangeError,
      );
    },
  );

  it("places named accounts where the IDL names them", () => {
    const names = vaultIdl.instructions.find(
      (definition) => definition.name === "claim_withdrawal",
    )?.accounts;
    const byName = new Map(names?.map((account, position) => [account.name, position]));
    const keys = built.claim_withdrawal.keys;
    expect(keys[byName.get("receipt") ?? -1]?.pubkey.equals(receipt)).toBe(true);
    expect(keys[byName.get("reserve") ?? -1]?.pubkey.equals(reserve)).toBe(true);
    expect(keys[byName.get("escrow") ?? -1]?.pubkey.equals(escrow)).toBe(true);
  });

  it("encodes the bounds and the named manager where the IDL puts them", () => {
    // u16 10, u16 500, u32 30, u16 10_000, u16 1_000, little-endian
    expect([...built.set_nav_bounds.data.subarray(8)]).toEqual([10, 0, 244, 1, 30, 0, 0, 0, 16, 39, 232, 3]);
    const initialize = built.initialize_vault;
    // index (u64), then the manager's 32 bytes
    expect(new PublicKey(initialize.data.subarray(16, 48)).equals(manager)).toBe(true);
    expect(initialize.keys[2]?.pubkey.equals(protocol)).toBe(true);
  });

  it("encodes absent config fields as None", () => {
    // discriminator, then six option tags: only `paused` (fifth) is Some(true).
    expect([...built.update_config.data.subarray(8)]).toEqual([0, 0, 0, 0, 1, 1, 0]);
  });
});
