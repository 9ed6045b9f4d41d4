import { describe, expect, it } from "vitest";

import { vaultCard } from "./vault-card";
import type { VaultView } from "../vault/model/vault-view";

const vault = {
  name: "USDC Prime",
  asset: { symbol: "USDC", decimals: 6 },
  shares: { symbol: "vUSDC", decimals: 9 },
  totalAssets: 60_911_140_000n,
  feeBps: 10,
} as unknown as VaultView;

describe("a shared vault link's card", () => {
  it("says the APY, TVL and fee as the pages do", () => {
    expect(vaultCard(vault, { apy7d: 0.0512 })).toEqual({
      title: "USDC Prime: deposit USDC",
      description:
        "Deposit USDC into USDC Prime and receive vUSDC: 5.12% APY over 7 days, 60,911.14 USDC deposited, " +
        "0.10% withdrawal fee, withdrawals paid in queue order.",
      apy: "5.12%",
      tvl: "60,911.14 USDC",
      fee: "0.10%",
    });
  });

  it("says when no APY is known yet", () => {
    expect(vaultCard(vault, null).apy).toBe("—");
    expect(vaultCard(vault, { apy7d: null }).description).toContain("APY not known yet");
  });
});
