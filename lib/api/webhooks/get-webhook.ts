// GET /api/webhooks/{id}
import { getWebhook } from "../../webhooks/subscriptions";
import { partnerEndpoint } from "../endpoint";
import { noQuery, webhookPathParams, webhookResponse } from "../schemas/webhooks";
import { SAMPLE_ID, noTarget, ownerOf } from "./webhook-owner";

export const getWebhookById = partnerEndpoint({
  operationId: "getWebhook",
  method: "GET",
  path: "/api/webhooks/:id",
  summary: "One endpoint, with why it was disabled when it was",
  scope: "write",
  params: webhookPathParams,
  input: { from: "query", schema: noQuery },
  response: webhookResponse,
  statuses: [404],
  names: "nothing",
  target: noTarget,
  sample: () => ({ path: `/api/webhooks/${SAMPLE_ID}` }),
  handler: ({ params, principal, context }) => getWebhook(context.webhooks, ownerOf(principal), params.id),
});
