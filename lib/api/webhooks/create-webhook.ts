// POST /api/webhooks
import { createWebhook } from "../../webhooks/subscriptions";
import { partnerEndpoint } from "../endpoint";
import { webhookCreateRequest, webhookCreatedResponse } from "../schemas/webhooks";
import { noTarget, ownerOf } from "./webhook-owner";

export const postWebhook = partnerEndpoint({
  operationId: "createWebhook",
  method: "POST",
  path: "/api/webhooks",
  summary:
    "Subscribe a URL to partner events; the answer holds the signing secret (whsec_…) once. Deliveries follow Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature), at least once, retried with backoff for 24 h",
  scope: "write",
  input: { from: "body", schema: webhookCreateRequest },
  response: webhookCreatedResponse,
  statuses: [413, 415, 422],
  names: "nothing",
  target: noTarget,
  sample: () => ({
    path: "/api/webhooks",
    body: { url: "http://127.0.0.1:9/hook", events: ["deposit.confirmed"] },
  }),
  handler: ({ input, principal, context }) => createWebhook(context.webhooks, ownerOf(principal), input),
});
