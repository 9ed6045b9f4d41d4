// GET /api/webhooks/{id}/deliveries
import { listDeliveries } from "../../webhooks/subscriptions";
import { partnerEndpoint } from "../endpoint";
import {
  deliveriesQuery,
  deliveryCursor,
  webhookDeliveriesResponse,
  webhookPathParams,
} from "../schemas/webhooks";
import { SAMPLE_ID, noTarget, ownerOf } from "./webhook-owner";

export const getDeliveries = partnerEndpoint({
  operationId: "listWebhookDeliveries",
  method: "GET",
  path: "/api/webhooks/:id/deliveries",
  summary: "The endpoint's deliveries, newest first: status, attempts, last response code, next attempt",
  scope: "write",
  params: webhookPathParams,
  input: { from: "query", schema: deliveriesQuery },
  response: webhookDeliveriesResponse,
  statuses: [404],
  names: "nothing",
  target: noTarget,
  sample: () => ({ path: `/api/webhooks/${SAMPLE_ID}/deliveries` }),
  handler: async ({ input, params, principal, context }) => {
    const page = await listDeliveries(context.webhooks, ownerOf(principal), params.id, {
      limit: input.limit ?? 50,
      before: input.cursor ?? null,
      status: input.status ?? null,
    });
    return {
      deliveries: page.deliveries,
      nextCursor: page.more && page.last !== null ? deliveryCursor(page.last) : null,
    };
  },
});
