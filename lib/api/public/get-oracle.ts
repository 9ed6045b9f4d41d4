// GET /api/oracle[?vault=] — keyless: the share price (NAV per share) of the default vault, cached
// ~10 s in process with one chain read per expiry however many callers wait.
import { loadVault } from "../../vault/model/vault-state";
import { sharePrice } from "../../vault/model/share-math";
import { publicEndpoint } from "../endpoint";
import { PUBLIC_LIMIT, publicVaultRead } from "../with-public";
import { oracleBody, publicVaultQuery } from "../schemas/public";

export const getOracle = publicEndpoint({
  operationId: "getOracle",
  method: "GET",
  path: "/api/oracle",
  summary: "Share price (NAV per share, USD), cached ~10 s",
  limit: PUBLIC_LIMIT,
  query: publicVaultQuery,
  response: oracleBody,
  statuses: [404],
  handler: async ({ query, context }) => {
    const price = await publicVaultRead(context, query, context.publicReads.prices, async (vault) => {
      const { state } = await loadVault(context.deps, vault, "fresh");
      return sharePrice(state.totalAssets, state.totalShares);
    });
    return { sharePrice: price };
  },
});
