// GET /api/webhooks/{id}
import { getWebhook } from "../../webhooks/subscriptions";
import { noQuery, webhookPathParams, webhookResponse } from "../schemas/webhooks";
import { webhookEndpoint } from "./webhook-owner";

export const getWebhookById = webhookEndpoint({
  operationId: "getWebhook",
  method: "GET",
  path: "/api/webhooks/:id",
  summary: "One endpoint, with why it was disabled when it was",
  params: webhookPathParams,
  input: { from: "query", schema: noQuery },
  response: webhookResponse,
  statuses: [404],
  handler: ({ params, owner, context }) => getWebhook(context.webhooks, owner, params.id),
});
