// GET /api/webhooks
import { listWebhooks } from "../../webhooks/subscriptions";
import { noQuery, webhooksResponse } from "../schemas/webhooks";
import { webhookEndpoint } from "./webhook-owner";

export const getWebhooks = webhookEndpoint({
  operationId: "listWebhooks",
  method: "GET",
  path: "/api/webhooks",
  summary: "This key's webhook endpoints",
  input: { from: "query", schema: noQuery },
  response: webhooksResponse,
  statuses: [],
  handler: ({ owner, context }) => listWebhooks(context.webhooks, owner),
});
