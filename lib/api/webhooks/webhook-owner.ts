// What the webhook endpoints share: the key that owns a subscription (a partner's own bearer key), a
// write scope, no vault or wallet target, and the security suite's sample ids.
import type { z } from "zod";

import { type Owner } from "../../webhooks/subscriptions";
import type { Principal } from "../credentials";
import {
  partnerEndpoint,
  type EndpointDefinition,
  type EndpointMethod,
  type EnvelopeData,
} from "../endpoint";
import { ApiError } from "../errors";
import type { ApiContext } from "../context";
import { noQuery, webhookPathParams } from "../schemas/webhooks";
import type { PartnerCall } from "../with-partner-key";

/** An id the security suite's requests name: well formed, owned by no key. */
export const SAMPLE_ID = `wh_${"0".repeat(32)}`;
const SAMPLE_DELIVERY_ID = `dlv_${"0".repeat(32)}`;

/**
 * The key that owns the endpoints. Only a partner's own bearer key: the pages' first-party session is
 * served under the app's one shared key, so every visitor would otherwise share (and could change)
 * the same subscriptions.
 */
export function ownerOf(principal: Principal): Owner {
  if (principal.source !== "bearer") {
    throw new ApiError("FORBIDDEN", "Webhooks are managed with a partner API key (Authorization: Bearer)");
  }
  return {
    keyId: principal.keyId,
    vaults: principal.vaults,
    wallet: principal.wallet,
    partner: principal.partner?.wallet ?? null,
  };
}

/**
 * One webhook endpoint: a partner endpoint of write scope that names no vault or wallet, whose handler
 * is given the owning key; the security suite's sample request is its path with the sample ids (and
 * `sampleBody`).
 */
export function webhookEndpoint<
  S extends z.ZodObject,
  R extends z.ZodType,
  P extends z.ZodObject = z.ZodObject<Record<string, never>>,
>(definition: {
  operationId: string;
  method: EndpointMethod;
  path: string;
  summary: string;
  params?: P;
  input: { from: "body" | "query"; schema: S };
  response: R;
  /** Statuses beyond every partner endpoint's. */
  statuses: readonly number[];
  sampleBody?: unknown;
  handler(call: PartnerCall<z.output<S>, z.output<P>> & { owner: Owner }): Promise<EnvelopeData<R>>;
}): EndpointDefinition {
  const { sampleBody, handler, ...rest } = definition;
  const samplePath = definition.path.replace(":id", SAMPLE_ID).replace(":delivery", SAMPLE_DELIVERY_ID);
  return partnerEndpoint<S, R, P>({
    ...rest,
    scope: "write",
    names: "nothing",
    sample: () => (sampleBody === undefined ? { path: samplePath } : { path: samplePath, body: sampleBody }),
    handler: (call) => handler({ ...call, owner: ownerOf(call.principal) }),
  });
}

/**
 * An endpoint on one of the key's webhook endpoints by its id (`:id` in the path), with no body or
 * query: 404 where the key owns no endpoint of that id.
 */
export function webhookByIdEndpoint<R extends z.ZodType>(definition: {
  operationId: string;
  method: EndpointMethod;
  path: string;
  summary: string;
  response: R;
  handler(call: {
    id: string;
    owner: Owner;
    principal: Principal;
    context: ApiContext;
  }): Promise<EnvelopeData<R>>;
}): EndpointDefinition {
  const { handler, ...rest } = definition;
  return webhookEndpoint({
    ...rest,
    params: webhookPathParams,
    input: { from: "query", schema: noQuery },
    statuses: [404],
    handler: ({ params, owner, principal, context }) => handler({ id: params.id, owner, principal, context }),
  });
}
