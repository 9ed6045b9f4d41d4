// POST /api/webhooks/{id}/test
import { base58Of } from "../../chain/base58";
import { sendTestEvent } from "../../webhooks/subscriptions";
import { noQuery, webhookPathParams, webhookTestResponse } from "../schemas/webhooks";
import { webhookEndpoint } from "./webhook-owner";

export const postTestEvent = webhookEndpoint({
  operationId: "sendWebhookTest",
  method: "POST",
  path: "/api/webhooks/:id/test",
  summary: "Queue a webhook.test event to this endpoint",
  params: webhookPathParams,
  input: { from: "query", schema: noQuery },
  response: webhookTestResponse,
  statuses: [404],
  handler: ({ params, principal, owner, context }) =>
    sendTestEvent(
      context.webhooks,
      owner,
      params.id,
      principal.vaults?.[0] ?? base58Of(context.config.defaultVaultId),
    ),
});
