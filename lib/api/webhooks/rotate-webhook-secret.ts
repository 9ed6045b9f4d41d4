// POST /api/webhooks/{id}/rotate-secret
import { rotateWebhookSecret } from "../../webhooks/subscriptions";
import { noQuery, webhookPathParams, webhookSecretResponse } from "../schemas/webhooks";
import { webhookEndpoint } from "./webhook-owner";

export const postRotateSecret = webhookEndpoint({
  operationId: "rotateWebhookSecret",
  method: "POST",
  path: "/api/webhooks/:id/rotate-secret",
  summary: "A new secret, shown once; the old one also signs for 24 h",
  params: webhookPathParams,
  input: { from: "query", schema: noQuery },
  response: webhookSecretResponse,
  statuses: [404],
  handler: ({ params, owner, context }) => rotateWebhookSecret(context.webhooks, owner, params.id),
});
