import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { HOUR_SECONDS, DAY_SECONDS } from "./cap-window";
import { sharePrice } from "./share-math";
import { vaultAccount } from "../../../tests/fixtures/vault-account";
import { vaultView } from "./vault-view";

describe("vaultView", () => {
  it("is the decoded account with its tokens named, its price and its windows as stored", () => {
    const [address, assetMint, shareMint] = [0, 1, 2].map(() => Keypair.generate().publicKey);
    if (address === undefined || assetMint === undefined || shareMint === undefined) {
      throw new Error("three keys");
    }
    const state = vaultAccount({
      name: "USDC Prime",
      assetMint,
      shareMint,
      totalAssets: 1_100_000_000n,
      totalShares: 1_000_000_000_000n,
      feeBps: 10,
      minWithdrawalShares: 5n,
      hourlyCap: 25n,
      hourlyUsed: 7n,
      hourlyWindowStart: 3_600n,
      dailyCap: 100n,
      dailyUsed: 9n,
      dailyWindowStart: 0n,
      paused: true,
      pauseUntil: 604_800n,
    });
    const view = vaultView(
      {
        address,
        state,
        asset: { mint: assetMint, symbol: "USDC", decimals: 6 },
        shares: { mint: shareMint, symbol: "vUSDC", decimals: 9 },
      },
      0,
    );
    expect(view).toEqual({
      id: address.toBase58(),
      name: "USDC Prime",
      asset: { mint: assetMint.toBase58(), symbol: "USDC", decimals: 6 },
      shares: { mint: shareMint.toBase58(), symbol: "vUSDC", decimals: 9 },
      totalAssets: 1_100_000_000n,
      totalShares: 1_000_000_000_000n,
      sharePrice: sharePrice(1_100_000_000n, 1_000_000_000_000n),
      navSequence: state.navSequence,
      navUpdatedAt: state.navUpdatedAt,
      feeBps: 10,
      minWithdrawalShares: 5n,
      hourly: { cap: 25n, used: 7n, windowStart: 3_600n, length: HOUR_SECONDS },
      daily: { cap: 100n, used: 9n, windowStart: 0n, length: DAY_SECONDS },
      paused: true,
      pause: { until: 604_800n, by: "manager" },
      queueTail: state.queueTail,
      queueFunded: state.queueFunded,
      queueClaimed: state.queueClaimed,
      pendingRequests: state.pendingRequests,
      pendingConfig: null,
    });
  });
});
