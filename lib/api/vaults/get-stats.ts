// GET /api/vault/{vault_id}/stats — TVL, depositors, APY 7d/30d (fractions), queue, staged so far and
// the average time from request to claimable over 30 days (read scope).
import { indexerStoreOf } from "../../indexer/start";
import { vaultStats } from "../../vault/directory";
import { withPartnerKey } from "../partner";
import { vaultPathParams } from "../schemas/common";
import { noQuery } from "../schemas/vaults";
import { indexedVault } from "./indexed-reads";

const QUEUE_EVENTS = ["WithdrawalRequested", "NavUpdated", "WithdrawalsStaged"] as const;

export const getStats = withPartnerKey(
  async ({ params, context }) => {
    const entry = await indexedVault(context, params.vault_id);
    const now = context.deps.now();
    const events = await indexerStoreOf(context).events(entry.row.vault, {
      names: QUEUE_EVENTS,
      since: new Date(now - 30 * 86_400_000),
    });
    return vaultStats(entry.vault, entry.row, entry.apy, events, now);
  },
  {
    scope: "read",
    params: vaultPathParams,
    input: { from: "query", schema: noQuery },
    target: (_input, params) => ({ vault: params.vault_id, wallet: null }),
  },
);
