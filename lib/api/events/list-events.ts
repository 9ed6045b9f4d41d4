// GET /api/events?after=&limit=&types= — the partner event stream, oldest first, a page at a time
// (read scope): the same events webhooks deliver, limited to what the key may see.
import { listEvents } from "../../webhooks/subscriptions";
import { partnerEndpoint } from "../endpoint";
import { eventsQuery, eventsResponse } from "../schemas/webhooks";

export const getEvents = partnerEndpoint({
  operationId: "listEvents",
  method: "GET",
  path: "/api/events",
  summary:
    "Partner events oldest first after a cursor: the stream webhooks deliver, limited to the key's vaults and wallet",
  scope: "read",
  input: { from: "query", schema: eventsQuery },
  response: eventsResponse,
  statuses: [],
  names: "nothing",
  handler: ({ input, principal, context }) =>
    listEvents(
      context.store,
      { vaults: principal.vaults, wallet: principal.wallet, partner: principal.partner?.wallet ?? null },
      { after: input.after ?? 0n, limit: input.limit ?? 100, types: input.types ?? null },
    ),
});
