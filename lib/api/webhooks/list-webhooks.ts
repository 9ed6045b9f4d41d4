// GET /api/webhooks
import { listWebhooks } from "../../webhooks/subscriptions";
import { partnerEndpoint } from "../endpoint";
import { noQuery, webhooksResponse } from "../schemas/webhooks";
import { noTarget, ownerOf } from "./webhook-owner";

export const getWebhooks = partnerEndpoint({
  operationId: "listWebhooks",
  method: "GET",
  path: "/api/webhooks",
  summary: "This key's webhook endpoints",
  scope: "write",
  input: { from: "query", schema: noQuery },
  response: webhooksResponse,
  statuses: [],
  names: "nothing",
  target: noTarget,
  sample: () => ({ path: "/api/webhooks" }),
  handler: ({ principal, context }) => listWebhooks(context.webhooks, ownerOf(principal)),
});
