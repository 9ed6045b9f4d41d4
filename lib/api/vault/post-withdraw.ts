// POST (and PUT, its alias) /api/vault/{vault_id}/withdraw — builds an initiate or claim transaction,
// the action detected from on-chain state unless given (write scope).
import { buildWithdrawTransaction } from "../../vault/withdraw";
import { vaultPathParams } from "../schemas/common";
import { withdrawRequest } from "../schemas/withdraw";
import { withPartnerKey } from "../partner";

export const postWithdraw = withPartnerKey(
  async ({ input, params, context }) =>
    buildWithdrawTransaction(
      context.deps,
      {
        navIntervalSeconds: context.config.navIntervalSeconds,
        stageIntervalSeconds: context.config.stageIntervalSeconds,
      },
      {
        vault: params.vault_id,
        wallet: input.wallet,
        sharesAmount: input.sharesAmount,
        action: input.action,
      },
    ),
  {
    scope: "write",
    params: vaultPathParams,
    input: { from: "body", schema: withdrawRequest },
    target: (input, params) => ({ vault: params.vault_id, wallet: input.wallet }),
  },
);
