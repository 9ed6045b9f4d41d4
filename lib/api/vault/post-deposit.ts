// POST /api/vault/{vault_id}/deposit — builds an unsigned deposit transaction (write scope).
import { buildDepositTransaction } from "../../vault/deposit";
import { vaultPathParams } from "../schemas/common";
import { depositRequest } from "../schemas/deposit";
import { withPartnerKey } from "../partner";

export const postDeposit = withPartnerKey(
  async ({ input, params, context }) =>
    buildDepositTransaction(
      context.deps,
      { slippageBps: context.config.depositSlippageBps },
      {
        vault: params.vault_id,
        wallet: input.wallet,
        // The spec: `amount` wins when both are present.
        amount: input.amount !== undefined ? { raw: input.amount } : { ui: input.uiAmount ?? 0 },
      },
    ),
  {
    scope: "write",
    params: vaultPathParams,
    input: { from: "body", schema: depositRequest },
    target: (input, params) => ({ vault: params.vault_id, wallet: input.wallet }),
  },
);
