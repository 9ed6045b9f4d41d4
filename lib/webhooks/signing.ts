// Standard Webhooks signing with the `standardwebhooks` package: secrets are `whsec_` and 32 random
// bytes in base64; a message is signed as `${id}.${timestamp}.${body}` with HMAC-SHA256. While a
// rotated-out secret is still honoured, webhook-signature carries one signature per secret (the
// specification's space-separated list), so a receiver verifies with either.
import { randomBytes } from "node:crypto";

import { Webhook } from "standardwebhooks";

export const SECRET_PREFIX = "whsec_";

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

export interface SignedHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

export function signedHeaders(
  secrets: readonly string[],
  messageId: string,
  at: Date,
  body: string,
): SignedHeaders {
  // The specification's timestamp is whole seconds; sign exactly what the header says.
  const seconds = Math.floor(at.getTime() / 1000);
  const signedAt = new Date(seconds * 1000);
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(seconds),
    "webhook-signature": secrets
      .map((secret) => new Webhook(secret).sign(messageId, signedAt, body))
      .join(" "),
  };
}
