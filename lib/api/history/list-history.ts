// GET /api/history?wallet=&vault_id=&limit=&cursor= — the wallet's recorded activity on a vault, newest
// first, a page at a time (read scope). It needs only the store: the vault is known from the indexer's
// rows, and the chain is asked only about an address they do not hold (so a stalled node does not
// take the activity feed down with it).
import { base58Of } from "../../chain/base58";
import { activityView } from "../../vault/reads/history";
import { loadVault } from "../../vault/model/vault-state";
import { symbolOfMint } from "../context";
import { partnerEndpoint } from "../endpoint";
import { historyCursor, historyFeedResponse, historyQuery } from "../schemas/history";
import { indexedVaults } from "../vaults/indexed-reads";

export const getHistory = partnerEndpoint({
  operationId: "listHistory",
  method: "GET",
  path: "/api/history",
  summary: "A wallet's recorded activity on a vault, newest first",
  scope: "read",
  input: { from: "query", schema: historyQuery },
  response: historyFeedResponse,
  statuses: [404],
  names: "vault-and-wallet",
  target: (input) => ({ vault: input.vault_id, wallet: input.wallet }),
  sample: ({ vault, wallet }) => ({ path: `/api/history?wallet=${wallet}&vault_id=${vault}` }),
  handler: async ({ input, context }) => {
    const vault = base58Of(input.vault_id);
    if (!(await indexedVaults(context)).some((entry) => entry.row.vault === vault)) {
      await loadVault(context.deps, input.vault_id, "cached");
    }
    const limit = input.limit ?? 50;
    // One more than the page tells whether another page follows.
    const records = await context.store.history.list(
      input.vault_id.toBase58(),
      input.wallet.toBase58(),
      limit + 1,
      input.cursor,
    );
    const page = records.slice(0, limit);
    const last = page.at(-1);
    return {
      activity: page.map((record) => activityView(record, (mint) => symbolOfMint(context, mint))),
      nextCursor: records.length > limit && last !== undefined ? historyCursor(last) : null,
    };
  },
});
