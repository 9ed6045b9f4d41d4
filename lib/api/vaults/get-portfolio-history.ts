// GET /api/vault/{vault_id}/portfolio-history?wallet=&from=&to=&interval= — the wallet's position in
// the vault at each point: shares, value, cost basis, PnL, and pnlPct and sharePriceChangePct in
// percent as the spec says (read scope).
import { portfolioHistoryPoints } from "../../vault/reads/position-history";
import { MAX_SERIES_POINTS, portfolioHistoryResponse } from "../schemas/position-history";
import { partnerEndpoint } from "../endpoint";
import { walletSeries, walletSeriesOptions, walletSeriesSample } from "./wallet-position-series";

export const getPortfolioHistory = partnerEndpoint({
  ...walletSeriesOptions,
  operationId: "getPortfolioHistory",
  path: "/api/vault/:vault_id/portfolio-history",
  summary: `The wallet's position in the vault over time: shares, value, cost basis, PnL; pnlPct and sharePriceChangePct in percent (8.24 = 8.24%). Points at from, each UTC hour/day/week boundary and to; at most ${MAX_SERIES_POINTS}`,
  response: portfolioHistoryResponse,
  sample: walletSeriesSample("/api/vault/:vault_id/portfolio-history"),
  handler: (call) => walletSeries(call, portfolioHistoryPoints),
});
