// GET /api/vault/{id}/portfolio-history, /pnl-history and /nav-history over HTTP against the local
// chain with the keeper striking a NAV every second and the indexer running: a wallet deposits and
// requests a withdrawal, the NAV moves, and the series show it (PnL in percent above 0 after yield).
// Happy paths and a table of errors with whole bodies.
import { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Indexer } from "../../lib/indexer/indexer";
import { createIndexer } from "../../lib/server/indexer";
import { waitFor } from "../../localnet/testing";
import { dataOf, startApiHarness, USDC, type ApiHarness } from "./harness";

interface SignedAmount {
  amount: string;
  uiAmount: number;
}
interface PortfolioPoint {
  timestamp: string;
  sharePrice: number | null;
  shares: { amount: string };
  pendingShares: { amount: string };
  value: { amount: string };
  costBasis: { amount: string };
  pnl: SignedAmount;
  realizedPnl: SignedAmount;
  pnlPct: number | null;
  sharePriceChangePct: number | null;
}
interface PnlPoint {
  timestamp: string;
  pnl: SignedAmount;
  realizedPnl: SignedAmount;
  pnlPct: number | null;
}
interface Series<Point> {
  vaultId: string;
  wallet?: string;
  from: string;
  to: string;
  interval: string;
  points: Point[];
}

const DEPOSIT = 100_000n * USDC;
/** 100 shares: the share mint has the asset's 6 decimals plus the program's offset of 3. */
const REQUESTED = 100_000n * USDC;
/** A deposit into a fresh vault mints 1,000 raw share units per raw asset unit. */
const DEPOSITED_SHARES = DEPOSIT * 1_000n;
const HOUR_MS = 3_600_000;

let harness: ApiHarness;
let readKey: string;
let indexer: Indexer;
let investor: string;
let depositedAtMs: number;

beforeAll(async () => {
  harness = await startApiHarness({
    localnet: { keeper: { enabled: true, navIntervalSeconds: 1, apyBps: 1_000, stageIntervalSeconds: 1 } },
  });
  const writeKey = (await harness.createKey({ scope: "write" })).secret;
  readKey = (await harness.createKey({ scope: "read" })).secret;
  const wallet = await harness.fundedWallet(DEPOSIT);
  investor = wallet.publicKey.toBase58();
  depositedAtMs = Date.now();
  const deposit = dataOf(
    await harness.request("POST", `/api/vault/${harness.vaultId}/deposit`, {
      key: writeKey,
      body: { wallet: investor, amount: DEPOSIT.toString() },
    }),
  );
  await harness.signAndSend(String(deposit.transaction), wallet);
  const initiate = dataOf(
    await harness.request("POST", `/api/vault/${harness.vaultId}/withdraw`, {
      key: writeKey,
      body: { wallet: investor, sharesAmount: REQUESTED.toString() },
    }),
  );
  await harness.signAndSend(String(initiate.transaction), wallet);
  indexer = createIndexer(harness.context, { intervalMs: 200, schema: harness.schema });
  indexer.start();
  // The yield since the deposit has to outgrow the deposit's rounding in the vault's favour: wait
  // until the indexed NAV strikes put the position in profit.
  await waitFor(async () => {
    // 503 until the indexer has read the vault once.
    const result = await get(`/api/vault/${harness.vaultId}/pnl-history?wallet=${investor}`);
    if (result.status !== 200) {
      return undefined;
    }
    const last = (dataOf(result) as unknown as Series<PnlPoint>).points.at(-1);
    return last !== undefined && last.pnlPct !== null && last.pnlPct > 0 ? true : undefined;
  });
});

afterAll(async () => {
  await indexer?.stop();
  await harness?.close();
});

function get(path: string) {
  return harness.request("GET", path, { key: readKey });
}

async function portfolioHistory(query: string): Promise<Series<PortfolioPoint>> {
  return dataOf(
    await get(`/api/vault/${harness.vaultId}/portfolio-history?${query}`),
  ) as unknown as Series<PortfolioPoint>;
}

async function pnlHistory(query: string): Promise<Series<PnlPoint>> {
  return dataOf(
    await get(`/api/vault/${harness.vaultId}/pnl-history?${query}`),
  ) as unknown as Series<PnlPoint>;
}

/** pnl / basis in percent, truncated at six decimals, from the integers (what the API promises). */
function exactPercent(pnl: string, basis: string): number {
  return Number((BigInt(pnl) * 100_000_000n) / BigInt(basis)) / 1e6;
}

describe("GET /api/vault/{id}/portfolio-history", () => {
  it("shows the position from before the deposit to now: shares, value over cost, pnlPct in percent", async () => {
    const from = new Date(depositedAtMs - 2 * HOUR_MS).toISOString();
    const series = await portfolioHistory(`wallet=${investor}&from=${from}&interval=hour`);
    expect(series).toMatchObject({ vaultId: harness.vaultId, wallet: investor, from, interval: "hour" });
    const [first, ...rest] = series.points;
    const last = rest.at(-1);
    // Before the deposit: nothing held, no basis, no percent.
    expect(first).toMatchObject({
      timestamp: from,
      shares: { amount: "0" },
      value: { amount: "0" },
      costBasis: { amount: "0" },
      pnl: { amount: "0" },
      pnlPct: null,
    });
    // The inside points fall on the hour; the last is `to`.
    for (const point of rest.slice(0, -1)) {
      expect(point.timestamp).toMatch(/T\d\d:00:00\.000Z$/);
    }
    expect(last?.timestamp).toBe(series.to);
    expect(last).toMatchObject({
      shares: { amount: (DEPOSITED_SHARES - REQUESTED).toString(), symbol: "vUSDC" },
      pendingShares: { amount: REQUESTED.toString() },
      costBasis: { amount: DEPOSIT.toString(), symbol: "USDC" },
      realizedPnl: { amount: "0" },
    });
    if (last === undefined) {
      return;
    }
    expect(BigInt(last.value.amount)).toBe(BigInt(last.costBasis.amount) + BigInt(last.pnl.amount));
    expect(BigInt(last.pnl.amount)).toBeGreaterThan(0n);
    // Percent, not a fraction, and exact from the integers.
    expect(last.pnlPct).toBe(exactPercent(last.pnl.amount, last.costBasis.amount));
    expect(last.pnlPct).toBeGreaterThan(0);
    expect(last.sharePrice).toBeGreaterThan(1);
  });

  it("agrees with GET /api/portfolio on the cost basis, and gives pnlPct as 100 × its PnL fraction", async () => {
    // The portfolio reads the wallet's share balance through the chain account cache: wait until it
    // has seen the request move shares to escrow.
    const positions = await waitFor(async () => {
      const { positions: read } = dataOf(await get(`/api/portfolio?wallet=${investor}`)) as {
        positions: { shares: { amount: string }; costBasis: { amount: string }; pnl: { fraction: number } }[];
      };
      return read[0]?.shares.amount === (DEPOSITED_SHARES - REQUESTED).toString() ? read : undefined;
    });
    const last = (await portfolioHistory(`wallet=${investor}`)).points.at(-1);
    expect(last?.costBasis.amount).toBe(positions[0]?.costBasis.amount);
    // The portfolio values at the indexed vault account, the series at the last NAV strike: a strike apart.
    expect(last?.pnlPct).toBeCloseTo((positions[0]?.pnl.fraction ?? 0) * 100, 2);
  });

  it("defaults to the last 30 days by day, ending now", async () => {
    const series = await portfolioHistory(`wallet=${investor}`);
    expect(series.interval).toBe("day");
    expect(Date.parse(series.to) - Date.parse(series.from)).toBe(30 * 24 * HOUR_MS);
    expect(series.points.length).toBeGreaterThanOrEqual(31);
    expect(series.points.length).toBeLessThanOrEqual(32);
    expect(series.points.at(-1)?.pnlPct).toBeGreaterThan(0);
  });

  it("is a flat series of zeros for a wallet without events", async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    const series = await portfolioHistory(`wallet=${wallet}&interval=week`);
    expect(series.points.length).toBeGreaterThan(0);
    for (const point of series.points) {
      expect(point).toMatchObject({ value: { amount: "0" }, costBasis: { amount: "0" }, pnlPct: null });
    }
  });
});

describe("GET /api/vault/{id}/pnl-history", () => {
  it("gives unrealized and realized PnL with pnlPct in percent, matching portfolio-history", async () => {
    const to = new Date().toISOString();
    const from = new Date(depositedAtMs - HOUR_MS).toISOString();
    const [pnl, portfolio] = await Promise.all([
      pnlHistory(`wallet=${investor}&from=${from}&to=${to}&interval=hour`),
      portfolioHistory(`wallet=${investor}&from=${from}&to=${to}&interval=hour`),
    ]);
    expect(pnl.points.map((point) => point.timestamp)).toEqual(
      portfolio.points.map((point) => point.timestamp),
    );
    expect(pnl.points).toEqual(
      portfolio.points.map((point) => ({
        timestamp: point.timestamp,
        pnl: point.pnl,
        realizedPnl: point.realizedPnl,
        pnlPct: point.pnlPct,
      })),
    );
    const last = pnl.points.at(-1);
    expect(last?.pnlPct).toBeGreaterThan(0);
    expect(last?.pnlPct).toBeLessThan(1);
  });
});

describe("GET /api/vault/{id}/nav-history", () => {
  it("gives the indexed NAV strikes' share price at each point, rising with the keeper's yield", async () => {
    const from = new Date(depositedAtMs - HOUR_MS).toISOString();
    const series = dataOf(
      await get(`/api/vault/${harness.vaultId}/nav-history?from=${from}&interval=hour`),
    ) as {
      points: { sharePrice: number | null; navSequence: string | null; struckAt: string | null }[];
    };
    const last = series.points.at(-1);
    expect(last?.sharePrice).toBeGreaterThan(1);
    expect(Number(last?.navSequence)).toBeGreaterThan(1);
    expect(Date.parse(last?.struckAt ?? "")).toBeGreaterThan(depositedAtMs - 1_000);
    const prices = series.points.flatMap((point) => (point.sharePrice === null ? [] : [point.sharePrice]));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it("gives a young vault's strikes by minute from the stats' firstNavAt, priced from the first point", async () => {
    const { firstNavAt } = dataOf(await get(`/api/vault/${harness.vaultId}/stats`));
    expect(firstNavAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
    const series = dataOf(
      await get(`/api/vault/${harness.vaultId}/nav-history?from=${String(firstNavAt)}&interval=minute`),
    ) as unknown as Series<{ timestamp: string; sharePrice: number | null; navSequence: string | null }>;
    expect(series).toMatchObject({ from: firstNavAt, interval: "minute" });
    expect(series.points[0]?.sharePrice).toEqual(expect.any(Number));
    // The inside points fall on the minute; the last is `to`.
    for (const point of series.points.slice(1, -1)) {
      expect(point.timestamp).toMatch(/:00\.000Z$/);
    }
    expect(series.points.at(-1)?.timestamp).toBe(series.to);
    expect(new Set(series.points.map((point) => point.navSequence)).size).toBeGreaterThanOrEqual(2);
  });
});

describe.each(["portfolio-history", "pnl-history", "nav-history"])(
  "GET /api/vault/{id}/%s errors",
  (route) => {
    const needsWallet = route !== "nav-history";
    const wallet = () => (needsWallet ? `wallet=${investor}&` : "");
    const cases: [string, () => string, number, Record<string, unknown>][] = [
      [
        "a malformed from",
        () => `${wallet()}from=yesterday`,
        400,
        {
          code: "INVALID_REQUEST",
          error:
            "from: must be an ISO 8601 date or date-time with a time zone, e.g. 2025-06-01 or 2025-06-01T12:00:00Z",
        },
      ],
      [
        "a date that does not exist",
        () => `${wallet()}from=2025-02-30`,
        400,
        {
          code: "INVALID_REQUEST",
          error:
            "from: must be an ISO 8601 date or date-time with a time zone, e.g. 2025-06-01 or 2025-06-01T12:00:00Z",
        },
      ],
      [
        "a date-time without a time zone",
        () => `${wallet()}to=2025-06-01T12:00:00`,
        400,
        {
          code: "INVALID_REQUEST",
          error:
            "to: must be an ISO 8601 date or date-time with a time zone, e.g. 2025-06-01 or 2025-06-01T12:00:00Z",
        },
      ],
      [
        "an unknown interval",
        () => `${wallet()}interval=second`,
        400,
        { code: "INVALID_REQUEST", error: "interval: must be one of minute, hour, day, week" },
      ],
      [
        "from after to",
        () => `${wallet()}from=2025-02-01&to=2025-01-01T00:00:00Z`,
        400,
        { code: "INVALID_REQUEST", error: "from: must not be after to (2025-01-01T00:00:00.000Z)" },
      ],
      [
        "more points than one response carries",
        () => `${wallet()}from=2024-01-01&to=2025-01-01&interval=hour`,
        400,
        {
          code: "INVALID_REQUEST",
          error:
            "interval: 2024-01-01T00:00:00.000Z to 2025-01-01T00:00:00.000Z by hour is 8785 points; at most 1000 per response: choose a longer interval or a shorter from–to window",
        },
      ],
      [
        "more minutes than one response carries",
        () => `${wallet()}from=2025-01-01&to=2025-01-02&interval=minute`,
        400,
        {
          code: "INVALID_REQUEST",
          error:
            "interval: 2025-01-01T00:00:00.000Z to 2025-01-02T00:00:00.000Z by minute is 1441 points; at most 1000 per response: choose a longer interval or a shorter from–to window",
        },
      ],
      [
        "a parameter given twice",
        () => `${wallet()}interval=day&interval=week`,
        400,
        { code: "INVALID_REQUEST", error: "interval: must be given once" },
      ],
    ];
    if (needsWallet) {
      cases.push(
        ["no wallet", () => "interval=day", 400, { code: "INVALID_REQUEST", error: "wallet: is required" }],
        [
          "a wallet that is no address",
          () => "wallet=nope",
          400,
          { code: "INVALID_REQUEST", error: "wallet: must be a base58 public key" },
        ],
      );
    }

    it.each(cases)("refuses %s", async (_name, query, status, body) => {
      const result = await get(`/api/vault/${harness.vaultId}/${route}?${query()}`);
      expect(result.status).toBe(status);
      expect(result.body).toEqual({ success: false, ...body, requestId: result.headers.get("x-request-id") });
    });

    it("answers 404 for an address that is no vault and 400 for one that is no address", async () => {
      const unknown = Keypair.generate().publicKey.toBase58();
      const missing = await get(`/api/vault/${unknown}/${route}?${wallet()}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({
        success: false,
        code: "VAULT_NOT_FOUND",
        error: `No vault exists at ${unknown}`,
        context: { vault: unknown },
        requestId: missing.headers.get("x-request-id"),
      });
      const malformed = await get(`/api/vault/not-an-address/${route}?${wallet()}`);
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({
        success: false,
        code: "INVALID_REQUEST",
        error: "vault_id: must be a base58 public key",
        requestId: malformed.headers.get("x-request-id"),
      });
    });

    it("answers 405 to other methods", async () => {
      const result = await harness.request("POST", `/api/vault/${harness.vaultId}/${route}`, {
        key: readKey,
        body: {},
      });
      expect(result.status).toBe(405);
      expect(result.body).toMatchObject({ success: false, code: "METHOD_NOT_ALLOWED" });
    });
  },
);
