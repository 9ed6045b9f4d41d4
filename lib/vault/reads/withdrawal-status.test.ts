import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { vaultAccount } from "../../../tests/fixtures/vault-account";
import type { VaultState, ReceiptState } from "../program/accounts";
import { capWindow } from "../model/cap-window";
import { holeSharesBetween } from "./withdrawal-estimate";
import { withdrawalProgress } from "./withdrawal-status";

const key = PublicKey.default;
const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

function vault(overrides: Partial<VaultState>): VaultState {
  return vaultAccount({ navUpdatedAt: BigInt(NOW / 1000 - 30), ...overrides });
}

const receipt: ReceiptState = {
  vault: key,
  owner: key,
  shares: 100n,
  assetsAtRequest: 100n,
  navFloor: 5n,
  requestId: 2n,
  requestedAt: BigInt(NOW / 1000 - 10),
  queueStart: 200n,
  queueEnd: 300n,
  feeBps: 10,
  bump: 0,
  lastHolderExit: false,
};

describe("withdrawal progress", () => {
  it("counts staged shares of this request and the shares still ahead of it", () => {
    expect(withdrawalProgress(vault({ queueFunded: 150n }), receipt)).toEqual({
      stagedShares: "0",
      totalShares: "100",
      sharesAhead: "50",
      fraction: 0,
    });
    expect(withdrawalProgress(vault({ queueFunded: 225n }), receipt)).toMatchObject({
      stagedShares: "25",
      sharesAhead: "0",
      fraction: 0.25,
    });
    expect(withdrawalProgress(vault({ queueFunded: 900n }), receipt)).toMatchObject({
      stagedShares: "100",
      fraction: 1,
    });
  });

  it("does not count cancelled requests (holes) between the funded frontier and this one as ahead", () => {
    // Funded to 150; holes [160, 180) and [190, 250) (the second partly beyond this request's start,
    // which a real queue never has: only its part before 200 counts); 50 − 20 − 10 = 20 ahead.
    const holes = [
      { start: 160n, end: 180n },
      { start: 190n, end: 250n },
      { start: 400n, end: 500n },
    ];
    expect(withdrawalProgress(vault({ queueFunded: 150n }), receipt, holes).sharesAhead).toBe("20");
    expect(holeSharesBetween(holes, 150n, 200n)).toBe(30n);
    expect(holeSharesBetween(holes, 0n, 1_000n)).toBe(180n);
    expect(holeSharesBetween([], 0n, 1_000n)).toBe(0n);
  });
});

describe("cap windows", () => {
  it("roll over on UTC boundaries and report what remains", () => {
    const hourStart = BigInt(NOW / 1000);
    const hour = (cap: bigint, windowStart: bigint, used: bigint) => ({
      cap,
      used,
      windowStart,
      length: 3600,
    });
    expect(capWindow(hour(100n, hourStart, 40n), NOW / 1000 + 10)).toEqual({
      cap: 100n,
      used: 40n,
      remaining: 60n,
      resetsAt: NOW / 1000 + 3600,
    });
    expect(capWindow(hour(100n, hourStart - 3600n, 40n), NOW / 1000).used).toBe(0n);
    expect(capWindow(hour(0n, 0n, 5n), NOW / 1000).remaining).toBeNull();
    expect(capWindow(hour(10n, hourStart, 40n), NOW / 1000).remaining).toBe(0n);
  });
});
