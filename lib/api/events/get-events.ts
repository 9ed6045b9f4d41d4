// GET /api/events?after=&limit=&types= — the partner event stream, oldest first, a page at a time
// (read scope): the same events webhooks deliver, limited to what the key may see.
import { listEvents } from "../../webhooks/subscriptions";
import { withPartnerKey } from "../partner";
import { eventsQuery } from "../schemas/webhooks";

export const getEvents = withPartnerKey(
  ({ input, principal, context }) =>
    listEvents(
      context.store,
      { vaults: principal.vaults, wallet: principal.wallet },
      { after: input.after ?? 0n, limit: input.limit ?? 100, types: input.types ?? null },
    ),
  {
    scope: "read",
    input: { from: "query", schema: eventsQuery },
    target: () => ({ vault: null, wallet: null }),
  },
);
