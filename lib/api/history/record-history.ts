// POST /api/history — verifies a confirmed signature on chain and records its vault actions once
// (write scope): `activity` is the first of them, `activities` all of them in order.
import { activityView, verifyHistoryEntry } from "../../vault/reads/history";
import { symbolOfMint } from "../context";
import { partnerEndpoint } from "../endpoint";
import { historyRecordResponse, historyRequest } from "../schemas/history";

/** A well-formed signature of no transaction: it passes validation and fails verification. */
const SAMPLE_SIGNATURE = "5".repeat(87);

export const postHistory = partnerEndpoint({
  operationId: "recordHistory",
  method: "POST",
  path: "/api/history",
  summary: "Record a confirmed transaction signature (idempotent; a claim before its initiate is 409)",
  scope: "write",
  input: { from: "body", schema: historyRequest },
  response: historyRecordResponse,
  statuses: [404, 409, 413, 415, 422],
  names: "vault-and-wallet",
  target: (input) => ({ vault: input.vault_id, wallet: input.wallet }),
  sample: ({ vault, wallet }) => ({
    path: "/api/history",
    body: { wallet, vault_id: vault, signature: SAMPLE_SIGNATURE },
  }),
  handler: async ({ input, context }) => {
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
});
