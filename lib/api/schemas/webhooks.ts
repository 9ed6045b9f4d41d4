// Webhook subscriptions, their deliveries and the event feed: request validation and response shapes.
import { z } from "zod";

import { PARTNER_EVENT_TYPES } from "../../vault/model/partner-event";
import { successEnvelope } from "./common";

const eventTypes = z
  .array(z.enum(PARTNER_EVENT_TYPES, { error: `must each be one of ${PARTNER_EVENT_TYPES.join(", ")}` }), {
    error: "must be an array of event types",
  })
  .min(1, "must name at least one event type")
  .max(PARTNER_EVENT_TYPES.length, "names a type more than once")
  .refine((types) => new Set(types).size === types.length, "names a type more than once")
  .meta({ description: `Event types to receive: ${PARTNER_EVENT_TYPES.join(", ")}` });

const urlField = z
  .string({ error: "must be a string" })
  .min(1, "is required")
  .max(2048, "is longer than 2048 characters")
  .meta({
    description: "Where deliveries are POSTed: https (http only outside production), public addresses only",
  });

const descriptionField = z.string({ error: "must be a string" }).max(256, "is longer than 256 characters");

export const webhookCreateRequest = z
  .object({ url: urlField, events: eventTypes, description: descriptionField.optional() })
  .meta({ id: "WebhookCreateRequest" });

export const webhookUpdateRequest = z
  .object({
    url: urlField.optional(),
    events: eventTypes.optional(),
    description: descriptionField.nullable().optional(),
    enabled: z
      .boolean({ error: "must be true or false" })
      .optional()
      .meta({ description: "true re-enables a disabled endpoint; false disables it" }),
  })
  .meta({ id: "WebhookUpdateRequest" });

export const webhookPathParams = z.object({ id: z.string().max(100) });
export const deliveryPathParams = z.object({ id: z.string().max(100), delivery: z.string().max(100) });

export const noQuery = z.object({});

const limitField = (max: number) =>
  z
    .string()
    .regex(/^\d{1,4}$/, `must be an integer from 1 to ${max}`)
    .transform(Number)
    .refine((value) => value >= 1 && value <= max, `must be an integer from 1 to ${max}`)
    .optional();

export const deliveriesQuery = z
  .object({
    limit: limitField(100),
    status: z.enum(["pending", "delivering", "succeeded", "failed"]).optional(),
    cursor: z
      .string()
      .max(200)
      .transform((value, context) => {
        const decoded = /^(\d{1,16}):(dlv_[0-9a-f]{32})$/.exec(
          Buffer.from(value, "base64url").toString("utf8"),
        );
        if (decoded === null) {
          context.addIssue({ code: "custom", message: "must be a nextCursor this endpoint returned" });
          return z.NEVER;
        }
        return { createdAt: new Date(Number(decoded[1]) / 1000), id: decoded[2] ?? "" };
      })
      .optional()
      .meta({ description: "nextCursor of the previous page (newest first)" }),
  })
  .meta({ id: "WebhookDeliveriesQuery" });

/** The cursor after a delivery: its creation time in microseconds and its id. */
export function deliveryCursor(delivery: { createdAt: Date; id: string }): string {
  return Buffer.from(`${delivery.createdAt.getTime() * 1000}:${delivery.id}`, "utf8").toString("base64url");
}

/** The largest PostgreSQL bigint (2^63 − 1), the events' sequence type. */
const MAX_EVENT_CURSOR = 2n ** 63n - 1n;

export const eventsQuery = z
  .object({
    after: z
      .string()
      .regex(/^\d{1,19}$/, "must be a cursor this endpoint returned")
      .transform(BigInt)
      // The events' sequence is a PostgreSQL bigint: past its largest value no event can be after.
      .refine((after) => after <= MAX_EVENT_CURSOR, "must be a cursor this endpoint returned")
      .optional()
      .meta({ description: "nextCursor of the previous page; omit to start from the oldest event" }),
    limit: limitField(500),
    types: z
      .string()
      .transform((value, context) => {
        const types = value.split(",").map((part) => part.trim());
        for (const type of types) {
          if (!(PARTNER_EVENT_TYPES as readonly string[]).includes(type)) {
            context.addIssue({ code: "custom", message: `${type} is not an event type` });
            return z.NEVER;
          }
        }
        return types;
      })
      .optional()
      .meta({ description: "Comma-separated event types to keep" }),
  })
  .meta({ id: "EventsQuery" });

export const partnerEventSchema = z
  .object({
    id: z.string().meta({ description: "Stable: the same event always has this id (the webhook-id header)" }),
    type: z.string(),
    timestamp: z.string().meta({ description: "ISO 8601, the chain's clock" }),
    vault: z.string(),
    wallet: z.string().nullable(),
    signature: z.string().nullable(),
    slot: z.number().int().nullable(),
    data: z.record(z.string(), z.unknown()).meta({
      description:
        "Type-specific fields. vault.paused: { pausedUntil, by } — pausedUntil ISO 8601, when the pause ends by " +
        'itself (null for a pause indexed before the program carried it); by "manager" (ends within the vault\'s ' +
        'maximum, 7 days by default) or "admin" (the protocol admin\'s pause, up to 30 days, which the manager ' +
        "cannot lift). Announced again when the admin holds a pause longer. vault.resumed: { by }, whose pause " +
        "was lifted before its end (a pause that ends by itself at pausedUntil is not announced again).",
    }),
  })
  .meta({ id: "PartnerEvent" });

export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabledAt: z.string().nullable(),
    disabledReason: z.string().nullable().meta({ description: "Why deliveries stopped, when they did" }),
    failingSince: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "WebhookEndpoint" });

export const webhookDeliverySchema = z
  .object({
    id: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    status: z.enum(["pending", "delivering", "succeeded", "failed"]),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: z.string().nullable(),
    lastAttemptAt: z.string().nullable(),
    deliveredAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "WebhookDelivery" });

export const webhookCreatedResponse = successEnvelope(
  webhookEndpointSchema.extend({
    secret: z.string().meta({ description: "whsec_…: shown once; verify deliveries with it" }),
  }),
);
export const webhookResponse = successEnvelope(webhookEndpointSchema);
export const webhooksResponse = successEnvelope(z.object({ webhooks: z.array(webhookEndpointSchema) }));
export const webhookDeletedResponse = successEnvelope(z.object({ id: z.string(), deleted: z.literal(true) }));
export const webhookSecretResponse = successEnvelope(
  z.object({
    id: z.string(),
    secret: z.string(),
    previousSecretValidUntil: z.string().meta({ description: "The old secret also signs until then" }),
  }),
);
export const webhookTestResponse = successEnvelope(z.object({ eventId: z.string(), deliveryId: z.string() }));
export const webhookDeliveriesResponse = successEnvelope(
  z.object({ deliveries: z.array(webhookDeliverySchema), nextCursor: z.string().nullable() }),
);
export const webhookDeliveryResponse = successEnvelope(webhookDeliverySchema);
export const eventsResponse = successEnvelope(
  z.object({
    events: z.array(partnerEventSchema),
    nextCursor: z.string().meta({ description: "Pass as after= for the next events (also when none came)" }),
  }),
);
