// POST /api/vault/{vault_id}/deposit — builds an unsigned deposit transaction (write scope). A key
// that carries a partner builds a deposit that pays that partner's fee (details.partnerFee); the app's
// pages build with the partner an embed names (`partner`, a key id).
import { PublicKey } from "@solana/web3.js";

import { buildDepositTransaction } from "../../vault/operations/build-deposit-transaction";
import type { KeyPartner } from "../../store/api-keys";
import type { ApiContext } from "../context";
import { partnerEndpoint } from "../endpoint";
import { ApiError } from "../errors";
import { vaultPathParams } from "../schemas/common";
import { depositRequest, depositResponse } from "../schemas/deposit";
import type { Principal } from "../types";

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
  handler: async ({ input, params, principal, context }) => {
    const partner = await partnerOf(principal, input.partner, context);
    return buildDepositTransaction(
      context.deps,
      { slippageBps: context.config.depositSlippageBps },
      {
        vault: params.vault_id,
        wallet: input.wallet,
        // The spec: `amount` wins when both are present.
        amount: input.amount !== undefined ? { raw: input.amount } : { ui: input.uiAmount ?? 0 },
        partner: partner === null ? null : { wallet: new PublicKey(partner.wallet), feeBps: partner.feeBps },
      },
    );
  },
});

/**
 * Whose partner fee the deposit pays: a partner key's own partner; for the app's pages, the partner an
 * embed names by its key id (an active key that carries a partner), else none.
 */
async function partnerOf(
  principal: Principal,
  named: string | undefined,
  context: ApiContext,
): Promise<KeyPartner | null> {
  if (named === undefined) {
    return principal.partner ?? null;
  }
  if (principal.source !== "first-party") {
    throw new ApiError(
      "FORBIDDEN",
      "`partner` is for the app's own pages (an embed's partner); a key's deposits pay its own partner's fee",
    );
  }
  const partner = await context.store.keys.activePartnerOf(named);
  if (partner === null) {
    throw new ApiError("INVALID_REQUEST", `partner: ${named} is not an active partner key`);
  }
  return partner;
}
