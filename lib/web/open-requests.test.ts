import { describe, expect, it } from "vitest";

import type { ActivityData } from "./api-client";
import { requestStates } from "./open-requests";

let counter = 0;
function entry(kind: ActivityData["kind"], vaultId: string, minute: number): ActivityData {
  counter += 1;
  const token = { mint: "m", symbol: "USDC", amount: "1", decimals: 6, uiAmount: 0.000001 };
  return {
    kind,
    vaultId,
    wallet: "W",
    requestId: kind === "deposit" ? null : String(counter),
    slot: counter,
    signature: `sig${counter}`,
    eventIndex: 0,
    blockTime: new Date(Date.UTC(2026, 10, 26, 12, minute)).toISOString(),
    recordedAt: new Date(Date.UTC(2026, 10, 26, 12, minute)).toISOString(),
    assets: token,
    shares: { ...token, symbol: "vUSDC", decimals: 9 },
    fee: null,
    deliveredBy: null,
  };
}

describe("open withdrawal requests in the activity", () => {
  it("marks the newest request of each vault with no claim after it, and nothing else", () => {
    const claimedRequest = entry("initiate", "A", 1);
    const claim = entry("claim", "A", 2);
    const openRequest = entry("initiate", "A", 3);
    const deposit = entry("deposit", "A", 4);
    const otherVault = entry("initiate", "B", 5);
    const states = requestStates([claim, deposit, claimedRequest, openRequest, otherVault]);
    expect([...states]).toEqual([
      [`${openRequest.signature}:0`, "pending"],
      [`${otherVault.signature}:0`, "pending"],
    ]);
  });

  it("says claimable where the vault's status does, and nothing once the claim is recorded", () => {
    const request = entry("initiate", "A", 1);
    expect(requestStates([request], (vault) => vault === "A").get(`${request.signature}:0`)).toBe(
      "claimable",
    );
    expect(requestStates([request, entry("claim", "A", 2)]).size).toBe(0);
    // A claim the keeper delivered ends it as well.
    const delivered = {
      ...entry("claim", "A", 2),
      deliveredBy: "Keeper1111111111111111111111111111111111111",
    };
    expect(requestStates([request, delivered], () => true).size).toBe(0);
  });

  it("closes a request its owner cancelled, and opens the next one requested after it", () => {
    const cancelled = entry("initiate", "A", 1);
    const cancel = entry("cancel", "A", 2);
    expect(requestStates([cancelled, cancel], () => true).size).toBe(0);
    const next = entry("initiate", "A", 3);
    expect([...requestStates([cancel, next, cancelled])]).toEqual([[`${next.signature}:0`, "pending"]]);
  });
});
