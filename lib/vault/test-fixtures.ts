// A vault account with plain defaults for domain unit tests; each test overrides what it is about.
import { PublicKey } from "@solana/web3.js";

import type { VaultAccount } from "./accounts";

export function vaultAccount(overrides: Partial<VaultAccount> = {}): VaultAccount {
  const key = PublicKey.default;
  return {
    protocol: key,
    manager: key,
    pendingManager: key,
    assetMint: key,
    shareMint: key,
    reserve: key,
    escrow: key,
    authority: key,
    index: 0n,
    bump: 0,
    authorityBump: 0,
    shareMintBump: 0,
    reserveBump: 0,
    escrowBump: 0,
    assetDecimals: 6,
    shareDecimals: 9,
    paused: false,
    name: "v",
    totalAssets: 1_000n,
    totalShares: 1_000n,
    navSequence: 5n,
    navUpdatedAt: 0n,
    feeBps: 0,
    minWithdrawalShares: 0n,
    hourlyCap: 0n,
    dailyCap: 0n,
    hourlyWindowStart: 0n,
    hourlyUsed: 0n,
    dailyWindowStart: 0n,
    dailyUsed: 0n,
    queueTail: 300n,
    queueFunded: 150n,
    queueClaimed: 0n,
    nextRequestId: 3n,
    pendingRequests: 2n,
    surplusAssets: 0n,
    ...overrides,
  };
}
