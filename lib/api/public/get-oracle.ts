// GET /api/oracle[?vault=] — keyless: the share price (NAV per share) of the default vault, cached
// ~10 s in process with one chain read per expiry however many callers wait.
import { base58Of } from "../../chain/base58";
import { loadVault } from "../../vault/model/vault-state";
import { sharePrice } from "../../vault/model/share-math";
import { publicEndpoint } from "../endpoint";
import { PUBLIC_LIMIT } from "../with-public";
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
    const vault = query.vault ?? context.config.defaultVaultId;
    const price = await context.publicReads.prices.get(base58Of(vault), async () => {
      const { state } = await loadVault(context.deps, vault, "fresh");
      return sharePrice(state.totalAssets, state.totalShares);
    });
    return { sharePrice: price };
  },
});
