// POST /api/webhooks/{id}/test
import { base58Of } from "../../chain/base58";
import { sendTestEvent } from "../../webhooks/subscriptions";
import { webhookTestResponse } from "../schemas/webhooks";
import { webhookByIdEndpoint } from "./webhook-owner";

export const postTestEvent = webhookByIdEndpoint({
  operationId: "sendWebhookTest",
  method: "POST",
  path: "/api/webhooks/:id/test",
  summary: "Queue a webhook.test event to this endpoint",
  response: webhookTestResponse,
  handler: ({ id, principal, owner, context }) =>
    sendTestEvent(
      context.webhooks,
      owner,
      id,
      principal.vaults?.[0] ?? base58Of(context.config.defaultVaultId),
    ),
});
