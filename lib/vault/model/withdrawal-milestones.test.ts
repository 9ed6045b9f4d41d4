// The milestones of one withdrawal from its indexed events: times from each event's chain timestamp,
// claimable at the later of the strike and the funding, and who sent the claim.
import { describe, expect, it } from "vitest";

import type { StoredEvent } from "./indexed-records";
import { withdrawalMilestones } from "./withdrawal-milestones";

const OWNER = "5wmiQyQXVpAVrfsVoQAqiHnkNZTW6n6998Rq56hs5DXS";
const MANAGER = "G66TvDPKZ5kpEtr1gPjPeRYFyBGYLR2rQeejh7JYC2UZ";

function event(name: string, timestamp: number, data: Record<string, unknown> = {}): StoredEvent {
  return {
    signature: `${name}-sig`,
    eventIndex: 0,
    vault: "vault",
    name,
    owner: null,
    requestId: 7n,
    slot: timestamp,
    blockTime: new Date(timestamp * 1000),
    data: { timestamp: String(timestamp), ...data },
  };
}

const T = 1_800_000_000;
const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();

describe("withdrawalMilestones", () => {
  it("dates a pending request: struck, funded, claimable at the later of the two", () => {
    const events = {
      request: event("WithdrawalRequested", T),
      nav: event("NavUpdated", T + 120),
      staged: event("WithdrawalsStaged", T + 300),
      claimed: null,
    };
    expect(withdrawalMilestones(events, { owner: OWNER, manager: MANAGER, claimSigner: null })).toEqual({
      requestId: "7",
      requestedAt: iso(T),
      navStruckAt: iso(T + 120),
      fundedAt: iso(T + 300),
      claimableAt: iso(T + 300),
      claimedAt: null,
      claimedBy: null,
      claimSigner: null,
      claimedNet: null,
    });
    // Funded before the strike: claimable from the strike.
    const early = { ...events, nav: event("NavUpdated", T + 400) };
    expect(
      withdrawalMilestones(early, { owner: OWNER, manager: MANAGER, claimSigner: null }).claimableAt,
    ).toBe(iso(T + 400));
    // Not struck yet: not claimable, whatever the funding.
    expect(
      withdrawalMilestones({ ...events, nav: null }, { owner: OWNER, manager: MANAGER, claimSigner: null })
        .claimableAt,
    ).toBeNull();
  });

  it("names who sent the claim: the owner, the keeper (the manager key) or another wallet", () => {
    const claimed = {
      request: event("WithdrawalRequested", T),
      nav: event("NavUpdated", T + 60),
      staged: event("WithdrawalsStaged", T + 60),
      claimed: event("WithdrawalClaimed", T + 66, { net: "99900000" }),
    };
    const by = (claimSigner: string | null) =>
      withdrawalMilestones(claimed, { owner: OWNER, manager: MANAGER, claimSigner });
    expect(by(MANAGER)).toMatchObject({
      claimedAt: iso(T + 66),
      claimedBy: "keeper",
      claimSigner: MANAGER,
      claimedNet: 99_900_000n,
    });
    expect(by(OWNER).claimedBy).toBe("owner");
    expect(by("11111111111111111111111111111111").claimedBy).toBe("other");
    // The signer not known (the transaction unreadable): claimed, by whom unsaid.
    expect(by(null)).toMatchObject({ claimedAt: iso(T + 66), claimedBy: null, claimedNet: 99_900_000n });
  });
});
