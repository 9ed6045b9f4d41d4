// POST /api/webhooks
import { createWebhook } from "../../webhooks/subscriptions";
import { webhookCreateRequest, webhookCreatedResponse } from "../schemas/webhooks";
import { webhookEndpoint } from "./webhook-owner";

export const postWebhook = webhookEndpoint({
  operationId: "createWebhook",
  method: "POST",
  path: "/api/webhooks",
  summary:
    "Subscribe a URL to partner events; the answer holds the signing secret (whsec_…) once. Deliveries follow Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature), at least once, retried with backoff for 24 h",
  input: { from: "body", schema: webhookCreateRequest },
  response: webhookCreatedResponse,
  statuses: [413, 415, 422],
  sampleBody: { url: "http://127.0.0.1:9/hook", events: ["deposit.confirmed"] },
  handler: ({ input, owner, context }) => createWebhook(context.webhooks, owner, input),
});
