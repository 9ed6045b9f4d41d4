// POST /api/webhooks/{id}/rotate-secret
import { rotateWebhookSecret } from "../../webhooks/subscriptions";
import { partnerEndpoint } from "../endpoint";
import { noQuery, webhookPathParams, webhookSecretResponse } from "../schemas/webhooks";
import { SAMPLE_ID, noTarget, ownerOf } from "./webhook-owner";

export const postRotateSecret = partnerEndpoint({
  operationId: "rotateWebhookSecret",
  method: "POST",
  path: "/api/webhooks/:id/rotate-secret",
  summary: "A new secret, shown once; the old one also signs for 24 h",
  scope: "write",
  params: webhookPathParams,
  input: { from: "query", schema: noQuery },
  response: webhookSecretResponse,
  statuses: [404],
  names: "nothing",
  target: noTarget,
  sample: () => ({ path: `/api/webhooks/${SAMPLE_ID}/rotate-secret` }),
  handler: ({ params, principal, context }) =>
    rotateWebhookSecret(context.webhooks, ownerOf(principal), params.id),
});
