// The keeper's decisions with numbers: one strike per period from chain state, the bounds' clamp and
// minimum interval, and each NAV source (simulated yield, a file, an HTTP endpoint) with its refusals.
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { OperatorError } from "../operator/errors";
import { decideStrike, periodOf, strikeBoundsOf, type StrikeBounds } from "./keeper";
import { accruedYield, parseNavSource } from "./nav-source";

/** Rates over time far above any per-strike bound, for the tests of those bounds alone. */
const UNBOUNDED_OVER_TIME = { maxAnnualGainBps: 10n ** 15n, maxDailyLossBps: 10n ** 15n };
const WIDE: StrikeBounds = {
  maxGainBps: 10_000n,
  maxLossBps: 10_000n,
  minIntervalSeconds: 0n,
  ...UNBOUNDED_OVER_TIME,
};
const VAULT = "5wmiQyQXVpAVrfsVoQAqiHnkNZTW6n6998Rq56hs5DXS";

describe("decideStrike", () => {
  const base = { totalAssets: 1_000_000_000n, navUpdatedAt: 1_000_030n, navSequence: 4n };

  it("strikes once per period: not again in the period of the last strike", () => {
    expect(periodOf(1_000_030n, 60)).toBe(16_667n);
    expect(decideStrike(base, 1_000_100_000n, 1_000_079n, 60, WIDE)).toEqual({
      strike: false,
      reason: "struck this period",
    });
    expect(decideStrike(base, 1_000_100_000n, 1_000_080n, 60, WIDE)).toEqual({
      strike: true,
      gain: 100_000n,
      loss: 0n,
      target: 1_000_100_000n,
      clamped: false,
    });
    // A vault never struck strikes at once: nav_updated_at is its creation time, in this period.
    expect(decideStrike({ ...base, navSequence: 0n }, null, 1_000_031n, 60, WIDE)).toMatchObject({
      strike: true,
      gain: 0n,
      loss: 0n,
    });
    // The program's interval does not hold the first strike back either.
    const slow: StrikeBounds = {
      ...WIDE,
      minIntervalSeconds: 3_600n,
      ...UNBOUNDED_OVER_TIME,
    };
    expect(decideStrike({ ...base, navSequence: 0n }, 1_000_000_001n, 1_000_031n, 60, slow)).toMatchObject({
      strike: true,
      gain: 1n,
    });
  });

  it("skips an empty vault: the program accepts no gain on 0 total assets", () => {
    const empty = { totalAssets: 0n, navUpdatedAt: 1_000_030n, navSequence: 0n };
    expect(decideStrike(empty, 5_000_000n, 1_000_080n, 60, WIDE)).toEqual({
      strike: false,
      reason: "empty vault",
    });
  });

  it("reads the protocol account's bounds", () => {
    expect(
      strikeBoundsOf({
        maxGainBps: 50,
        maxLossBps: 200,
        minNavIntervalSeconds: 30,
        maxAnnualGainBps: 10_000,
        maxDailyLossBps: 1_000,
      }),
    ).toEqual({
      maxGainBps: 50n,
      maxLossBps: 200n,
      minIntervalSeconds: 30n,
      maxAnnualGainBps: 10_000n,
      maxDailyLossBps: 1_000n,
    });
  });

  it("clamps to the bounds over time, for the time since the last strike and at most a day of it", () => {
    // The program's ceilings: 100% a year up, 10% a day down; 60 s after the last strike.
    const ceilings: StrikeBounds = { ...WIDE, maxAnnualGainBps: 10_000n, maxDailyLossBps: 1_000n };
    // floor(10^9 × 10_000 × 60 / (10^4 × 31_536_000)) = 1_902 up, floor(10^9 × 1_000 × 60 / (10^4 × 86_400)) = 69_444 down.
    expect(decideStrike(base, 2_000_000_000n, 1_000_090n, 60, ceilings)).toMatchObject({
      gain: 1_902n,
      clamped: true,
    });
    expect(decideStrike(base, 1n, 1_000_090n, 60, ceilings)).toMatchObject({ loss: 69_444n, clamped: true });
    // A week without a strike counts as a day: floor(10^9 / 365) = 2_739_726.
    expect(decideStrike(base, 2_000_000_000n, 1_000_030n + 7n * 86_400n, 60, ceilings)).toMatchObject({
      gain: 2_739_726n,
      clamped: true,
    });
  });

  it("clamps a change to the bounds, each its own, and waits out the minimum interval", () => {
    const bounds: StrikeBounds = {
      maxGainBps: 50n,
      maxLossBps: 50n,
      minIntervalSeconds: 30n,
      ...UNBOUNDED_OVER_TIME,
    };
    // 0.5 % of 1,000 units is 5 units.
    expect(decideStrike(base, 2_000_000_000n, 1_000_080n, 60, bounds)).toEqual({
      strike: true,
      gain: 5_000_000n,
      loss: 0n,
      target: 1_005_000_000n,
      clamped: true,
    });
    expect(decideStrike(base, 1n, 1_000_080n, 60, bounds)).toEqual({
      strike: true,
      gain: 0n,
      loss: 5_000_000n,
      target: 995_000_000n,
      clamped: true,
    });
    expect(decideStrike(base, 1_000_000_000n, 1_000_049n, 10, bounds)).toEqual({
      strike: false,
      reason: "too soon for the bounds",
    });
    expect(decideStrike(base, 996_000_000n, 1_000_080n, 60, bounds)).toMatchObject({
      loss: 4_000_000n,
      clamped: false,
    });
    // A gain bound of 1 bps and a loss bound of 20 %: each side keeps its own, floored like the program.
    const lopsided: StrikeBounds = {
      maxGainBps: 1n,
      maxLossBps: 2_000n,
      minIntervalSeconds: 0n,
      ...UNBOUNDED_OVER_TIME,
    };
    expect(decideStrike({ ...base, totalAssets: 9_999n }, 20_000n, 1_000_080n, 60, lopsided)).toMatchObject({
      gain: 0n,
      loss: 0n,
      clamped: true,
    });
    expect(decideStrike(base, 500_000_000n, 1_000_080n, 60, lopsided)).toMatchObject({
      loss: 200_000_000n,
      target: 800_000_000n,
      clamped: true,
    });
    expect(decideStrike(base, 2_000_000_000n, 1_000_080n, 60, lopsided)).toMatchObject({
      gain: 100_000n,
      clamped: true,
    });
  });
});

describe("decideStrike on demand (anyPeriod)", () => {
  const base = { totalAssets: 1_000_000_000n, navUpdatedAt: 1_000_030n, navSequence: 4n };
  const bounds: StrikeBounds = {
    maxGainBps: 50n,
    maxLossBps: 50n,
    minIntervalSeconds: 5n,
    ...UNBOUNDED_OVER_TIME,
  };

  it("strikes again within the period of the last strike, still clamped and held to the minimum interval", () => {
    expect(decideStrike(base, 1_000_000_100n, 1_000_040n, 60, bounds)).toEqual({
      strike: false,
      reason: "struck this period",
    });
    expect(decideStrike(base, 1_000_000_100n, 1_000_040n, 60, bounds, true)).toEqual({
      strike: true,
      gain: 100n,
      loss: 0n,
      target: 1_000_000_100n,
      clamped: false,
    });
    expect(decideStrike(base, 2_000_000_000n, 1_000_040n, 60, bounds, true)).toMatchObject({
      gain: 5_000_000n,
      clamped: true,
    });
    expect(decideStrike(base, 1_000_000_100n, 1_000_034n, 60, bounds, true)).toEqual({
      strike: false,
      reason: "too soon for the bounds",
    });
  });
});

describe("NAV sources", () => {
  const reading = {
    vault: VAULT,
    totalAssets: 1_000_000_000_000n,
    navUpdatedAt: 1_000n,
    now: 1_000n + 365n * 86_400n,
  };

  it("simulated:<apy> accrues the rate since the last strike, at most a day of it", async () => {
    expect(accruedYield(1_000_000_000_000n, 1_000n, 365n * 86_400n)).toBe(100_000_000_000n);
    const source = parseNavSource("simulated:7.5");
    expect(source.simulated).toBe(true);
    // Capped at one day: 1,000,000 units × 7.5 % / 365.
    expect(await source.currentTotalAssets(reading)).toBe(1_000_000_000_000n + 205_479_452n);
    expect(await source.currentTotalAssets({ ...reading, now: reading.navUpdatedAt + 60n })).toBe(
      1_000_000_000_000n + 142_694n,
    );
    expect(await source.currentTotalAssets({ ...reading, navUpdatedAt: 0n })).toBe(1_000_000_000_000n);
  });

  it("file:<path> reads a number or a per-vault JSON document", async () => {
    const directory = mkdtempSync(join(tmpdir(), "nav-source-"));
    const plain = join(directory, "plain.txt");
    writeFileSync(plain, "1234567\n");
    expect(await parseNavSource(`file:${plain}`).currentTotalAssets(reading)).toBe(1_234_567n);
    const byVault = join(directory, "vaults.json");
    writeFileSync(byVault, JSON.stringify({ [VAULT]: "99000000" }));
    expect(await parseNavSource(`file:${byVault}`).currentTotalAssets(reading)).toBe(99_000_000n);
    writeFileSync(byVault, JSON.stringify({ other: "1" }));
    await expect(parseNavSource(`file:${byVault}`).currentTotalAssets(reading)).rejects.toThrow(
      OperatorError,
    );
    await expect(
      parseNavSource(`file:${join(directory, "absent")}`).currentTotalAssets(reading),
    ).rejects.toThrow(/cannot be read/);
  });

  it("http(s):// asks for the vault and reads { totalAssets }", async () => {
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://x");
      if (url.pathname === "/broken") {
        response.writeHead(502).end();
        return;
      }
      const vault = url.searchParams.get("vault") ?? url.pathname.split("/").at(-1);
      response
        .writeHead(200, { "Content-Type": "application/json" })
        .end(JSON.stringify({ totalAssets: vault === VAULT ? "5000000" : "0" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await parseNavSource(`${base}/nav`).currentTotalAssets(reading)).toBe(5_000_000n);
      expect(await parseNavSource(`${base}/nav/{vault}`).currentTotalAssets(reading)).toBe(5_000_000n);
      await expect(parseNavSource(`${base}/broken`).currentTotalAssets(reading)).rejects.toThrow(/HTTP 502/);
    } finally {
      server.close();
    }
  });

  it.each(["simulated:abc", "simulated:1.234", "file:", "ftp://x", "nonsense"])("refuses %s", (text) => {
    expect(() => parseNavSource(text)).toThrow(OperatorError);
  });
});
