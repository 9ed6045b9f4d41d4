// GET /api/oracle[?vault=] — keyless: the share price (NAV per share) of the default vault, cached
// ~10 s in process with one chain read per expiry however many callers wait.
import { loadVault } from "../../vault/model/vault-state";
import { sharePrice } from "../../vault/model/share-math";
import { publicEndpoint } from "../endpoint";
import { oracleBody } from "../schemas/public";

export const getOracle = publicEndpoint({
  operationId: "getOracle",
  path: "/api/oracle",
  summary: "Share price (NAV per share, USD), cached ~10 s",
  response: oracleBody,
  read: async (vault, context) => {
    const { state } = await loadVault(context.deps, vault, "fresh");
    return { sharePrice: sharePrice(state.totalAssets, state.totalShares) };
  },
});
