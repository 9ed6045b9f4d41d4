// GET /api/vault/{vault_id}/pnl-history?wallet=&from=&to=&interval= — the wallet's unrealized and
// realized PnL in the vault at each point, pnlPct in percent as the spec says (read scope).
import { pnlHistoryPoints } from "../../vault/position-history";
import { walletSeriesEndpoint } from "./wallet-position-series";

export const getPnlHistory = walletSeriesEndpoint(pnlHistoryPoints);
