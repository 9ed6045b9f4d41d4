// Webhook subscriptions under a partner key: register (the secret is shown once), list, read, change,
// delete, rotate the secret, send a test event, and look back at deliveries and retry one. Every
// endpoint belongs to the key that created it; another key's ids are unknown here (404, not 403, so
// ids reveal nothing).
import { randomBytes } from "node:crypto";

import { listPartnerEvents, type EventAudience } from "../store/partner-events";
import type { DeliveryStatus, WebhookDelivery, WebhookEndpoint } from "../store/webhooks";
import { DomainError } from "../vault/model/domain-errors";
import type { PartnerEvent, PartnerEventType } from "../vault/model/partner-event";
import { newWebhookSecret } from "./signing";
import type { Webhooks } from "./parts";
import { RefusedTargetError } from "./target";
import { DAY_MS } from "./worker";

export interface Owner extends EventAudience {
  keyId: string;
}

export interface EndpointView {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

export function endpointView(endpoint: WebhookEndpoint): EndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    enabled: endpoint.disabledAt === null,
    disabledAt: iso(endpoint.disabledAt),
    disabledReason: endpoint.disabledReason,
    failingSince: iso(endpoint.failingSince),
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

export function deliveryView(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    lastStatusCode: delivery.lastStatusCode,
    lastError: delivery.lastError,
    nextAttemptAt: iso(delivery.nextAttemptAt),
    lastAttemptAt: iso(delivery.lastAttemptAt),
    deliveredAt: iso(delivery.deliveredAt),
    createdAt: delivery.createdAt.toISOString(),
  };
}

/** The URL if it may receive deliveries now (form and resolved addresses). */
async function checkedUrl(webhooks: Webhooks, url: string): Promise<string> {
  try {
    return (await webhooks.checker.resolve(url)).url.toString();
  } catch (error) {
    if (error instanceof RefusedTargetError) {
      throw new DomainError("TARGET_REFUSED", error.message);
    }
    throw error;
  }
}

function webhookNotFound(webhookId: string): DomainError<"WEBHOOK_NOT_FOUND"> {
  return new DomainError("WEBHOOK_NOT_FOUND", `No webhook ${webhookId} under this API key`, {
    context: { webhookId },
  });
}

function deliveryNotFound(webhookId: string, deliveryId: string): DomainError<"DELIVERY_NOT_FOUND"> {
  return new DomainError("DELIVERY_NOT_FOUND", `No delivery ${deliveryId} of webhook ${webhookId}`, {
    context: { webhookId, deliveryId },
  });
}

async function ownedEndpoint(webhooks: Webhooks, owner: Owner, id: string): Promise<WebhookEndpoint> {
  const endpoint = await webhooks.store.endpoint(owner.keyId, id);
  if (endpoint === null) {
    throw webhookNotFound(id);
  }
  return endpoint;
}

export async function createWebhook(
  webhooks: Webhooks,
  owner: Owner,
  input: { url: string; events: readonly PartnerEventType[]; description?: string },
): Promise<EndpointView & { secret: string }> {
  const url = await checkedUrl(webhooks, input.url);
  const secret = newWebhookSecret();
  const limit = webhooks.settings.maxEndpointsPerKey;
  const endpoint = await webhooks.store.createEndpoint(
    {
      id: `wh_${randomBytes(16).toString("hex")}`,
      keyId: owner.keyId,
      url,
      events: input.events,
      description: input.description ?? null,
      secret,
    },
    limit,
  );
  if (endpoint === null) {
    throw new DomainError(
      "WEBHOOK_LIMIT_REACHED",
      `This API key has ${limit} webhook endpoints, the most one key may have; delete one first`,
      { context: { limit } },
    );
  }
  return { ...endpointView(endpoint), secret };
}

export async function listWebhooks(webhooks: Webhooks, owner: Owner): Promise<{ webhooks: EndpointView[] }> {
  return { webhooks: (await webhooks.store.endpoints(owner.keyId)).map(endpointView) };
}

export async function getWebhook(webhooks: Webhooks, owner: Owner, id: string): Promise<EndpointView> {
  return endpointView(await ownedEndpoint(webhooks, owner, id));
}

export async function updateWebhook(
  webhooks: Webhooks,
  owner: Owner,
  id: string,
  changes: {
    url?: string;
    events?: readonly PartnerEventType[];
    description?: string | null;
    enabled?: boolean;
  },
): Promise<EndpointView> {
  await ownedEndpoint(webhooks, owner, id);
  const url = changes.url === undefined ? undefined : await checkedUrl(webhooks, changes.url);
  const updated = await webhooks.store.updateEndpoint(owner.keyId, id, { ...changes, url });
  if (updated === null) {
    throw webhookNotFound(id);
  }
  if (changes.enabled === true) {
    webhooks.worker.wake();
  }
  return endpointView(updated);
}

export async function deleteWebhook(
  webhooks: Webhooks,
  owner: Owner,
  id: string,
): Promise<{ id: string; deleted: true }> {
  if (!(await webhooks.store.deleteEndpoint(owner.keyId, id))) {
    throw webhookNotFound(id);
  }
  return { id, deleted: true };
}

/** A new secret at once; the old one keeps signing beside it for a day, so receivers can switch over. */
export async function rotateWebhookSecret(
  webhooks: Webhooks,
  owner: Owner,
  id: string,
  now: Date = new Date(),
): Promise<{ id: string; secret: string; previousSecretValidUntil: string }> {
  const secret = newWebhookSecret();
  const until = new Date(now.getTime() + DAY_MS);
  if (!(await webhooks.store.rotateSecret(owner.keyId, id, secret, until))) {
    throw webhookNotFound(id);
  }
  return { id, secret, previousSecretValidUntil: until.toISOString() };
}

/** Queues a `webhook.test` event to this endpoint alone (not part of GET /api/events). */
export async function sendTestEvent(
  webhooks: Webhooks,
  owner: Owner,
  id: string,
  vault: string,
  now: Date = new Date(),
): Promise<{ eventId: string; deliveryId: string }> {
  const endpoint = await ownedEndpoint(webhooks, owner, id);
  const event: PartnerEvent = {
    id: `evt_test_${randomBytes(12).toString("hex")}`,
    type: "webhook.test",
    timestamp: now.toISOString(),
    vault,
    wallet: null,
    signature: null,
    slot: null,
    data: { message: "A test event: your endpoint receives and verifies deliveries" },
  };
  const deliveryId = await webhooks.store.queueTestEvent(endpoint.id, event);
  webhooks.worker.wake();
  return { eventId: event.id, deliveryId };
}

export async function listDeliveries(
  webhooks: Webhooks,
  owner: Owner,
  id: string,
  query: { limit: number; before: { createdAt: Date; id: string } | null; status: DeliveryStatus | null },
): Promise<{ deliveries: ReturnType<typeof deliveryView>[]; last: WebhookDelivery | null; more: boolean }> {
  const endpoint = await ownedEndpoint(webhooks, owner, id);
  const page = await webhooks.store.deliveries(endpoint.id, { ...query, limit: query.limit + 1 });
  const shown = page.slice(0, query.limit);
  return { deliveries: shown.map(deliveryView), last: shown.at(-1) ?? null, more: page.length > query.limit };
}

export async function retryDelivery(
  webhooks: Webhooks,
  owner: Owner,
  id: string,
  deliveryId: string,
): Promise<ReturnType<typeof deliveryView>> {
  const endpoint = await ownedEndpoint(webhooks, owner, id);
  const existing = await webhooks.store.delivery(endpoint.id, deliveryId);
  if (existing === null) {
    throw deliveryNotFound(id, deliveryId);
  }
  if (existing.status === "delivering") {
    throw new DomainError("DELIVERY_IN_FLIGHT", `Delivery ${deliveryId} is being attempted now`, {
      context: { deliveryId },
    });
  }
  const retried = await webhooks.store.retryDelivery(endpoint.id, deliveryId);
  if (retried === null) {
    throw deliveryNotFound(id, deliveryId);
  }
  webhooks.worker.wake();
  return deliveryView(retried);
}

/** The event feed for partners who cannot receive webhooks: oldest first after a cursor. */
export async function listEvents(
  db: Parameters<typeof listPartnerEvents>[0],
  audience: EventAudience,
  query: { after: bigint; limit: number; types: readonly string[] | null },
): Promise<{ events: PartnerEvent[]; nextCursor: string }> {
  const page = await listPartnerEvents(db, { ...query, audience });
  return {
    events: page.map((entry) => entry.event),
    nextCursor: (page.at(-1)?.seq ?? query.after).toString(),
  };
}
