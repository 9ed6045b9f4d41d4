// POST (and PUT, its alias) /api/vault/{vault_id}/withdraw — builds an initiate, claim or cancel
// transaction, the action detected from on-chain state unless given (cancel only when given; write scope).
import { buildWithdrawTransaction } from "../../vault/operations/build-withdraw-transaction";
import { partnerEndpoint } from "../endpoint";
import { vaultPathParams } from "../schemas/common";
import { withdrawRequest, withdrawResponse } from "../schemas/withdraw";

export const postWithdraw = partnerEndpoint({
  operationId: "buildWithdraw",
  method: "POST",
  path: "/api/vault/:vault_id/withdraw",
  summary:
    "Initiate a withdrawal, claim a pending one (action detected from on-chain state unless given), or cancel a pending one (action: cancel)",
  scope: "write",
  params: vaultPathParams,
  input: { from: "body", schema: withdrawRequest },
  response: withdrawResponse,
  statuses: [404, 409, 413, 415, 422],
  names: "vault-and-wallet",
  target: (input, params) => ({ vault: params.vault_id, wallet: input.wallet }),
  sample: ({ vault, wallet }) => ({
    path: `/api/vault/${vault}/withdraw`,
    body: { wallet, sharesAmount: "1000000" },
  }),
  handler: async ({ input, params, context }) =>
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
});
