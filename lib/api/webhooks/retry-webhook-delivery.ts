// POST /api/webhooks/{id}/deliveries/{delivery}/retry
import { retryDelivery } from "../../webhooks/subscriptions";
import { deliveryPathParams, noQuery, webhookDeliveryResponse } from "../schemas/webhooks";
import { webhookEndpoint } from "./webhook-owner";

export const postRetryDelivery = webhookEndpoint({
  operationId: "retryWebhookDelivery",
  method: "POST",
  path: "/api/webhooks/:id/deliveries/:delivery/retry",
  summary: "Send a delivery again now (same webhook-id)",
  params: deliveryPathParams,
  input: { from: "query", schema: noQuery },
  response: webhookDeliveryResponse,
  statuses: [404, 409],
  handler: ({ params, owner, context }) => retryDelivery(context.webhooks, owner, params.id, params.delivery),
});
