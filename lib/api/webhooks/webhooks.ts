// The webhook endpoints' HTTP wrappers (domain in lib/webhooks/subscriptions.ts). Managing
// subscriptions needs a write-scope key; the endpoints belong to the key.
//   POST /api/webhooks · GET /api/webhooks · GET, PATCH, DELETE /api/webhooks/{id}
//   POST /api/webhooks/{id}/rotate-secret · POST /api/webhooks/{id}/test
//   GET /api/webhooks/{id}/deliveries · POST /api/webhooks/{id}/deliveries/{delivery}/retry
import { base58Of } from "../../chain/bounded-memo";
import { webhooksOf } from "../../webhooks/start";
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
import { withPartnerKey } from "../partner";
import {
  deliveriesQuery,
  deliveryCursor,
  deliveryPathParams,
  noQuery,
  webhookCreateRequest,
  webhookPathParams,
  webhookUpdateRequest,
} from "../schemas/webhooks";

const NOTHING = { vault: null, wallet: null };
const noTarget = () => NOTHING;

export function ownerOf(principal: Principal): Owner {
  return { keyId: principal.keyId, vaults: principal.vaults, wallet: principal.wallet };
}

export const postWebhook = withPartnerKey(
  ({ input, principal, context }) => createWebhook(webhooksOf(context), ownerOf(principal), input),
  { scope: "write", input: { from: "body", schema: webhookCreateRequest }, target: noTarget },
);

export const getWebhooks = withPartnerKey(
  ({ principal, context }) => listWebhooks(webhooksOf(context), ownerOf(principal)),
  { scope: "write", input: { from: "query", schema: noQuery }, target: noTarget },
);

export const getWebhookById = withPartnerKey(
  ({ params, principal, context }) => getWebhook(webhooksOf(context), ownerOf(principal), params.id),
  { scope: "write", params: webhookPathParams, input: { from: "query", schema: noQuery }, target: noTarget },
);

export const patchWebhook = withPartnerKey(
  ({ input, params, principal, context }) =>
    updateWebhook(webhooksOf(context), ownerOf(principal), params.id, input),
  {
    scope: "write",
    params: webhookPathParams,
    input: { from: "body", schema: webhookUpdateRequest },
    target: noTarget,
  },
);

export const deleteWebhookById = withPartnerKey(
  ({ params, principal, context }) => deleteWebhook(webhooksOf(context), ownerOf(principal), params.id),
  { scope: "write", params: webhookPathParams, input: { from: "query", schema: noQuery }, target: noTarget },
);

export const postRotateSecret = withPartnerKey(
  ({ params, principal, context }) => rotateWebhookSecret(webhooksOf(context), ownerOf(principal), params.id),
  { scope: "write", params: webhookPathParams, input: { from: "query", schema: noQuery }, target: noTarget },
);

export const postTestEvent = withPartnerKey(
  ({ params, principal, context }) =>
    sendTestEvent(
      webhooksOf(context),
      ownerOf(principal),
      params.id,
      principal.vaults?.[0] ?? base58Of(context.config.defaultVaultId),
    ),
  { scope: "write", params: webhookPathParams, input: { from: "query", schema: noQuery }, target: noTarget },
);

export const getDeliveries = withPartnerKey(
  async ({ input, params, principal, context }) => {
    const page = await listDeliveries(webhooksOf(context), ownerOf(principal), params.id, {
      limit: input.limit ?? 50,
      before: input.cursor ?? null,
      status: input.status ?? null,
    });
    return {
      deliveries: page.deliveries,
      nextCursor: page.more && page.last !== null ? deliveryCursor(page.last) : null,
    };
  },
  {
    scope: "write",
    params: webhookPathParams,
    input: { from: "query", schema: deliveriesQuery },
    target: noTarget,
  },
);

export const postRetryDelivery = withPartnerKey(
  ({ params, principal, context }) =>
    retryDelivery(webhooksOf(context), ownerOf(principal), params.id, params.delivery),
  { scope: "write", params: deliveryPathParams, input: { from: "query", schema: noQuery }, target: noTarget },
);
