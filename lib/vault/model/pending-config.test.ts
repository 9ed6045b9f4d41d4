import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { vaultAccount } from "../../../tests/fixtures/vault-account";
import { vaultDetail } from "../reads/directory";
import { configInForce, hurtingFields, pendingConfig } from "./pending-config";
import { vaultView } from "./vault-view";

// A fee raise from 10 to 1,000 bps and an hourly cap cut to 100 USDC, effective at 1,767,225,600.
const scheduled = vaultAccount({
  feeBps: 10,
  hourlyCap: 1_000_000_000n,
  pendingFeeBps: 1_000,
  pendingMinWithdrawalShares: 0n,
  pendingHourlyCap: 100_000_000n,
  pendingDailyCap: 0n,
  pendingEffectiveAt: 1_767_225_600n,
});
const BEFORE_MS = 1_767_225_599_999;
const AT_MS = 1_767_225_600_000;

describe("the pending config", () => {
  it("is shown until its effective time, with the config in force unchanged", () => {
    expect(pendingConfig(scheduled, BEFORE_MS)).toEqual({
      feeBps: 1_000,
      minWithdrawalShares: 0n,
      hourlyCap: 100_000_000n,
      dailyCap: 0n,
      effectiveAt: 1_767_225_600n,
    });
    expect(configInForce(scheduled, BEFORE_MS)).toBe(scheduled);
  });

  it("is in force from its effective time on, as the program applies it before a request", () => {
    expect(pendingConfig(scheduled, AT_MS)).toBeNull();
    expect(configInForce(scheduled, AT_MS)).toMatchObject({
      feeBps: 1_000,
      hourlyCap: 100_000_000n,
      dailyCap: 0n,
      pendingEffectiveAt: 0n,
    });
  });

  it("is null when nothing is scheduled", () => {
    expect(pendingConfig(vaultAccount(), AT_MS)).toBeNull();
    expect(configInForce(vaultAccount({ feeBps: 7 }), AT_MS).feeBps).toBe(7);
  });
});

describe("GET /api/vault/{id}'s view of the config (vaultDetail)", () => {
  const asset = { mint: PublicKey.unique(), symbol: "USDC", decimals: 6 };
  const shares = { mint: PublicKey.unique(), symbol: "vUSDC", decimals: 9 };
  function detailAt(nowMs: number) {
    const vault = { address: PublicKey.unique(), state: scheduled, asset, shares };
    const entry = {
      row: {
        vault: vault.address.toBase58(),
        slot: 1,
        accountData: Buffer.alloc(0),
        reserveBalance: 0n,
        holders: 0,
        updatedAt: new Date(0),
      },
      vault,
      view: vaultView(vault, nowMs),
      apy: { apy7d: null, apy30d: null },
    };
    return vaultDetail(entry, { navIntervalSeconds: 60, stageIntervalSeconds: 60 }, nowMs);
  }

  it("shows the current fee and caps with the pending config and its time beside them", () => {
    const detail = detailAt(BEFORE_MS);
    expect(detail.withdrawalPolicy.feeBps).toBe(10);
    expect(detail.caps.hourly?.amount).toBe("1000000000");
    expect(detail.pendingConfig).toEqual({
      feeBps: 1_000,
      minWithdrawalShares: {
        amount: "0",
        decimals: 9,
        symbol: "vUSDC",
        mint: shares.mint.toBase58(),
        uiAmount: 0,
      },
      hourlyCap: {
        amount: "100000000",
        decimals: 6,
        symbol: "USDC",
        mint: asset.mint.toBase58(),
        uiAmount: 100,
      },
      dailyCap: null,
      effectiveAt: "2026-01-01T00:00:00.000Z",
    });
  });

  it("shows the pending config as the one in force from its time on (the fee a request then meets)", () => {
    const detail = detailAt(AT_MS);
    expect(detail.withdrawalPolicy.feeBps).toBe(1_000);
    expect(detail.caps.hourly?.amount).toBe("100000000");
    expect(detail.withdrawalLimits.hourly.cap?.amount).toBe("100000000");
    expect(detail.pendingConfig).toBeNull();
  });
});

describe("the pages' view of a vault with a scheduled change", () => {
  const loaded = (state: ReturnType<typeof vaultAccount>) => ({
    address: PublicKey.unique(),
    state,
    asset: { mint: PublicKey.unique(), symbol: "USDC", decimals: 6 },
    shares: { mint: PublicKey.unique(), symbol: "vUSDC", decimals: 9 },
  });

  it("shows the fee and caps in force with the change announced, until its time", () => {
    const view = vaultView(loaded(scheduled), BEFORE_MS);
    expect(view.feeBps).toBe(10);
    expect(view.hourly.cap).toBe(1_000_000_000n);
    expect(view.pendingConfig).toEqual({
      feeBps: 1_000,
      minWithdrawalShares: 0n,
      hourlyCap: 100_000_000n,
      dailyCap: 0n,
      effectiveAt: 1_767_225_600n,
    });
  });

  it("from its time on, shows the fee a request pays (1,000 bps), though no transaction has applied it", () => {
    const view = vaultView(loaded(scheduled), AT_MS);
    expect(view.feeBps).toBe(1_000);
    expect(view.hourly.cap).toBe(100_000_000n);
    expect(view.pendingConfig).toBeNull();
  });
});

describe("hurtingFields (update_config's rule)", () => {
  const current = { feeBps: 10, minWithdrawalShares: 1_000n, hourlyCap: 5_000n, dailyCap: 0n };
  it("names the fields the program schedules: a higher fee or minimum, any cap change", () => {
    expect(
      hurtingFields(current, { feeBps: 5, minWithdrawalShares: 0n, hourlyCap: 5_000n, dailyCap: 0n }),
    ).toEqual([]);
    expect(hurtingFields(current, { hourlyCap: 6_000n })).toEqual(["hourlyCap"]);
    expect(hurtingFields(current, { hourlyCap: 18_446_744_073_709_551_615n })).toEqual(["hourlyCap"]);
    expect(hurtingFields(current, { feeBps: 1_010, minWithdrawalShares: 1_001n })).toEqual([
      "feeBps",
      "minWithdrawalShares",
    ]);
    expect(hurtingFields(current, { hourlyCap: 4_999n })).toEqual(["hourlyCap"]);
    expect(hurtingFields(current, { hourlyCap: 0n })).toEqual(["hourlyCap"]);
    expect(hurtingFields(current, { dailyCap: 1_000_000n })).toEqual(["dailyCap"]);
  });
});
