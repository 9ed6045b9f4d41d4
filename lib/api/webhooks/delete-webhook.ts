// DELETE /api/webhooks/{id}
import { deleteWebhook } from "../../webhooks/subscriptions";
import { noQuery, webhookDeletedResponse, webhookPathParams } from "../schemas/webhooks";
import { webhookEndpoint } from "./webhook-owner";

export const deleteWebhookById = webhookEndpoint({
  operationId: "deleteWebhook",
  method: "DELETE",
  path: "/api/webhooks/:id",
  summary: "Delete the endpoint and its delivery log",
  params: webhookPathParams,
  input: { from: "query", schema: noQuery },
  response: webhookDeletedResponse,
  statuses: [404],
  handler: ({ params, owner, context }) => deleteWebhook(context.webhooks, owner, params.id),
});
