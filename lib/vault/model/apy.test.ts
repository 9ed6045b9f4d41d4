import { describe, expect, it } from "vitest";

import { annualizedYield, trailingApy, type NavPoint } from "./apy";
import { VIRTUAL_ASSETS, VIRTUAL_SHARES } from "./share-math";

const YEAR = 365 * 24 * 3600 * 1000;

/** A point whose totals plus the virtual asset and shares are `assets` and `shares`: exact prices. */
function point(ms: number, assets: bigint, shares: bigint): NavPoint {
  return { at: new Date(ms), totalAssets: assets - VIRTUAL_ASSETS, totalShares: shares - VIRTUAL_SHARES };
}

describe("annualizedYield", () => {
  it("is the price growth over a year when the points are a year apart", () => {
    expect(annualizedYield(point(0, 100n, 100_000n), point(YEAR, 110n, 100_000n))).toBeCloseTo(0.1, 12);
  });

  it("compounds a shorter period to a year", () => {
    const day = 24 * 3600 * 1000;
    const apy = annualizedYield(point(0, 1_000_000n, 1_000_000_000n), point(day, 1_000_261n, 1_000_000_000n));
    expect(apy).toBeCloseTo(1.000261 ** 365 - 1, 9);
  });

  it("ignores deposits that keep the share price", () => {
    expect(annualizedYield(point(0, 100n, 100_000n), point(YEAR, 220n, 200_000n))).toBeCloseTo(0.1, 12);
  });

  it("is null without time, assets or shares", () => {
    expect(annualizedYield(point(0, 100n, 100_000n), point(0, 110n, 100_000n))).toBeNull();
    // A 0.0167% bump (a fee left with the holders) over a minute is no yield to annualize.
    const minute = 60_000;
    expect(
      annualizedYield(point(0, 600_000n, 600_000_000n), point(minute, 600_100n, 600_000_000n)),
    ).toBeGreaterThan(1e30);
    expect(
      annualizedYield(point(0, 600_000n, 600_000_000n), point(minute, 600_100n, 600_000_000n), 86_400),
    ).toBeNull();
    expect(
      annualizedYield(point(0, 600_000n, 600_000_000n), point(86_400_000, 600_100n, 600_000_000n), 86_400),
    ).toBeCloseTo(Math.expm1(365 * Math.log1p(100 / 600_000)), 9);
    const empty: NavPoint = { at: new Date(0), totalAssets: 0n, totalShares: 0n };
    expect(annualizedYield(empty, point(YEAR, 110n, 100_000n))).toBeNull();
  });
});

describe("trailingApy", () => {
  it("starts at the oldest point inside the window", () => {
    const points = [point(0, 100n, 100_000n), point(YEAR / 2, 200n, 100_000n), point(YEAR, 210n, 100_000n)];
    expect(trailingApy(points, YEAR / 1000 / 2)).toBeCloseTo(0.05 * 2 + 0.05 ** 2, 9);
    expect(trailingApy(points, YEAR / 1000)).toBeCloseTo(1.1, 9);
  });

  it("is null with fewer than two points", () => {
    expect(trailingApy([], 60)).toBeNull();
    expect(trailingApy([point(0, 1n, 1n)], 60)).toBeNull();
  });
});
