// GET /api/actions/vault/{vault_id}/withdraw
import { withdrawActionMetadata } from "../../actions/vault-actions";
import { withdrawActionQuery } from "../schemas/actions";
import { vaultActionGet } from "./action-facts";

export const getWithdrawAction = vaultActionGet({
  operationId: "getWithdrawAction",
  kind: "withdraw",
  summary: "Withdraw action: by value or by shares (?amount= or ?shares= offers that amount first)",
  query: withdrawActionQuery,
  metadata: (facts, site, query) =>
    withdrawActionMetadata(facts, site, { amount: query.amount, shares: query.shares }),
});
