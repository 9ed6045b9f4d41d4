// POST /api/actions/vault/{vault_id}/withdraw
import { prepareWithdrawAction } from "../../actions/vault-actions";
import { loadVault } from "../../vault/model/vault-state";
import { withdrawActionQuery } from "../schemas/actions";
import { schedule, vaultActionPost } from "./action-facts";

export const postWithdrawAction = vaultActionPost({
  operationId: "postWithdrawAction",
  kind: "withdraw",
  summary:
    "The unsigned v0 withdrawal request (?amount= value, or ?shares=); gross, fee and net in the message",
  query: withdrawActionQuery,
  prepare: async ({ vault, account, query, context }) =>
    prepareWithdrawAction(context.deps, schedule(context), await loadVault(context.deps, vault, "cached"), {
      vault,
      account,
      amount: query.amount,
      shares: query.shares,
    }),
});
