// GET /api/vault/{vault_id}/withdraw?wallet= — the wallet's withdrawal status (read scope).
import { getWithdrawalStatus } from "../../vault/withdrawal-status";
import { vaultPathParams } from "../schemas/common";
import { withdrawStatusQuery } from "../schemas/withdraw";
import { withPartnerKey } from "../partner";

export const getWithdraw = withPartnerKey(
  async ({ input, params, context }) =>
    getWithdrawalStatus(
      context.deps,
      context.store.history,
      {
        navIntervalSeconds: context.config.navIntervalSeconds,
        stageIntervalSeconds: context.config.stageIntervalSeconds,
        stagingPace: context.stagingPace,
      },
      { vault: params.vault_id, wallet: input.wallet },
    ),
  {
    scope: "read",
    params: vaultPathParams,
    input: { from: "query", schema: withdrawStatusQuery },
    target: (input, params) => ({ vault: params.vault_id, wallet: input.wallet }),
  },
);
