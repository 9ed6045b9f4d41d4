// GET /api/history?wallet=&vault_id=&limit= — the wallet's recorded activity on a vault (read scope).
import { activityView } from "../../vault/history";
import { loadVault } from "../../vault/vault-state";
import { symbolOfMint } from "../context";
import { historyQuery } from "../schemas/history";
import { withPartnerKey } from "../partner";

export const getHistory = withPartnerKey(
  async ({ input, context }) => {
    await loadVault(context.deps, input.vault_id, "cached");
    const records = await context.store.history.list(
      input.vault_id.toBase58(),
      input.wallet.toBase58(),
      input.limit ?? 50,
    );
    return { activity: records.map((record) => activityView(record, (mint) => symbolOfMint(context, mint))) };
  },
  {
    scope: "read",
    input: { from: "query", schema: historyQuery },
    target: (input) => ({ vault: input.vault_id, wallet: input.wallet }),
  },
);
