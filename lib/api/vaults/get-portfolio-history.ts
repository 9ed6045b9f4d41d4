// GET /api/vault/{vault_id}/portfolio-history?wallet=&from=&to=&interval= — the wallet's position in
// the vault at each point: shares, value, cost basis, PnL, and pnlPct and sharePriceChangePct in
// percent as the spec says (read scope).
import { portfolioHistoryPoints } from "../../vault/position-history";
import { withPartnerKey } from "../partner";
import { vaultPathParams } from "../schemas/common";
import { positionHistoryQuery } from "../schemas/position-history";
import { indexedVault } from "./indexed-reads";
import { resolveSeriesWindow, seriesFields } from "./series-window";
import { walletPositionSeries } from "./wallet-position-series";

export const getPortfolioHistory = withPartnerKey(
  async ({ input, params, context }) => {
    const window = resolveSeriesWindow(input, context.deps.now());
    const entry = await indexedVault(context, params.vault_id);
    const points = await walletPositionSeries(context, entry, input.wallet, window);
    return {
      ...seriesFields(entry.row.vault, window),
      wallet: input.wallet.toBase58(),
      points: portfolioHistoryPoints(entry.vault, points),
    };
  },
  {
    scope: "read",
    params: vaultPathParams,
    input: { from: "query", schema: positionHistoryQuery },
    target: (input, params) => ({ vault: params.vault_id, wallet: input.wallet }),
  },
);
