// GET /api/webhooks/{id}/deliveries
import { listDeliveries } from "../../webhooks/subscriptions";
import {
  deliveriesQuery,
  deliveryCursor,
  webhookDeliveriesResponse,
  webhookPathParams,
} from "../schemas/webhooks";
import { webhookEndpoint } from "./webhook-owner";

export const getDeliveries = webhookEndpoint({
  operationId: "listWebhookDeliveries",
  method: "GET",
  path: "/api/webhooks/:id/deliveries",
  summary: "The endpoint's deliveries, newest first: status, attempts, last response code, next attempt",
  params: webhookPathParams,
  input: { from: "query", schema: deliveriesQuery },
  response: webhookDeliveriesResponse,
  statuses: [404],
  handler: async ({ input, params, owner, context }) => {
    const page = await listDeliveries(context.webhooks, owner, params.id, {
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
