// PATCH /api/webhooks/{id}
import { updateWebhook } from "../../webhooks/subscriptions";
import { webhookPathParams, webhookResponse, webhookUpdateRequest } from "../schemas/webhooks";
import { webhookEndpoint } from "./webhook-owner";

export const patchWebhook = webhookEndpoint({
  operationId: "updateWebhook",
  method: "PATCH",
  path: "/api/webhooks/:id",
  summary: "Change the URL, events or description; enabled: true re-enables a disabled endpoint",
  params: webhookPathParams,
  input: { from: "body", schema: webhookUpdateRequest },
  response: webhookResponse,
  statuses: [404, 413, 415],
  sampleBody: { description: "x" },
  handler: ({ input, params, owner, context }) => updateWebhook(context.webhooks, owner, params.id, input),
});
