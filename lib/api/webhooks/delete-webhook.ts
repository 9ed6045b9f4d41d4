// DELETE /api/webhooks/{id}
import { deleteWebhook } from "../../webhooks/subscriptions";
import { webhookDeletedResponse } from "../schemas/webhooks";
import { webhookByIdEndpoint } from "./webhook-owner";

export const deleteWebhookById = webhookByIdEndpoint({
  operationId: "deleteWebhook",
  method: "DELETE",
  path: "/api/webhooks/:id",
  summary: "Delete the endpoint and its delivery log",
  response: webhookDeletedResponse,
  handler: ({ id, owner, context }) => deleteWebhook(context.webhooks, owner, id),
});
