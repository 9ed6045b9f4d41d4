// Issue 32, the program's part, as an attacker would probe it: deposit_with_partner_fee pays
// floor(amount × bps / 10000) to the partner's associated token account and deposits the rest exactly
// as deposit does; the protocol's max_partner_fee_bps (100 by default, at most 500, set by the admin
// with set_max_partner_fee) bounds the bps the depositor signs.
import { Keypair, PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  findAssociatedTokenAddress,
  findAssociatedTokenAddressAndBump,
} from "../../../lib/chain/spl-token";
import { decodeVaultEvents } from "../../../lib/vault/program/events";
import { vaultErrorCode } from "../../../lib/vault/program/program-errors";
import { TestChain } from "./harness";
import { expectRefused, expectSuccess } from "./expectations";
import { TestProtocol, TestVault, type Member, type Partner } from "./vault-fixture";

const USDC = 1_000_000n;
const DAY = 86_400n;

/** floor(amount × (S + 10^3) / (A + 1)): the README's shares for a deposit. */
function sharesFor(amount: bigint, totalAssets: bigint, totalShares: bigint): bigint {
  return (amount * (totalShares + 1_000n)) / (totalAssets + 1n);
}

/**
 * A USDC vault whose NAV is not the starting price: Bob's 1,000 USDC, then a day's gain of 2 USDC
 * (A = 1,002,000,000, S = 10^12), and Alice holding 10,000 USDC to deposit.
 */
function pricedVault() {
  const chain = TestChain.create();
  const { vault } = TestVault.create(chain);
  const bob = vault.addMember(1_000n * USDC);
  expectSuccess(vault.deposit(bob, 1_000n * USDC));
  chain.warpBy(DAY);
  expectSuccess(vault.updateNav(2n * USDC, 0n));
  const alice = vault.addMember(10_000n * USDC);
  const partner = vault.addPartner();
  return { chain, vault, alice, bob, partner };
}

function balances(chain: TestChain, vault: TestVault, member: Member, partner: Partner) {
  return {
    depositor: chain.tokenBalance(member.assetAccount),
    shares: chain.tokenBalance(member.shareAccount),
    partner: chain.tokenBalance(partner.assetAccount),
    reserve: vault.reserveBalance(),
  };
}

describe("deposit_with_partner_fee", () => {
  it("pays 2.5 of 1,000 USDC at 25 bps to the partner's ATA and mints shares for 997.5 USDC at NAV", () => {
    const { chain, vault, alice, partner } = pricedVault();
    const { totalAssets, totalShares } = vault.state();
    expect([totalAssets, totalShares]).toEqual([1_002_000_000n, 1_000_000_000_000n]);
    const before = balances(chain, vault, alice, partner);

    const outcome = expectSuccess(vault.depositWithPartnerFee(alice, partner, 1_000n * USDC, 25));

    const shares = sharesFor(997_500_000n, totalAssets, totalShares);
    // floor(997,500,000 × (10^12 + 10^3) / 1,002,000,001); the gross amount would mint 998,003,992,017.
    expect(shares).toBe(995_508_982_037n);
    expect(balances(chain, vault, alice, partner)).toEqual({
      depositor: before.depositor - 1_000_000_000n,
      shares: before.shares + shares,
      partner: before.partner + 2_500_000n,
      reserve: before.reserve + 997_500_000n,
    });
    expect(vault.state()).toMatchObject({
      totalAssets: totalAssets + 997_500_000n,
      totalShares: totalShares + shares,
    });
    expect(decodeVaultEvents(outcome.logs)).toMatchObject([
      { name: "Deposited", data: { owner: alice.publicKey, assets: 997_500_000n, shares } },
      {
        name: "PartnerFeePaid",
        data: {
          vault: vault.key,
          owner: alice.publicKey,
          partner: partner.publicKey,
          assets: 1_000_000_000n,
          fee: 2_500_000n,
          feeBps: 25,
          timestamp: chain.now(),
        },
      },
    ]);
  });

  it("rounds the fee down: the depositor never pays more than the bps", () => {
    const { chain, vault, alice, partner } = pricedVault();
    const cases: [bigint, number, bigint][] = [
      [399n, 25, 0n],
      [400n, 25, 1n],
      [400_001n, 25, 1_000n],
      [799n, 25, 1n],
      [9_999n, 1, 0n],
      [10_000n, 1, 1n],
      [1_234_567_891n, 100, 12_345_678n],
    ];
    for (const [amount, bps, fee] of cases) {
      expect(fee * 10_000n).toBeLessThanOrEqual(amount * BigInt(bps));
      const before = balances(chain, vault, alice, partner);
      const { totalAssets, totalShares } = vault.state();
      const outcome = expectSuccess(vault.depositWithPartnerFee(alice, partner, amount, bps));
      const shares = sharesFor(amount - fee, totalAssets, totalShares);
      expect(balances(chain, vault, alice, partner)).toEqual({
        depositor: before.depositor - amount,
        shares: before.shares + shares,
        partner: before.partner + fee,
        reserve: before.reserve + amount - fee,
      });
      expect(decodeVaultEvents(outcome.logs)).toMatchObject([
        { name: "Deposited", data: { assets: amount - fee, shares } },
        { name: "PartnerFeePaid", data: { assets: amount, fee, feeBps: bps } },
      ]);
    }
  });

  it("refuses a fee above the protocol's maximum (PartnerFeeAboveMaximum) and above the 500 bps ceiling of set_max_partner_fee", () => {
    const { chain, vault, alice, partner } = pricedVault();
    const { protocol } = vault;
    expect(protocol.state().maxPartnerFeeBps).toBe(100);
    expectRefused(
      chain,
      [vault.depositWithPartnerFeeInstruction(alice, partner, 1_000n * USDC, 101)],
      [alice.keypair],
      "PartnerFeeAboveMaximum",
    );
    expectSuccess(vault.depositWithPartnerFee(alice, partner, 1_000n * USDC, 100));
    expect(chain.tokenBalance(partner.assetAccount)).toBe(10n * USDC);

    expectRefused(chain, [protocol.setMaxPartnerFeeInstruction(501)], [protocol.admin], "InvalidConfig");
    expectRefused(chain, [protocol.setMaxPartnerFeeInstruction(65_535)], [protocol.admin], "InvalidConfig");
    const raised = expectSuccess(protocol.setMaxPartnerFee(500));
    expect(decodeVaultEvents(raised.logs)).toEqual([
      {
        name: "MaxPartnerFeeUpdated",
        data: { protocol: protocol.key, maxPartnerFeeBps: 500, timestamp: chain.now() },
      },
    ]);
    expect(protocol.state().maxPartnerFeeBps).toBe(500);
    expectSuccess(vault.depositWithPartnerFee(alice, partner, 1_000n * USDC, 500));
    expect(chain.tokenBalance(partner.assetAccount)).toBe(60n * USDC);
    expectRefused(
      chain,
      [vault.depositWithPartnerFeeInstruction(alice, partner, 1_000n * USDC, 501)],
      [alice.keypair],
      "PartnerFeeAboveMaximum",
    );

    // The admin can switch partner fees off: then every bps is above the maximum.
    expectSuccess(protocol.setMaxPartnerFee(0));
    expectRefused(
      chain,
      [vault.depositWithPartnerFeeInstruction(alice, partner, 1_000n * USDC, 1)],
      [alice.keypair],
      "PartnerFeeAboveMaximum",
    );
  });

  it("refuses a 0 bps fee (a plain deposit is deposit) and a 0 amount", () => {
    const { chain, vault, alice, partner } = pricedVault();
    for (const [amount, bps] of [
      [1_000n * USDC, 0],
      [0n, 25],
    ] as const) {
      expectRefused(
        chain,
        [vault.depositWithPartnerFeeInstruction(alice, partner, amount, bps)],
        [alice.keypair],
        "InvalidAmount",
      );
    }
  });

  it("pays only into the partner's associated token account of the vault's asset (6033)", () => {
    const { chain, vault, alice, partner } = pricedVault();
    const otherMint = chain.createMint(6, chain.mintAuthority.publicKey);
    const stranger = Keypair.generate().publicKey;
    const impostors: [string, PublicKey][] = [
      [
        "another token account the partner owns",
        chain.createTokenAccount(partner.publicKey, chain.assetMint),
      ],
      ["another wallet's ATA", chain.createAssociatedTokenAccount(stranger, chain.assetMint)],
      ["the attacker's own ATA", alice.assetAccount],
      ["the partner's ATA of another mint", chain.createAssociatedTokenAccount(partner.publicKey, otherMint)],
    ];
    for (const [, partnerAsset] of impostors) {
      const instruction = vault.depositWithPartnerFeeInstruction(alice, partner, 1_000n * USDC, 25, {
        partnerAsset,
      });
      // The depositor's own asset account named twice is refused as a duplicate account first.
      const error = partnerAsset.equals(alice.assetAccount) ? "InvalidAccount" : "NotAssociatedTokenAccount";
      expectRefused(chain, [instruction], [alice.keypair], error);
    }
    // Naming the stranger as the partner pays the stranger's ATA, and says so in the event: the fee
    // follows the partner the depositor signed, nobody else.
    const strangerAta = impostors[1]?.[1] as PublicKey;
    const outcome = expectSuccess(
      vault.depositWithPartnerFee(
        alice,
        { publicKey: stranger, assetAccount: strangerAta },
        1_000n * USDC,
        25,
      ),
    );
    expect(decodeVaultEvents(outcome.logs)[1]).toMatchObject({
      name: "PartnerFeePaid",
      data: { partner: stranger, fee: 2_500_000n },
    });
    expect(chain.tokenBalance(strangerAta)).toBe(2_500_000n);
    expect(chain.tokenBalance(partner.assetAccount)).toBe(0n);

    // A partner without an ATA yet: the address is the right one, but no token account is there.
    const fresh = Keypair.generate().publicKey;
    expectRefused(
      chain,
      [
        vault.depositWithPartnerFeeInstruction(
          alice,
          { publicKey: fresh, assetAccount: findAssociatedTokenAddress(fresh, chain.assetMint) },
          1_000n * USDC,
          25,
        ),
      ],
      [alice.keypair],
      "InvalidAccountOwner",
    );
  });

  it("re-derives the partner's ATA from partner_asset_bump: a wrong, non-canonical or another wallet's bump is refused (6033)", () => {
    const { chain, vault, alice, partner } = pricedVault();
    const canonical = findAssociatedTokenAddressAndBump(partner.publicKey, chain.assetMint).bump;
    // Another wallet's ATA whose bump is not the partner's.
    let other = Keypair.generate().publicKey;
    while (findAssociatedTokenAddressAndBump(other, chain.assetMint).bump === canonical) {
      other = Keypair.generate().publicKey;
    }
    const othersBump = findAssociatedTokenAddressAndBump(other, chain.assetMint).bump;
    const wrongBumps = new Set([
      canonical - 1,
      canonical - 2,
      canonical === 255 ? 0 : canonical + 1,
      0,
      othersBump,
    ]);
    for (const partnerAssetBump of wrongBumps) {
      expectRefused(
        chain,
        [vault.depositWithPartnerFeeInstruction(alice, partner, 1_000n * USDC, 25, { partnerAssetBump })],
        [alice.keypair],
        "NotAssociatedTokenAccount",
      );
    }
    expect(vaultErrorCode("NotAssociatedTokenAccount")).toBe(6033);

    // The other wallet's own ATA with its own bump, naming the partner: derived from the partner's key,
    // that bump gives another address.
    const othersAta = chain.createAssociatedTokenAccount(other, chain.assetMint);
    expectRefused(
      chain,
      [
        vault.depositWithPartnerFeeInstruction(alice, partner, 1_000n * USDC, 25, {
          partnerAsset: othersAta,
          partnerAssetBump: othersBump,
        }),
      ],
      [alice.keypair],
      "NotAssociatedTokenAccount",
    );

    // A non-canonical bump with the address it does derive: the address check passes, but only the
    // associated token program could have created an account there, and it signs only for the canonical
    // bump, so no token account exists at that address (6007, InvalidAccountOwner: nothing is there).
    let nonCanonical = canonical - 1;
    let address: PublicKey | null = null;
    while (address === null && nonCanonical >= 0) {
      try {
        address = PublicKey.createProgramAddressSync(
          [
            partner.publicKey.toBuffer(),
            TOKEN_PROGRAM_ID.toBuffer(),
            chain.assetMint.toBuffer(),
            Buffer.from([nonCanonical]),
          ],
          ASSOCIATED_TOKEN_PROGRAM_ID,
        );
      } catch {
        nonCanonical -= 1;
      }
    }
    if (address === null) throw new Error("no non-canonical bump off the curve");
    expect(chain.readAccount(address)).toBeNull();
    expectRefused(
      chain,
      [
        vault.depositWithPartnerFeeInstruction(alice, partner, 1_000n * USDC, 25, {
          partnerAsset: address,
          partnerAssetBump: nonCanonical,
        }),
      ],
      [alice.keypair],
      "InvalidAccountOwner",
    );

    // The canonical bump pays: 2.5 USDC, nothing before.
    expect(chain.tokenBalance(partner.assetAccount)).toBe(0n);
    expectSuccess(
      vault.depositWithPartnerFee(alice, partner, 1_000n * USDC, 25, { partnerAssetBump: canonical }),
    );
    expect(chain.tokenBalance(partner.assetAccount)).toBe(2_500_000n);
  });

  it("costs at most 10,000 CU whatever the partner's ATA bump (255, and 253 or lower): no bump search", () => {
    const { chain, vault, alice } = pricedVault();
    /** A partner whose ATA of the asset has a bump `fits`, found by generating wallets. */
    const partnerWhose = (fits: (bump: number) => boolean): { partner: Partner; bump: number } => {
      for (;;) {
        const partner = vault.addPartner();
        const { bump } = findAssociatedTokenAddressAndBump(partner.publicKey, chain.assetMint);
        if (fits(bump)) return { partner, bump };
      }
    };
    const first = partnerWhose((bump) => bump === 255);
    const low = partnerWhose((bump) => bump <= 253);
    // Each partner paid once before, so both measured deposits find the same accounts in the same state.
    expectSuccess(vault.depositWithPartnerFee(alice, first.partner, 1_000n * USDC, 25));
    expectSuccess(vault.depositWithPartnerFee(alice, low.partner, 1_000n * USDC, 25));
    const units = [first, low].map(
      ({ partner }) =>
        expectSuccess(vault.depositWithPartnerFee(alice, partner, 1_000n * USDC, 25)).computeUnits,
    );
    const [atFirst, atLow] = units as [bigint, bigint];
    console.log(
      `deposit_with_partner_fee: ${atFirst} CU at ATA bump 255, ${atLow} CU at ATA bump ${low.bump}`,
    );
    expect(atFirst).toBeLessThanOrEqual(10_000n);
    expect(atLow).toBeLessThanOrEqual(10_000n);
    // A search would cost ~1,500 CU more per bump below 255 (≥ 3,000 here, 10,278 at bump 254 before
    // partner_asset_bump); one hash costs the same at any bump.
    expect(atLow).toBe(atFirst);
  });

  it("refuses a protocol account other than the vault's own", () => {
    const { chain, vault, alice, partner } = pricedVault();
    // Another protocol whose admin allows 500 bps: its maximum must not apply to this vault.
    const { protocol: other } = TestProtocol.create(chain);
    expectSuccess(other.setMaxPartnerFee(500));
    // A fake with the real protocol's bytes and a 10,000 bps maximum, at a fresh address, owned by the
    // program (written behind the runtime's back) or by the attacker's program.
    const real = chain.readAccount(vault.protocol.key);
    if (real === null) throw new Error("no protocol");
    const data = Uint8Array.from(real.data);
    new DataView(data.buffer).setUint16(125, 10_000, true);
    const fakeOwnedByProgram = Keypair.generate().publicKey;
    chain.writeAccount({ ...real, address: fakeOwnedByProgram, data });
    const fakeOwnedByOther = Keypair.generate().publicKey;
    chain.writeAccount({ ...real, address: fakeOwnedByOther, owner: Keypair.generate().publicKey, data });

    for (const protocol of [other.key, fakeOwnedByProgram, fakeOwnedByOther, vault.key]) {
      expectRefused(
        chain,
        [vault.depositWithPartnerFeeInstruction(alice, partner, 1_000n * USDC, 200, { protocol })],
        [alice.keypair],
        "InvalidAccount",
      );
    }
    // The right address with the right bytes but not owned by the program (an account no attacker
    // can make; the owner is checked all the same).
    chain.writeAccount({ ...real, owner: Keypair.generate().publicKey, data });
    expectRefused(
      chain,
      [vault.depositWithPartnerFeeInstruction(alice, partner, 1_000n * USDC, 200)],
      [alice.keypair],
      "InvalidAccountOwner",
    );
    chain.writeAccount(real);
    expectSuccess(vault.depositWithPartnerFee(alice, partner, 1_000n * USDC, 100));
  });

  it("pays each partner its own fee: two partners on one holder", () => {
    const { chain, vault, alice, partner: first } = pricedVault();
    const second = vault.addPartner();
    const a = expectSuccess(vault.depositWithPartnerFee(alice, first, 1_000n * USDC, 25));
    const b = expectSuccess(vault.depositWithPartnerFee(alice, second, 2_000n * USDC, 50));
    const c = expectSuccess(vault.depositWithPartnerFee(alice, first, 400_001n, 25));
    expect(chain.tokenBalance(first.assetAccount)).toBe(2_500_000n + 1_000n);
    expect(chain.tokenBalance(second.assetAccount)).toBe(10_000_000n);
    expect(
      [a, b, c].map((outcome) => {
        const paid = decodeVaultEvents(outcome.logs)[1];
        return paid?.name === "PartnerFeePaid" ? [paid.data.partner.toBase58(), paid.data.fee] : null;
      }),
    ).toEqual([
      [first.publicKey.toBase58(), 2_500_000n],
      [second.publicKey.toBase58(), 10_000_000n],
      [first.publicKey.toBase58(), 1_000n],
    ]);
  });

  it("holds min_shares_out against the shares of the net amount", () => {
    const { chain, vault, alice, partner } = pricedVault();
    const { totalAssets, totalShares } = vault.state();
    const net = sharesFor(997_500_000n, totalAssets, totalShares);
    const gross = sharesFor(1_000_000_000n, totalAssets, totalShares);
    // What the gross amount would mint is refused; one share more than the net too.
    for (const minSharesOut of [gross, net + 1n]) {
      expectRefused(
        chain,
        [vault.depositWithPartnerFeeInstruction(alice, partner, 1_000n * USDC, 25, { minSharesOut })],
        [alice.keypair],
        "SlippageExceeded",
      );
    }
    expectSuccess(vault.depositWithPartnerFee(alice, partner, 1_000n * USDC, 25, { minSharesOut: net }));
    expect(chain.tokenBalance(alice.shareAccount)).toBe(net);
  });

  it("is refused by a paused vault as deposit is, and gives the net amount back to the windows", () => {
    const { chain, vault, alice, bob, partner } = pricedVault();
    expectSuccess(vault.updateConfig({ paused: true }));
    expectRefused(chain, [vault.depositInstruction(alice, USDC)], [alice.keypair], "VaultPaused");
    expectRefused(
      chain,
      [vault.depositWithPartnerFeeInstruction(alice, partner, 1_000n * USDC, 25)],
      [alice.keypair],
      "VaultPaused",
    );
    expectSuccess(vault.updateConfig({ paused: false }));

    // Bob's request uses 500 USDC of each window; a 100 USDC deposit at 100 bps gives back 99.
    expectSuccess(vault.requestWithdrawal(bob, 500_000_000_000n));
    const used = vault.state().hourlyUsed;
    expectSuccess(vault.depositWithPartnerFee(alice, partner, 100n * USDC, 100));
    expect(vault.state()).toMatchObject({ hourlyUsed: used - 99n * USDC, dailyUsed: used - 99n * USDC });
  });
});

describe("set_max_partner_fee", () => {
  it("is the protocol admin's alone", () => {
    const chain = TestChain.create();
    const { protocol } = TestProtocol.create(chain);
    const { protocol: other } = TestProtocol.create(chain);
    const stranger = chain.createFundedKeypair();
    expectRefused(
      chain,
      [protocol.setMaxPartnerFeeInstruction(500, { admin: stranger.publicKey })],
      [stranger],
      "Unauthorized",
    );
    // Another protocol's admin, and an unsigned admin key.
    expectRefused(
      chain,
      [protocol.setMaxPartnerFeeInstruction(500, { admin: other.admin.publicKey })],
      [other.admin],
      "Unauthorized",
    );
    const unsigned = protocol.setMaxPartnerFeeInstruction(500);
    unsigned.keys[0] = { pubkey: protocol.admin.publicKey, isSigner: false, isWritable: false };
    expectRefused(chain, [unsigned], [], "MissingSigner");
    expect(protocol.state().maxPartnerFeeBps).toBe(100);
    expectSuccess(protocol.setMaxPartnerFee(250));
    expect(protocol.state().maxPartnerFeeBps).toBe(250);
  });
});
