// POST /api/vault/{vault_id}/deposit — builds an unsigned deposit transaction (write scope). A key
// that carries a partner builds a deposit that pays that partner's fee (details.partnerFee).
import { PublicKey } from "@solana/web3.js";

import { buildDepositTransaction } from "../../vault/operations/build-deposit-transaction";
import { partnerEndpoint } from "../endpoint";
import { vaultPathParams } from "../schemas/common";
import { depositRequest, depositResponse } from "../schemas/deposit";

export const postDeposit = partnerEndpoint({
  operationId: "buildDeposit",
  method: "POST",
  path: "/api/vault/:vault_id/deposit",
  summary: "Build an unsigned deposit transaction",
  scope: "write",
  params: vaultPathParams,
  input: { from: "body", schema: depositRequest },
  response: depositResponse,
  statuses: [404, 409, 413, 415, 422],
  names: "vault-and-wallet",
  target: (input, params) => ({ vault: params.vault_id, wallet: input.wallet }),
  sample: ({ vault, wallet }) => ({
    path: `/api/vault/${vault}/deposit`,
    body: { wallet, amount: "1000000" },
  }),
  handler: async ({ input, params, principal, context }) =>
    buildDepositTransaction(
      context.deps,
      { slippageBps: context.config.depositSlippageBps },
      {
        vault: params.vault_id,
        wallet: input.wallet,
        // The spec: `amount` wins when both are present.
        amount: input.amount !== undefined ? { raw: input.amount } : { ui: input.uiAmount ?? 0 },
        partner:
          principal.partner === undefined || principal.partner === null
            ? null
            : { wallet: new PublicKey(principal.partner.wallet), feeBps: principal.partner.feeBps },
      },
    ),
});
