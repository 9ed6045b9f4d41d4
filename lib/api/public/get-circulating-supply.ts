// GET /api/circulating-supply[?vault=] — keyless: the share token's supply in human units (total
// supply equals circulating supply: no locked tokens), cached ~10 s in process.
import { decodeMint } from "../../chain/spl-token";
import { formatUnits } from "../../vault/model/token-amount";
import { vaultLayout } from "../../vault/model/vault-state";
import { publicEndpoint } from "../endpoint";
import { circulatingSupplyBody } from "../schemas/public";

export const getCirculatingSupply = publicEndpoint({
  operationId: "getCirculatingSupply",
  path: "/api/circulating-supply",
  summary: "Share token supply (human units)",
  response: circulatingSupplyBody,
  read: async (vault, context) => {
    const layout = await vaultLayout(context.deps, vault);
    const [account] = await context.deps.chain.getAccounts([layout.shareMint], "fresh");
    const mint = account === null || account === undefined ? null : decodeMint(account.owner, account.data);
    if (mint === null) {
      throw new Error(`The share mint ${layout.shareMint.toBase58()} is not a mint`);
    }
    return { circulatingSupply: Number(formatUnits(mint.supply, mint.decimals)) };
  },
});
