// POST /api/history — verifies a confirmed signature on chain and records it once (write scope).
import { activityView, verifyHistoryEntry } from "../../vault/history";
import { symbolOfMint } from "../context";
import { historyRequest } from "../schemas/history";
import { withPartnerKey } from "../partner";

export const postHistory = withPartnerKey(
  async ({ input, context }) => {
    const { duplicate, record } = await verifyHistoryEntry(context.deps, context.store.history, {
      wallet: input.wallet,
      vault: input.vault_id,
      signature: input.signature,
    });
    return { duplicate, activity: activityView(record, (mint) => symbolOfMint(context, mint)) };
  },
  {
    scope: "write",
    input: { from: "body", schema: historyRequest },
    target: (input) => ({ vault: input.vault_id, wallet: input.wallet }),
  },
);
