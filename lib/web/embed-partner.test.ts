import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { partnerFeeWords } from "./balance-change-words";
import { bpsPercent, isKeyId, namedPartner, partnerFeeSplit } from "./embed-partner";

const partner = { keyId: "key_abc", wallet: Keypair.generate().publicKey.toBase58(), feeBps: 25 };

describe("an embed's partner", () => {
  it("splits an amount as the program does: the fee rounded down, never more than the bps", () => {
    expect(partnerFeeSplit(1_000_000_000n, partner)).toEqual({ fee: 2_500_000n, net: 997_500_000n });
    expect(partnerFeeSplit(399n, partner)).toEqual({ fee: 0n, net: 399n });
    expect(partnerFeeSplit(400_001n, partner)).toEqual({ fee: 1_000n, net: 399_001n });
  });

  it("reads ?partner= as a key id, and says a malformed one back without trusting it", () => {
    expect(namedPartner(undefined)).toBeNull();
    expect(namedPartner("")).toBeNull();
    expect(namedPartner(["key_abc", "key_def"])).toBe("key_abc");
    expect(isKeyId("key_abc")).toBe(true);
    for (const text of ["key_", "key_0OIl", "abc", "key_abc<script>", "key_abc&partnerFeeBps=0"]) {
      expect(isKeyId(text), text).toBe(false);
    }
    expect(namedPartner("x".repeat(500))).toHaveLength(70);
  });

  it("says the fee as a percentage and in the review step's words", () => {
    expect(bpsPercent(25)).toBe("0.25%");
    expect(bpsPercent(100)).toBe("1%");
    // A German reader reads the fee as every other figure on the page: 0,25 %, not 0.25%.
    expect(bpsPercent(25, "de-DE")).toBe("0,25\u00a0%");
    expect(bpsPercent(25, "en-US")).toBe("0.25%");
    const wallet = Keypair.generate().publicKey;
    const words = partnerFeeWords(
      {
        partnerFee: { partner: wallet, partnerAsset: wallet, feeBps: 25 },
        args: { amount: "1000000000", partner_fee_bps: "25" },
      },
      { mint: "asset", symbol: "USDC", decimals: 6 },
    );
    const name = wallet.toBase58();
    expect(words).toBe(
      `Of that, 2.50 USDC (0.25%) is the partner fee, paid to ${name.slice(0, 4)}…${name.slice(-4)}`,
    );
    // 1.000,50 USDC at 25 bps in de-DE: the fee rounded down to the raw unit, in German figures.
    expect(
      partnerFeeWords(
        {
          partnerFee: { partner: wallet, partnerAsset: wallet, feeBps: 25 },
          args: { amount: "1000500000", partner_fee_bps: "25" },
        },
        { mint: "asset", symbol: "USDC", decimals: 6 },
        "de-DE",
      ),
    ).toBe(
      `Of that, 2,50125 USDC (0,25\u00a0%) is the partner fee, paid to ${name.slice(0, 4)}…${name.slice(-4)}`,
    );
    expect(
      partnerFeeWords(
        { partnerFee: null, args: { amount: "1" } },
        { mint: "a", symbol: "USDC", decimals: 6 },
      ),
    ).toBeNull();
  });
});
