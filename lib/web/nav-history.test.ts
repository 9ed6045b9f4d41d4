import { describe, expect, it } from "vitest";

import {
  CHART_MAX_POINTS,
  chartGeometry,
  chartWindow,
  describeSpan,
  MIN_PRICE_RANGE_FRACTION,
  nearestPoint,
  observedApy,
  pointsInRange,
  tickDecimals,
  strikesOf,
  withLivePrice,
  type NavPoint,
} from "./nav-history";
import { seriesPointCount } from "../vault/model/series-timestamps";

const DAY = 86_400;

function points(prices: number[], step: number): NavPoint[] {
  return prices.map((sharePrice, index) => ({ time: 1_000 + index * step, sharePrice }));
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

  it("gives the change, not an annual rate, for less than a day of history", () => {
    const hour = observedApy(points([1, 1.0001], 3_600), DAY);
    expect(hour).toEqual({ apy: null, change: expect.closeTo(0.0001, 12), spanSeconds: 3_600 });
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

  it("widens a tiny move to the minimum axis range: a 0.011% move is not drawn top to bottom", () => {
    const geometry = chartGeometry(points([1.0, 1.00011], 60), 100, 50, 0);
    expect(geometry).not.toBeNull();
    const { minPrice = 0, maxPrice = 0, points: drawn = [] } = geometry ?? {};
    expect(maxPrice - minPrice).toBeCloseTo(1.000055 * MIN_PRICE_RANGE_FRACTION, 9);
    // The line rises by 0.011 / 0.2 of the height (2.75 of 50), centred.
    const rise = (drawn[0]?.y ?? 0) - (drawn[1]?.y ?? 0);
    expect(rise).toBeCloseTo((0.00011 / (1.000055 * MIN_PRICE_RANGE_FRACTION)) * 50, 3);
    expect(drawn[0]?.y).toBeGreaterThan(20);
    expect(drawn[1]?.y).toBeLessThan(30);
  });

  it("keeps a large move's own bounds and gives three price and three time ticks", () => {
    const geometry = chartGeometry(points([1, 1.5, 2], 60), 100, 50, 0);
    expect(geometry?.priceTicks).toEqual([
      { value: 1, at: 50 },
      { value: 1.5, at: 25 },
      { value: 2, at: 0 },
    ]);
    expect(geometry?.timeTicks).toEqual([
      { value: 1_000, at: 0 },
      { value: 1_060, at: 50 },
      { value: 1_120, at: 100 },
    ]);
  });

  it("finds the strike nearest the pointer", () => {
    const drawn = chartGeometry(points([1, 1.5, 2], 60), 100, 50, 0)?.points ?? [];
    expect(nearestPoint(drawn, 10)?.sharePrice).toBe(1);
    expect(nearestPoint(drawn, 60)?.sharePrice).toBe(1.5);
    expect(nearestPoint(drawn, 99)?.sharePrice).toBe(2);
    expect(nearestPoint([], 5)).toBeNull();
  });

  it("needs two points and copes with a flat price", () => {
    expect(chartGeometry(points([1], 60), 100, 50)).toBeNull();
    expect(chartGeometry(points([1, 1], 60), 100, 50)?.line).toMatch(/^M/);
  });
});

describe("chartWindow", () => {
  const NOW = Date.UTC(2025, 5, 2, 12, 0, 30);
  const MINUTE_MS = 60_000;
  const HOUR_MS = 60 * MINUTE_MS;
  const DAY_MS = 24 * HOUR_MS;

  it.each([
    ["a vault three minutes old", 3 * MINUTE_MS, "minute"],
    ["a vault six hours old", 6 * HOUR_MS, "minute"],
    ["a vault seven hours old", 7 * HOUR_MS, "hour"],
    ["a vault sixteen days old", 16 * DAY_MS, "hour"],
    ["a vault seventeen days old", 17 * DAY_MS, "day"],
    ["a vault 300 days old", 300 * DAY_MS, "day"],
  ] as const)("draws %s from its first strike by %s", (_name, ageMs, interval) => {
    const window = chartWindow(NOW - ageMs, NOW);
    expect(window).toEqual({ fromMs: NOW - ageMs, interval });
    expect(seriesPointCount(window.fromMs, NOW, window.interval)).toBeLessThanOrEqual(CHART_MAX_POINTS);
  });

  it("draws an older vault's last year by day", () => {
    const window = chartWindow(NOW - 3 * 365 * DAY_MS, NOW);
    expect(window).toEqual({ fromMs: NOW - 365 * DAY_MS, interval: "day" });
    expect(seriesPointCount(window.fromMs, NOW, "day")).toBeLessThanOrEqual(CHART_MAX_POINTS);
  });

  it("never starts after now, whatever the clocks say", () => {
    expect(chartWindow(NOW + 5_000, NOW)).toEqual({ fromMs: NOW, interval: "minute" });
  });
});

describe("strikesOf", () => {
  const at = (iso: string) => `2025-06-02T${iso}Z`;

  it("keeps each strike once, at the time it was struck, and skips points before the first", () => {
    expect(
      strikesOf([
        { sharePrice: null, navSequence: null, struckAt: null },
        { sharePrice: 1, navSequence: "4", struckAt: at("10:00:20") },
        { sharePrice: 1, navSequence: "4", struckAt: at("10:00:20") },
        { sharePrice: 1.001, navSequence: "7", struckAt: at("10:01:20") },
        { sharePrice: 1.002, navSequence: "8", struckAt: at("10:01:40") },
      ]),
    ).toEqual([
      { time: Date.parse(at("10:00:20")) / 1000, sharePrice: 1 },
      { time: Date.parse(at("10:01:20")) / 1000, sharePrice: 1.001 },
      { time: Date.parse(at("10:01:40")) / 1000, sharePrice: 1.002 },
    ]);
  });

  it("gives nothing to draw for a series without strikes", () => {
    expect(strikesOf([])).toEqual([]);
    expect(strikesOf([{ sharePrice: null, navSequence: null, struckAt: null }])).toEqual([]);
  });
});

describe("pointsInRange", () => {
  const hourly = points(
    Array.from({ length: 10 * 24 + 1 }, (_, index) => 1 + index / 1e6),
    3_600,
  );

  it("draws the last day or week from the strike in force at its start", () => {
    const day = pointsInRange(hourly, "24h");
    expect(day).toHaveLength(26);
    expect(day[0]?.time).toBeLessThan((hourly.at(-1)?.time ?? 0) - DAY + 1);
    expect(day[1]?.time).toBeGreaterThanOrEqual((hourly.at(-1)?.time ?? 0) - DAY);
    expect(pointsInRange(hourly, "7d")).toHaveLength(7 * 24 + 2);
    expect(pointsInRange(hourly, "all")).toHaveLength(hourly.length);
  });

  it("keeps a young vault's whole history in every range", () => {
    const young = points([1, 1.0001, 1.0002], 60);
    expect(pointsInRange(young, "24h")).toEqual(young);
    expect(pointsInRange([], "7d")).toEqual([]);
  });
});

describe("tickDecimals", () => {
  it("gives enough decimals to tell the ticks apart", () => {
    expect(tickDecimals(1, 1.002)).toBe(4);
    expect(tickDecimals(1, 2)).toBe(2);
    expect(tickDecimals(1, 1.00002)).toBe(6);
    expect(tickDecimals(1, 1)).toBe(6);
  });
});

describe("withLivePrice: the header, the chart and the change tile from one series", () => {
  it("ends the chart at the header's price and names a jump from kept exit fees (issue 29)", () => {
    // Two strikes at 1.000001, then a 25,000 USDC exit whose 25 USDC fee stayed with ~25,000 of shares:
    // the chain's price is 1.001001 while the last strike still says 1.000001.
    const strikes = points([1.000001, 1.000001], 60);
    const series = withLivePrice(strikes, { time: 1_200, sharePrice: 1.001001 });
    expect(series.points.at(-1)).toEqual({ time: 1_200, sharePrice: 1.001001, live: true });
    expect(series.feesKept).toEqual({
      since: 1_060,
      from: 1.000001,
      to: 1.001001,
      change: expect.closeTo(0.001, 6) as number,
    });
    // The change tile reads the same line: +0.1%, not +0.0000%.
    expect(observedApy(series.points, DAY)?.change).toBeCloseTo(0.001, 6);
  });

  it("says nothing of fees when the price only moved by rounding dust", () => {
    const series = withLivePrice(points([1.000001], 60), { time: 2_000, sharePrice: 1.0000012 });
    expect(series.feesKept).toBeNull();
    expect(series.points).toHaveLength(2);
  });

  it("has no series before the first strike, and never puts the live point before the last strike", () => {
    expect(withLivePrice([], { time: 5, sharePrice: 1 })).toEqual({ points: [], feesKept: null });
    expect(withLivePrice(points([1], 60), { time: 10, sharePrice: 1 }).points.at(-1)?.time).toBe(1_000);
  });
});
