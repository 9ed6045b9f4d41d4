// GET /api/vault/{vault_id}/pnl-history?wallet=&from=&to=&interval= — the wallet's unrealized and
// realized PnL in the vault at each point, pnlPct in percent as the spec says (read scope).
import { pnlHistoryPoints } from "../../vault/reads/position-history";
import { MAX_SERIES_POINTS, pnlHistoryResponse } from "../schemas/position-history";
import { partnerEndpoint } from "../endpoint";
import { walletSeries, walletSeriesOptions, walletSeriesSample } from "./wallet-position-series";

export const getPnlHistory = partnerEndpoint({
  ...walletSeriesOptions,
  operationId: "getPnlHistory",
  path: "/api/vault/:vault_id/pnl-history",
  summary: `The wallet's unrealized and realized PnL in the vault over time (asset units) and pnlPct in percent (8.24 = 8.24%); at most ${MAX_SERIES_POINTS} points`,
  response: pnlHistoryResponse,
  sample: walletSeriesSample("/api/vault/:vault_id/pnl-history"),
  handler: (call) => walletSeries(call, pnlHistoryPoints),
});
