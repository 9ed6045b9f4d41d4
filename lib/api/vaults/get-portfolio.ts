// GET /api/portfolio?wallet= — the wallet's positions across the vaults its key may see: shares, value,
// cost basis and PnL (fractions), pending withdrawal (read scope).
import { findAssociatedTokenAddress } from "../../chain/spl-token";
import { indexerStoreOf } from "../../indexer/start";
import { portfolioPosition } from "../../vault/portfolio";
import { tokenAmount } from "../../vault/token-amount";
import { withPartnerKey } from "../partner";
import { portfolioQuery } from "../schemas/portfolio";
import { indexedVaults, keyAllowsVault } from "./indexed-reads";

export const getPortfolio = withPartnerKey(
  async ({ input, context, principal }) => {
    const wallet = input.wallet.toBase58();
    const vaults = (await indexedVaults(context)).filter((entry) =>
      keyAllowsVault(principal.vaults, entry.row.vault),
    );
    // Share balances through the account cache: one batched read, shared with other requests.
    const accounts = await context.chain.getAccounts(
      vaults.map((entry) => findAssociatedTokenAddress(input.wallet, entry.vault.state.shareMint)),
      "cached",
    );
    const store = indexerStoreOf(context);
    const positions = [];
    for (const [index, entry] of vaults.entries()) {
      const account = accounts[index];
      const held =
        account === null || account === undefined || account.data.length < 72
          ? 0n
          : account.data.readBigUInt64LE(64);
      const events = await store.events(entry.row.vault, { owner: wallet });
      if (held > 0n || events.length > 0) {
        positions.push(portfolioPosition(entry.vault, held, events));
      }
    }
    const totals = new Map<string, { value: bigint; label: (typeof vaults)[number]["vault"]["asset"] }>();
    for (const position of positions) {
      const asset = vaults.find((entry) => entry.row.vault === position.vaultId)?.vault.asset;
      if (asset !== undefined) {
        const key = asset.mint.toBase58();
        const total = totals.get(key) ?? { value: 0n, label: asset };
        total.value += BigInt(position.value.amount);
        totals.set(key, total);
      }
    }
    return {
      wallet,
      positions,
      totalValue: [...totals.values()].map((total) => tokenAmount(total.label, total.value)),
    };
  },
  {
    scope: "read",
    input: { from: "query", schema: portfolioQuery },
    target: (input) => ({ vault: null, wallet: input.wallet }),
  },
);
