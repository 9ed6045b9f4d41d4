// GET /api/actions/vault/{vault_id}/deposit
import { depositActionMetadata } from "../../actions/vault-actions";
import { depositActionQuery } from "../schemas/actions";
import { vaultActionGet } from "./action-facts";

export const getDepositAction = vaultActionGet({
  operationId: "getDepositAction",
  kind: "deposit",
  summary: "Deposit action: share price, APY, fixed amounts (or ?amount='s) and an {amount} field",
  query: depositActionQuery,
  metadata: (facts, site, query) => depositActionMetadata(facts, site, { amount: query.amount }),
});
