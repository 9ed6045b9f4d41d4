// The webhook endpoints (domain in lib/webhooks/subscriptions.ts). Managing subscriptions needs a
// write-scope key; an endpoint belongs to the key that created it (another key's ids are 404). They
// name no vault or wallet: events reach an endpoint only from its key's vaults and wallet.
//   POST /api/webhooks · GET /api/webhooks · GET, PATCH, DELETE /api/webhooks/{id}
//   POST /api/webhooks/{id}/rotate-secret · POST /api/webhooks/{id}/test
//   GET /api/webhooks/{id}/deliveries · POST /api/webhooks/{id}/deliveries/{delivery}/retry
import { base58Of } from "../../chain/base58";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
  type Owner,
} from "../../webhooks/subscriptions";
import type { Principal } from "../credentials";
import { ApiError } from "../errors";
import { partnerEndpoint } from "../endpoint";
import {
  deliveriesQuery,
  deliveryCursor,
  deliveryPathParams,
  noQuery,
  webhookCreateRequest,
  webhookCreatedResponse,
  webhookDeletedResponse,
  webhookDeliveriesResponse,
  webhookDeliveryResponse,
  webhookPathParams,
  webhookResponse,
  webhookSecretResponse,
  webhookTestResponse,
  webhooksResponse,
  webhookUpdateRequest,
} from "../schemas/webhooks";

const noTarget = () => ({ vault: null, wallet: null });

/** An id the security suite's requests name: well formed, owned by no key. */
const SAMPLE_ID = `wh_${"0".repeat(32)}`;

/**
 * The key that owns the endpoints. Only a partner's own bearer key: the pages' first-party session is
 * served under the app's one shared key, so every visitor would otherwise share (and could change)
 * the same subscriptions.
 */
export function ownerOf(principal: Principal): Owner {
  if (principal.source !== "bearer") {
    throw new ApiError("FORBIDDEN", "Webhooks are managed with a partner API key (Authorization: Bearer)");
  }
  return { keyId: principal.keyId, vaults: principal.vaults, wallet: principal.wallet };
}

export const postWebhook = partnerEndpoint({
  operationId: "createWebhook",
  method: "POST",
  path: "/api/webhooks",
  summary:
    "Subscribe a URL to partner events; the answer holds the signing secret (whsec_…) once. Deliveries follow Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature), at least once, retried with backoff for 24 h",
  scope: "write",
  input: { from: "body", schema: webhookCreateRequest },
  response: webhookCreatedResponse,
  statuses: [413, 415, 422],
  names: "nothing",
  target: noTarget,
  sample: () => ({
    path: "/api/webhooks",
    body: { url: "http://127.0.0.1:9/hook", events: ["deposit.confirmed"] },
  }),
  handler: ({ input, principal, context }) => createWebhook(context.webhooks, ownerOf(principal), input),
});

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

export const postRotateSecret = partnerEndpoint({
  operationId: "rotateWebhookSecret",
  method: "POST",
  path: "/api/webhooks/:id/rotate-secret",
  summary: "A new secret, shown once; the old one also signs for 24 h",
  scope: "write",
  params: webhookPathParams,
  input: { from: "query", schema: noQuery },
  response: webhookSecretResponse,
  statuses: [404],
  names: "nothing",
  target: noTarget,
  sample: () => ({ path: `/api/webhooks/${SAMPLE_ID}/rotate-secret` }),
  handler: ({ params, principal, context }) =>
    rotateWebhookSecret(context.webhooks, ownerOf(principal), params.id),
});

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

export const getDeliveries = partnerEndpoint({
  operationId: "listWebhookDeliveries",
  method: "GET",
  path: "/api/webhooks/:id/deliveries",
  summary: "The endpoint's deliveries, newest first: status, attempts, last response code, next attempt",
  scope: "write",
  params: webhookPathParams,
  input: { from: "query", schema: deliveriesQuery },
  response: webhookDeliveriesResponse,
  statuses: [404],
  names: "nothing",
  target: noTarget,
  sample: () => ({ path: `/api/webhooks/${SAMPLE_ID}/deliveries` }),
  handler: async ({ input, params, principal, context }) => {
    const page = await listDeliveries(context.webhooks, ownerOf(principal), params.id, {
      limit: input.limit ?? 50,
      before: input.cursor ?? null,
      status: input.status ?? null,
    });
    return {
      deliveries: page.deliveries,
      nextCursor: page.more && page.last !== null ? deliveryCursor(page.last) : null,
    };
  },
});

export const postRetryDelivery = partnerEndpoint({
  operationId: "retryWebhookDelivery",
  method: "POST",
  path: "/api/webhooks/:id/deliveries/:delivery/retry",
  summary: "Send a delivery again now (same webhook-id)",
  scope: "write",
  params: deliveryPathParams,
  input: { from: "query", schema: noQuery },
  response: webhookDeliveryResponse,
  statuses: [404, 409],
  names: "nothing",
  target: noTarget,
  sample: () => ({ path: `/api/webhooks/${SAMPLE_ID}/deliveries/dlv_${"0".repeat(32)}/retry` }),
  handler: ({ params, principal, context }) =>
    retryDelivery(context.webhooks, ownerOf(principal), params.id, params.delivery),
});
