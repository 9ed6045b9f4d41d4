// POST /api/webhooks/{id}/deliveries/{delivery}/retry
import { retryDelivery } from "../../webhooks/subscriptions";
import { partnerEndpoint } from "../endpoint";
import { deliveryPathParams, noQuery, webhookDeliveryResponse } from "../schemas/webhooks";
import { SAMPLE_ID, noTarget, ownerOf } from "./webhook-owner";

export const postRetryDelivery = partnerEndpoint({
  operationId: "retryWebhookDelivery",
  method: "POST",
  path: "/api/webhooks/:id/deliveries/:delivery/retry",
  summary: "Send a delivery again now (same webhook-id)",
  scope: "write",
  params: deliveryPathParams,
  input: { from: "query", schema: noQuery },
  response: webhookDeliveryResponse,
  statuses: [404, 409],
  names: "nothing",
  target: noTarget,
  sample: () => ({ path: `/api/webhooks/${SAMPLE_ID}/deliveries/dlv_${"0".repeat(32)}/retry` }),
  handler: ({ params, principal, context }) =>
    retryDelivery(context.webhooks, ownerOf(principal), params.id, params.delivery),
});
