// POST /api/webhooks/{id}/rotate-secret
import { rotateWebhookSecret } from "../../webhooks/subscriptions";
import { webhookSecretResponse } from "../schemas/webhooks";
import { webhookByIdEndpoint } from "./webhook-owner";

export const postRotateSecret = webhookByIdEndpoint({
  operationId: "rotateWebhookSecret",
  method: "POST",
  path: "/api/webhooks/:id/rotate-secret",
  summary: "A new secret, shown once; the old one also signs for 24 h",
  response: webhookSecretResponse,
  handler: ({ id, owner, context }) => rotateWebhookSecret(context.webhooks, owner, id),
});
