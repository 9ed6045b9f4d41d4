// POST /api/history — verifies a confirmed signature on chain and records its vault actions once
// (write scope): `activity` is the first of them, `activities` all of them in order.
import { activityView, verifyHistoryEntry } from "../../vault/history";
import { symbolOfMint } from "../context";
import { historyRequest } from "../schemas/history";
import { withPartnerKey } from "../partner";

export const postHistory = withPartnerKey(
  async ({ input, context }) => {
    const { duplicate, records } = await verifyHistoryEntry(context.deps, context.store.history, {
      wallet: input.wallet,
      vault: input.vault_id,
      signature: input.signature,
    });
    const activities = records.map((record) => activityView(record, (mint) => symbolOfMint(context, mint)));
    const [activity] = activities;
    if (activity === undefined) {
      throw new Error(`POST /api/history verified ${input.signature} without a row`);
    }
    return { duplicate, activity, activities };
  },
  {
    scope: "write",
    input: { from: "body", schema: historyRequest },
    target: (input) => ({ vault: input.vault_id, wallet: input.wallet }),
  },
);
