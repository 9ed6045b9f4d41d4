// GET /api/webhooks/{id}
import { getWebhook } from "../../webhooks/subscriptions";
import { webhookResponse } from "../schemas/webhooks";
import { webhookByIdEndpoint } from "./webhook-owner";

export const getWebhookById = webhookByIdEndpoint({
  operationId: "getWebhook",
  method: "GET",
  path: "/api/webhooks/:id",
  summary: "One endpoint, with why it was disabled when it was",
  response: webhookResponse,
  handler: ({ id, owner, context }) => getWebhook(context.webhooks, owner, id),
});
