// DELETE /api/webhooks/{id}
import { deleteWebhook } from "../../webhooks/subscriptions";
import { partnerEndpoint } from "../endpoint";
import { noQuery, webhookDeletedResponse, webhookPathParams } from "../schemas/webhooks";
import { SAMPLE_ID, noTarget, ownerOf } from "./webhook-owner";

export const deleteWebhookById = partnerEndpoint({
  operationId: "deleteWebhook",
  method: "DELETE",
  path: "/api/webhooks/:id",
  summary: "Delete the endpoint and its delivery log",
  scope: "write",
  params: webhookPathParams,
  input: { from: "query", schema: noQuery },
  response: webhookDeletedResponse,
  statuses: [404],
  names: "nothing",
  target: noTarget,
  sample: () => ({ path: `/api/webhooks/${SAMPLE_ID}` }),
  handler: ({ params, principal, context }) => deleteWebhook(context.webhooks, ownerOf(principal), params.id),
});
