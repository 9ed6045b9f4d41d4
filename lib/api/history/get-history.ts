// GET /api/history?wallet=&vault_id=&limit=&cursor= — the wallet's recorded activity on a vault, newest
// first, a page at a time (read scope).
import { activityView } from "../../vault/history";
import { loadVault } from "../../vault/vault-state";
import { symbolOfMint } from "../context";
import { historyCursor, historyQuery } from "../schemas/history";
import { withPartnerKey } from "../partner";

export const getHistory = withPartnerKey(
  async ({ input, context }) => {
    await loadVault(context.deps, input.vault_id, "cached");
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
  {
    scope: "read",
    input: { from: "query", schema: historyQuery },
    target: (input) => ({ vault: input.vault_id, wallet: input.wallet }),
  },
);
