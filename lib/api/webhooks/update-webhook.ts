// PATCH /api/webhooks/{id}
import { updateWebhook } from "../../webhooks/subscriptions";
import { partnerEndpoint } from "../endpoint";
import { webhookPathParams, webhookResponse, webhookUpdateRequest } from "../schemas/webhooks";
import { SAMPLE_ID, noTarget, ownerOf } from "./webhook-owner";

export const patchWebhook = partnerEndpoint({
  operationId: "updateWebhook",
  method: "PATCH",
  path: "/api/webhooks/:id",
  summary: "Change the URL, events or description; enabled: true re-enables a disabled endpoint",
  scope: "write",
  params: webhookPathParams,
  input: { from: "body", schema: webhookUpdateRequest },
  response: webhookResponse,
  statuses: [404, 413, 415],
  names: "nothing",
  target: noTarget,
  sample: () => ({ path: `/api/webhooks/${SAMPLE_ID}`, body: { description: "x" } }),
  handler: ({ input, params, principal, context }) =>
    updateWebhook(context.webhooks, ownerOf(principal), params.id, input),
});
