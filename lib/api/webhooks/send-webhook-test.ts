// POST /api/webhooks/{id}/test
import { base58Of } from "../../chain/base58";
import { sendTestEvent } from "../../webhooks/subscriptions";
import { partnerEndpoint } from "../endpoint";
import { noQuery, webhookPathParams, webhookTestResponse } from "../schemas/webhooks";
import { SAMPLE_ID, noTarget, ownerOf } from "./webhook-owner";

export const postTestEvent = partnerEndpoint({
  operationId: "sendWebhookTest",
  method: "POST",
  path: "/api/webhooks/:id/test",
  summary: "Queue a webhook.test event to this endpoint",
  scope: "write",
  params: webhookPathParams,
  input: { from: "query", schema: noQuery },
  response: webhookTestResponse,
  statuses: [404],
  names: "nothing",
  target: noTarget,
  sample: () => ({ path: `/api/webhooks/${SAMPLE_ID}/test` }),
  handler: ({ params, principal, context }) =>
    sendTestEvent(
      context.webhooks,
      ownerOf(principal),
      params.id,
      principal.vaults?.[0] ?? base58Of(context.config.defaultVaultId),
    ),
});
