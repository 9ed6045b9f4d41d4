// GET /api/vault/{vault_id}/portfolio-history?wallet=&from=&to=&interval= — the wallet's position in
// the vault at each point: shares, value, cost basis, PnL, and pnlPct and sharePriceChangePct in
// percent as the spec says (read scope).
import { portfolioHistoryPoints } from "../../vault/position-history";
import { walletSeriesEndpoint } from "./wallet-position-series";

export const getPortfolioHistory = walletSeriesEndpoint(portfolioHistoryPoints);
