// POST /api/actions/vault/{vault_id}/deposit
import { prepareDepositAction } from "../../actions/vault-actions";
import { loadVault } from "../../vault/model/vault-state";
import { depositActionQuery } from "../schemas/actions";
import { vaultActionPost } from "./action-facts";

export const postDepositAction = vaultActionPost({
  operationId: "postDepositAction",
  kind: "deposit",
  summary: "The unsigned v0 deposit transaction for the account (?amount= in the asset's units)",
  query: depositActionQuery,
  prepare: async ({ vault, account, query, context }) =>
    prepareDepositAction(
      context.deps,
      { slippageBps: context.config.depositSlippageBps },
      await loadVault(context.deps, vault, "cached"),
      { vault, account, amount: query.amount },
    ),
});
