// The pages' client of the partner API: same-origin fetches that the first-party session cookie
// authenticates (no key in the browser), every answer checked against the API's own zod schemas.
// Loaded on demand, after the first paint.
import type { z } from "zod";

import { depositData } from "../api/schemas/deposit";
import { activitySchema, historyFeedResponse, historyRecordResponse } from "../api/schemas/history";
import { portfolioResponse } from "../api/schemas/portfolio";
import { navHistoryResponse } from "../api/schemas/position-history";
import { vaultNavSchema, vaultStatsSchema, vaultSummarySchema, vaultsResponse } from "../api/schemas/vaults";
import { withdrawData, withdrawalStatusData } from "../api/schemas/withdraw";
import { domainContextOf } from "../vault/model/domain-errors";
import { ApiRequestError, AppUnreachableError } from "./errors";

export type DepositData = z.output<typeof depositData>;
export type WithdrawData = z.output<typeof withdrawData>;
/** The API's withdrawal status as the pages name it: the spec's `estimatedUsdcAmount` is in any asset. */
const pagesWithdrawalStatus = withdrawalStatusData.transform(({ estimatedUsdcAmount, ...status }) => ({
  ...status,
  estimatedAssetAmount: estimatedUsdcAmount,
}));
export type WithdrawalStatusData = z.output<typeof pagesWithdrawalStatus>;
export type ActivityData = z.output<typeof activitySchema>;
export type VaultSummaryData = z.output<typeof vaultSummarySchema>;
export type VaultStatsData = z.output<typeof vaultStatsSchema>;
export type VaultNavData = z.output<typeof vaultNavSchema>;
export type PortfolioData = z.output<typeof portfolioResponse.shape.data>;
export type NavHistoryData = z.output<typeof navHistoryResponse.shape.data>;

interface Envelope {
  success?: unknown;
  data?: unknown;
  error?: unknown;
  details?: unknown;
  code?: unknown;
  context?: unknown;
}

async function call<S extends z.ZodType>(
  path: string,
  init: { method: "GET" | "POST"; body?: unknown },
  schema: S,
): Promise<z.output<S>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method,
      credentials: "same-origin",
      headers: init.body === undefined ? {} : { "Content-Type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      cache: "no-store",
    });
  } catch (error) {
    throw new AppUnreachableError(error instanceof Error ? error.message : String(error));
  }
  let body: Envelope;
  try {
    body = (await response.json()) as Envelope;
  } catch {
    throw new ApiRequestError(
      response.status,
      "INVALID_RESPONSE",
      `The app answered HTTP ${response.status}`,
    );
  }
  if (body.success !== true) {
    const retryAfter = Number(response.headers.get("retry-after"));
    throw new ApiRequestError(
      response.status,
      typeof body.code === "string" ? body.code : "UNKNOWN",
      typeof body.error === "string" ? body.error : `The app answered HTTP ${response.status}`,
      typeof body.details === "string" ? body.details : null,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
      typeof body.code === "string" ? domainContextOf(body.code, body.context) : null,
    );
  }
  const parsed = schema.safeParse(body.data);
  if (!parsed.success) {
    throw new ApiRequestError(response.status, "INVALID_RESPONSE", "The app answered in an unexpected shape");
  }
  return parsed.data;
}

function vaultPath(vaultId: string, action: "deposit" | "withdraw"): string {
  return `/api/vault/${encodeURIComponent(vaultId)}/${action}`;
}

/** GET /api/vault/{id}/withdraw?wallet= */
export function getWithdrawalStatus(vaultId: string, wallet: string): Promise<WithdrawalStatusData> {
  return call(
    `${vaultPath(vaultId, "withdraw")}?wallet=${encodeURIComponent(wallet)}`,
    { method: "GET" },
    pagesWithdrawalStatus,
  );
}

/** POST /api/vault/{id}/deposit with raw units (as a string: amounts stay exact). */
/** POST /api/vault/{id}/deposit; `partner`: an embed's partner key id, whose fee the deposit pays. */
export function buildDeposit(
  vaultId: string,
  wallet: string,
  amount: bigint,
  partner: string | null = null,
): Promise<DepositData> {
  return call(
    vaultPath(vaultId, "deposit"),
    {
      method: "POST",
      body: { wallet, amount: amount.toString(), ...(partner === null ? {} : { partner }) },
    },
    depositData,
  );
}

/**
 * POST /api/vault/{id}/withdraw. No `action`: the API detects it from the chain (initiate when nothing
 * is pending, claim otherwise), as the spec's clients do; the caller checks it got what it meant.
 */
export function buildWithdraw(
  vaultId: string,
  wallet: string,
  sharesAmount: bigint | null,
): Promise<WithdrawData> {
  return call(
    vaultPath(vaultId, "withdraw"),
    {
      method: "POST",
      body: sharesAmount === null ? { wallet } : { wallet, sharesAmount: sharesAmount.toString() },
    },
    withdrawData,
  );
}

/** POST /api/vault/{id}/withdraw with action cancel: the cancel of the wallet's pending request. */
export function buildCancel(vaultId: string, wallet: string): Promise<WithdrawData> {
  return call(
    vaultPath(vaultId, "withdraw"),
    { method: "POST", body: { wallet, action: "cancel" } },
    withdrawData,
  );
}

/** POST /api/history: records a confirmed signature (a duplicate counts as success). */
export async function recordHistory(
  vaultId: string,
  wallet: string,
  signature: string,
): Promise<ActivityData> {
  const data = await call(
    "/api/history",
    { method: "POST", body: { wallet, vault_id: vaultId, signature } },
    historyRecordResponse.shape.data,
  );
  return data.activity;
}

/** GET /api/history?wallet=&vault_id= */
export async function getHistory(vaultId: string, wallet: string, limit = 50): Promise<ActivityData[]> {
  const data = await call(
    `/api/history?wallet=${encodeURIComponent(wallet)}&vault_id=${encodeURIComponent(vaultId)}&limit=${limit}`,
    { method: "GET" },
    historyFeedResponse.shape.data,
  );
  return data.activity;
}

/** GET /api/vaults: the directory, from the indexer (APY 7d/30d from NAV snapshots). */
export async function getVaults(): Promise<VaultSummaryData[]> {
  const data = await call("/api/vaults", { method: "GET" }, vaultsResponse.shape.data);
  return data.vaults;
}

/** GET /api/vault/{id}/stats: TVL, depositors, APY, the withdrawal queue. */
export function getVaultStats(vaultId: string): Promise<VaultStatsData> {
  return call(`/api/vault/${encodeURIComponent(vaultId)}/stats`, { method: "GET" }, vaultStatsSchema);
}

/** GET /api/vault/{id}/nav: the last NAV the indexer recorded (what the page shows when the chain is silent). */
export function getVaultNav(vaultId: string): Promise<VaultNavData> {
  return call(`/api/vault/${encodeURIComponent(vaultId)}/nav`, { method: "GET" }, vaultNavSchema);
}

/** GET /api/vault/{id}/nav-history?from=&interval=: the share price at each point, up to now. */
export function getNavHistory(
  vaultId: string,
  window: { fromMs: number; interval: NavHistoryData["interval"] },
): Promise<NavHistoryData> {
  const query = `from=${encodeURIComponent(new Date(window.fromMs).toISOString())}&interval=${window.interval}`;
  return call(
    `/api/vault/${encodeURIComponent(vaultId)}/nav-history?${query}`,
    { method: "GET" },
    navHistoryResponse.shape.data,
  );
}

/** GET /api/portfolio?wallet=: positions with value, cost basis, PnL and pending withdrawals. */
export function getPortfolio(wallet: string): Promise<PortfolioData> {
  return call(
    `/api/portfolio?wallet=${encodeURIComponent(wallet)}`,
    { method: "GET" },
    portfolioResponse.shape.data,
  );
}
