import { describe, expect, it } from "vitest";

import { chartGeometry, describeSpan, observedApy, type NavPoint } from "./nav-history";

const DAY = 86_400;

function points(prices: number[], step: number): NavPoint[] {
  return prices.map((sharePrice, index) => ({ time: 1_000 + index * step, sharePrice, totalAssets: 0n }));
}

describe("observedApy", () => {
  it("compounds the growth between the first strike in the window and the last", () => {
    const daily = 1.1 ** (1 / 365);
    const history = points(
      Array.from({ length: 8 }, (_, index) => daily ** index),
      DAY,
    );
    const apy = observedApy(history, 7 * DAY);
    expect(apy?.spanSeconds).toBe(7 * DAY);
    expect(apy?.apy).toBeCloseTo(0.1, 6);
  });

  it("uses only the strikes inside the window", () => {
    const history = points([1, 2, 2, 2.02], DAY);
    const week = observedApy(history, 1.5 * DAY);
    expect(week?.spanSeconds).toBe(DAY);
    expect(week?.apy).toBeCloseTo(1.01 ** 365 - 1, 6);
  });

  it("gives nothing for less than a minute of history", () => {
    expect(observedApy([], DAY)).toBeNull();
    expect(observedApy(points([1, 1.1], 30), DAY)).toBeNull();
  });

  it("describes spans", () => {
    expect(describeSpan(7 * DAY)).toBe("7 d");
    expect(describeSpan(3 * 3600)).toBe("3 h");
    expect(describeSpan(30)).toBe("1 min");
  });
});

describe("chartGeometry", () => {
  it("maps time to x and price to y (higher price, smaller y) inside the padding", () => {
    const geometry = chartGeometry(points([1, 1.5, 2], 60), 100, 50, 0);
    expect(geometry?.line).toBe("M0.00,50.00L50.00,25.00L100.00,0.00");
    expect(geometry?.area).toBe("M0.00,50.00L50.00,25.00L100.00,0.00L100.00,50.00L0.00,50.00Z");
    expect(geometry?.minPrice).toBe(1);
    expect(geometry?.maxPrice).toBe(2);
  });

  it("needs two points and copes with a flat price", () => {
    expect(chartGeometry(points([1], 60), 100, 50)).toBeNull();
    expect(chartGeometry(points([1, 1], 60), 100, 50)?.line).toMatch(/^M/);
  });
});
