// GET /api/portfolio?wallet= — the wallet's positions across the vaults its key may see: shares, value,
// cost basis and PnL (fractions), pending withdrawal (read scope).
import type { PublicKey } from "@solana/web3.js";

import { findAssociatedTokenAddress } from "../../chain/spl-token";
import type { StoredEvent } from "../../store/indexer";
import { portfolioPosition, type HeldPosition } from "../../vault/reads/portfolio";
import { tokenAmount, type TokenLabel } from "../../vault/model/token-amount";
import type { ApiContext } from "../context";
import { partnerEndpoint } from "../endpoint";
import { portfolioQuery, portfolioResponse } from "../schemas/portfolio";
import { indexedVaults, keyAllowsVault } from "./indexed-reads";

/** The wallet's position in every indexed vault where it holds shares or has events. */
async function walletPositions(context: ApiContext, wallet: PublicKey): Promise<HeldPosition[]> {
  const vaults = await indexedVaults(context);
  // Share balances through the account cache: one batched read, shared with other requests.
  const accounts = await context.chain.getAccounts(
    vaults.map((entry) => findAssociatedTokenAddress(wallet, entry.vault.state.shareMint)),
    "cached",
  );
  // Every vault's events of the wallet in one query, not one per vault.
  const events = await context.store.indexer.walletEvents(
    wallet.toBase58(),
    vaults.map((entry) => entry.row.vault),
  );
  const eventsByVault = new Map<string, StoredEvent[]>();
  for (const event of events) {
    const list = eventsByVault.get(event.vault) ?? [];
    list.push(event);
    eventsByVault.set(event.vault, list);
  }
  const held: HeldPosition[] = [];
  for (const [index, entry] of vaults.entries()) {
    const account = accounts[index];
    const shares =
      account === null || account === undefined || account.data.length < 72
        ? 0n
        : account.data.readBigUInt64LE(64);
    const vaultEvents = eventsByVault.get(entry.row.vault) ?? [];
    if (shares > 0n || vaultEvents.length > 0) {
      held.push({ asset: entry.vault.asset, position: portfolioPosition(entry.vault, shares, vaultEvents) });
    }
  }
  return held;
}

function cachedWalletPositions(context: ApiContext, wallet: PublicKey): Promise<HeldPosition[]> {
  // A dashboard's burst of reads for one wallet costs one store query and one (cached) balance read.
  return context.chainData.portfolios.get(wallet.toBase58(), () => walletPositions(context, wallet));
}

export const getPortfolio = partnerEndpoint({
  operationId: "getPortfolio",
  method: "GET",
  path: "/api/portfolio",
  summary: "The wallet's positions: shares, value, cost basis, PnL (fractions), pending withdrawal",
  scope: "read",
  input: { from: "query", schema: portfolioQuery },
  response: portfolioResponse,
  statuses: [],
  names: "wallet",
  target: (input) => ({ vault: null, wallet: input.wallet }),
  sample: ({ wallet }) => ({ path: `/api/portfolio?wallet=${wallet}` }),
  handler: async ({ input, context, principal }) => {
    const held = (await cachedWalletPositions(context, input.wallet)).filter((entry) =>
      keyAllowsVault(principal.vaults, entry.position.vaultId),
    );
    const totals = new Map<string, { value: bigint; asset: TokenLabel }>();
    for (const { asset, position } of held) {
      const mint = typeof asset.mint === "string" ? asset.mint : asset.mint.toBase58();
      const total = totals.get(mint) ?? { value: 0n, asset };
      total.value += BigInt(position.value.amount);
      totals.set(mint, total);
    }
    return {
      wallet: input.wallet.toBase58(),
      positions: held.map((entry) => entry.position),
      totalValue: [...totals.values()].map((total) => tokenAmount(total.asset, total.value)),
    };
  },
});
