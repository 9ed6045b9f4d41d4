// The shape of one endpoint: everything about it in one object, from which the route table
// (routes.ts), the OpenAPI document (openapi.ts), the Next.js route files (which hand every request to
// that table) and the security suite's route list (tests/api/security.test.ts) are derived. The
// handler's return is typed by the response schema, so a handler that answers something its schema
// does not describe does not compile.
import type { PublicKey } from "@solana/web3.js";
import type { z } from "zod";

import { base58Of } from "../chain/base58";
import type { KeyScope } from "../store/api-keys";
import { withAction, type ActionCall } from "./actions/with-action";
import { actionErrorSchema } from "./schemas/actions";
import { vaultPathParams } from "./schemas/common";
import { publicVaultQuery } from "./schemas/public";
import type { ApiContext } from "./context";
import type { ApiHandler } from "./handler";
import type { JsonText } from "./json-text";
import type { TextBody } from "./text-body";
import { withPartnerKey, type PartnerCall, type RequestTarget } from "./with-partner-key";
import { PUBLIC_LIMIT, withPublic } from "./with-public";

/**
 * partner: a key and the envelope; public: keyless bare bodies; ops: keyless health and documents;
 * actions: Solana Actions (keyless, per-IP limit, the Actions specification's bodies and headers).
 */
export type Audience = "partner" | "public" | "ops" | "actions";

export type EndpointMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What a partner request names, which the key's vault and wallet restrictions are checked against. */
export type Names = "vault-and-wallet" | "vault" | "wallet" | "nothing";

/** A request that passes validation for this vault and wallet (the security suite sends it). */
export type SampleRequest = (fixture: { vault: string; wallet: string }) => { path: string; body?: unknown };

export interface EndpointDefinition {
  /** Unique; the OpenAPI operationId. */
  operationId: string;
  method: EndpointMethod;
  /** e.g. "/api/vault/:vault_id/deposit" */
  path: string;
  audience: Audience;
  /** The key scope a partner endpoint needs; null for keyless ones. */
  scope: KeyScope | null;
  summary: string;
  params: z.ZodObject | null;
  query: z.ZodObject | null;
  body: z.ZodType | null;
  /** The success body (the envelope for partner endpoints). */
  response: z.ZodType;
  /** The success body's media type when it is not JSON (the API reference's page and files). */
  contentType?: string;
  /** A second success media type beside JSON that the request can ask for (a CSV export), and its body. */
  alternateContent?: { contentType: string; schema: z.ZodType };
  /** Every status the endpoint can answer (OpenAPI lists each). */
  statuses: readonly number[];
  /** Error bodies other than the audience's error shape, by status (health's 503). */
  errorBodies: Readonly<Partial<Record<number, z.ZodType>>>;
  names: Names;
  sample: SampleRequest | null;
  handler: ApiHandler;
}

/** What every partner endpoint can answer: success, bad input, key, scope, 405, limits, outages. */
const PARTNER_STATUSES = [200, 400, 401, 403, 405, 429, 503] as const;
/** And every keyless one. */
const PUBLIC_STATUSES = [200, 400, 405, 429, 503] as const;

/** The `data` of a success envelope schema, as a handler builds it. */
export type EnvelopeData<R extends z.ZodType> = z.input<R> extends { data: infer Data } ? Data : never;

interface Common {
  operationId: string;
  method: EndpointMethod;
  path: string;
  summary: string;
}

/** What a partner endpoint declares, whatever it names. */
interface PartnerDefinition<
  S extends z.ZodObject,
  R extends z.ZodType,
  P extends z.ZodObject,
> extends Common {
  scope: KeyScope;
  /** Public data the app's pages may read without a session (with-partner-key.ts). */
  openToPages?: boolean;
  params?: P;
  input: { from: "body" | "query"; schema: S };
  response: R;
  /** Statuses beyond PARTNER_STATUSES: 404 unknown vault, 409, 413, 415, 422. */
  statuses: readonly number[];
  /** What the handler answers, with its media type, when it returns a TextBody. */
  alternateContent?: { contentType: string; schema: z.ZodType };
  /** The data, or the data serialized once where it is cached. */
  handler(
    call: PartnerCall<z.output<S>, z.output<P>>,
  ): Promise<EnvelopeData<R> | JsonText<EnvelopeData<R>> | TextBody>;
}

/**
 * An endpoint that names a vault or a wallet says where they are (`target`) and gives the security
 * suite a request that names them (`sample`); one that names nothing targets no vault or wallet, and
 * its sample is its path unless it says otherwise.
 */
type Naming<S extends z.ZodObject, P extends z.ZodObject> =
  | { names: "nothing"; target?: undefined; sample?: SampleRequest }
  | {
      names: Exclude<Names, "nothing">;
      target(input: z.output<S>, params: z.output<P>): RequestTarget;
      sample: SampleRequest;
    };

const NO_TARGET: RequestTarget = { vault: null, wallet: null };

export function partnerEndpoint<
  S extends z.ZodObject,
  R extends z.ZodType,
  P extends z.ZodObject = z.ZodObject<Record<string, never>>,
>(definition: PartnerDefinition<S, R, P> & Naming<S, P>): EndpointDefinition {
  const { input, params, target, sample, handler, statuses, openToPages, ...rest } = definition;
  return {
    ...rest,
    audience: "partner",
    params: params ?? null,
    query: input.from === "query" ? input.schema : null,
    body: input.from === "body" ? input.schema : null,
    statuses: [...new Set([...PARTNER_STATUSES, ...statuses])].sort((a, b) => a - b),
    errorBodies: {},
    sample: sample ?? (() => ({ path: definition.path })),
    handler: withPartnerKey<S, P>(handler, {
      scope: definition.scope,
      openToPages: openToPages === true,
      input,
      params,
      target: target ?? (() => NO_TARGET),
    }),
  };
}

/**
 * A partner read of one vault by its path id: read scope, open to the pages, 404 for a vault the
 * directory does not know, the key's vault restriction checked against the path.
 */
export function vaultReadEndpoint<S extends z.ZodObject, R extends z.ZodType>(
  definition: Omit<Common, "method"> & {
    query: S;
    response: R;
    /** The query string of the sample request, if any (`interval=hour`). */
    sampleQuery?: string;
    handler(
      call: PartnerCall<z.output<S>, z.output<typeof vaultPathParams>>,
    ): Promise<EnvelopeData<R> | JsonText<EnvelopeData<R>>>;
  },
): EndpointDefinition {
  const { query, sampleQuery, path, ...rest } = definition;
  return partnerEndpoint({
    ...rest,
    method: "GET",
    path,
    scope: "read",
    openToPages: true,
    params: vaultPathParams,
    input: { from: "query", schema: query },
    statuses: [404],
    names: "vault",
    target: (_input, params) => ({ vault: params.vault_id, wallet: null }),
    sample: ({ vault }) => ({
      path: `${path.replace(":vault_id", vault)}${sampleQuery === undefined ? "" : `?${sampleQuery}`}`,
    }),
  });
}

/**
 * A keyless read of one vault (bare bodies): GET, the per-address public limit, `?vault=` or the
 * deployment's default vault, 404 for an unknown one. Its body is kept ~10 s per vault in the
 * context's `publicReads`: `read` runs once per expiry however many callers wait.
 */
export function publicEndpoint<R extends z.ZodObject>(
  definition: Omit<Common, "method"> & {
    response: R;
    read(vault: PublicKey, context: ApiContext): Promise<z.input<R>>;
  },
): EndpointDefinition {
  const { read, ...rest } = definition;
  return {
    ...rest,
    method: "GET",
    audience: "public",
    scope: null,
    params: null,
    query: publicVaultQuery,
    body: null,
    statuses: [...PUBLIC_STATUSES, 404].sort((a, b) => a - b),
    errorBodies: {},
    names: "nothing",
    sample: null,
    handler: withPublic(
      ({ query, context }) => {
        const vault = query.vault ?? context.config.defaultVaultId;
        return context.publicReads(definition.operationId).get(base58Of(vault), () => read(vault, context));
      },
      { limit: PUBLIC_LIMIT, query: publicVaultQuery },
    ),
  };
}

/** Keyless operations endpoints that write their own response (health, the OpenAPI document). */
export function opsEndpoint(
  definition: Common & {
    response: z.ZodType;
    contentType?: string;
    errorBodies?: Readonly<Partial<Record<number, z.ZodType>>>;
    statuses: readonly number[];
    handler: ApiHandler;
  },
): EndpointDefinition {
  return {
    ...definition,
    errorBodies: definition.errorBodies ?? {},
    audience: "ops",
    scope: null,
    params: null,
    query: null,
    body: null,
    names: "nothing",
    sample: null,
    statuses: [...new Set([...definition.statuses, 405])].sort((a, b) => a - b),
  };
}

/** What every Solana Actions endpoint can answer beyond its own statuses. */
const ACTION_STATUSES = [200, 400, 405, 429, 503] as const;

/** A Solana Actions endpoint: keyless, limited per client IP, `{ message }` errors (with-action.ts). */
export function actionEndpoint<
  P extends z.ZodObject,
  Q extends z.ZodObject,
  B extends z.ZodObject | undefined,
>(
  definition: Common & {
    params: P;
    query: Q;
    body: B;
    response: z.ZodType;
    statuses: readonly number[];
    handler(
      call: ActionCall<z.output<P>, z.output<Q>, B extends z.ZodType ? z.output<B> : undefined>,
    ): Promise<object>;
  },
): EndpointDefinition {
  const { params, query, body, handler, statuses, ...rest } = definition;
  const allStatuses = [...new Set([...ACTION_STATUSES, ...statuses])].sort((a, b) => a - b);
  return {
    ...rest,
    audience: "actions",
    scope: null,
    params: Object.keys(params.shape).length === 0 ? null : params,
    query: Object.keys(query.shape).length === 0 ? null : query,
    body: body ?? null,
    statuses: allStatuses,
    // Every refusal is the specification's `{ message }`, not the API's envelope.
    errorBodies: Object.fromEntries(
      allStatuses.filter((status) => status >= 400).map((status) => [status, actionErrorSchema]),
    ),
    names: "nothing",
    sample: ({ vault, wallet }) => ({
      path: rest.path.replace(":vault_id", vault),
      body: rest.method === "POST" ? { account: wallet } : undefined,
    }),
    handler: withAction(handler, { params, query, body }),
  };
}
