// GET /api/vault/{vault_id}/withdraw?wallet= — the wallet's withdrawal status (read scope).
import type { MilestoneSource } from "../../vault/model/withdrawal-milestones";
import { getWithdrawalStatus } from "../../vault/reads/withdrawal-status";
import type { ApiContext } from "../context";
import { partnerEndpoint } from "../endpoint";
import { vaultPathParams } from "../schemas/common";
import { withdrawalStatusResponse, withdrawStatusQuery } from "../schemas/withdraw";

export const getWithdraw = partnerEndpoint({
  operationId: "getWithdrawalStatus",
  method: "GET",
  path: "/api/vault/:vault_id/withdraw",
  summary: "Withdrawal status for a wallet",
  scope: "read",
  params: vaultPathParams,
  input: { from: "query", schema: withdrawStatusQuery },
  response: withdrawalStatusResponse,
  statuses: [404],
  names: "vault-and-wallet",
  target: (input, params) => ({ vault: params.vault_id, wallet: input.wallet }),
  sample: ({ vault, wallet }) => ({ path: `/api/vault/${vault}/withdraw?wallet=${wallet}` }),
  handler: async ({ input, params, context }) => {
    const { estimatedAssetAmount, ...status } = await getWithdrawalStatus(
      context.deps,
      context.store.history,
      {
        navIntervalSeconds: context.config.navIntervalSeconds,
        stageIntervalSeconds: context.config.stageIntervalSeconds,
        stageMaxShares: context.config.stageMaxShares,
        keeperTickSeconds: context.config.keeperTickSeconds,
      },
      { vault: params.vault_id, wallet: input.wallet },
      cachedMilestones(context),
    );
    // The spec's field name; it carries the vault's asset, whatever its symbol.
    return { ...status, estimatedUsdcAmount: estimatedAssetAmount };
  },
});

/** The indexer's milestone events through the context's cache (chain-data-cache.ts). */
function cachedMilestones(context: ApiContext): MilestoneSource {
  return {
    withdrawalMilestoneEvents: (vault, owner, requestId) =>
      context.chainData.withdrawalMilestones.get(`${vault}:${owner}:${requestId ?? "latest"}`, () =>
        context.store.indexer.withdrawalMilestoneEvents(vault, owner, requestId),
      ),
  };
}
