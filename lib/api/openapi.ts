// The OpenAPI 3.1 document of a list of endpoint definitions, generated from the same zod schemas that
// validate requests (their input side) and describe responses. Named schemas (`.meta({ id })`) become
// components. The list is an argument: endpoints.ts, which holds it, composes the served document.
import { z } from "zod";

import type { EndpointDefinition } from "./endpoint";
import { errorEnvelopeSchema } from "./schemas/common";
import { actionErrorSchema } from "./schemas/actions";
import { bareErrorSchema } from "./schemas/public";

type JsonObject = Record<string, unknown>;

/** The document's named schemas, filled as its operations are built. */
type Components = Record<string, unknown>;

/** A zod schema as JSON Schema with its named parts moved to components. */
function schemaOf(components: Components, schema: z.ZodType, io: "input" | "output"): unknown {
  const generated = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    target: "draft-2020-12",
  }) as JsonObject;
  const text = JSON.stringify(generated).replaceAll('"#/$defs/', '"#/components/schemas/');
  const { $defs, $schema: _schema, ...rest } = JSON.parse(text) as JsonObject & { $defs?: JsonObject };
  Object.assign(components, $defs ?? {});
  const id = (schema.meta() as { id?: string } | undefined)?.id;
  if (id !== undefined) {
    // A named schema comes back as a reference to its own definition, already moved above.
    if (components[id] === undefined || rest.$ref === undefined) {
      components[id] = rest;
    }
    return { $ref: `#/components/schemas/${id}` };
  }
  return rest;
}

function parametersOf(components: Components, schema: z.ZodObject, location: "query" | "path"): unknown[] {
  const json = schemaOf(components, schema, "input") as {
    properties?: JsonObject;
    required?: string[];
    $ref?: string;
  };
  const resolved = (json.$ref === undefined ? json : components[json.$ref.split("/").at(-1) ?? ""]) as {
    properties?: JsonObject;
    required?: string[];
  };
  return Object.entries(resolved.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === "path" || (resolved.required ?? []).includes(name),
    schema: property,
  }));
}

const jsonContent = (schema: unknown) => ({ "application/json": { schema } });

const STATUS_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: "Malformed JSON or an invalid or missing field (the message names it)",
  401: "Missing, malformed, unknown or revoked API key (WWW-Authenticate: Bearer)",
  403: "The key lacks the scope, or is restricted to other vaults or another wallet",
  404: "Unknown vault",
  405: "Method not allowed; Allow lists the path's methods",
  409: "State conflict (the message says which)",
  413: "Body over 16 KiB",
  415: "Content-Type is not application/json",
  422: "A rule the request breaks: balance, minimum, capacity, unverifiable transaction",
  429: "Rate limited; retry after Retry-After seconds",
  503: "The chain or the database is unreachable; retry after Retry-After seconds",
};

const rateLimitHeaders = {
  "X-RateLimit-Limit": { schema: { type: "integer" }, description: "Requests allowed in the window" },
  "X-RateLimit-Remaining": { schema: { type: "integer" }, description: "Requests left in the window" },
  "X-RateLimit-Reset": { schema: { type: "integer" }, description: "Unix time (s) when the window resets" },
};
const retryAfter = { "Retry-After": { schema: { type: "integer" }, description: "Seconds to wait" } };
const allowHeader = { Allow: { schema: { type: "string" }, description: "The methods of this path" } };

/**
 * The headers a status carries: every partner answer has the rate-limit headers; 429 Retry-After too,
 * and so does the error 503 (lib/api/responses.ts), unlike an endpoint's own 503 body (health's).
 */
function headersOf(endpoint: EndpointDefinition, status: number): JsonObject | undefined {
  const headers: JsonObject = {
    ...(endpoint.audience === "partner" ? rateLimitHeaders : {}),
    ...(status === 429 ? { ...rateLimitHeaders, ...retryAfter } : {}),
    ...(status === 503 && endpoint.errorBodies[503] === undefined ? retryAfter : {}),
    ...(status === 405 ? allowHeader : {}),
    ...(status === 401
      ? { "WWW-Authenticate": { schema: { type: "string" }, description: 'Bearer realm="api"' } }
      : {}),
  };
  return Object.keys(headers).length === 0 ? undefined : headers;
}

function responseOf(components: Components, endpoint: EndpointDefinition, status: number): JsonObject {
  const headers = headersOf(endpoint, status);
  const body =
    status < 300
      ? endpoint.response
      : (endpoint.errorBodies[status] ??
        (endpoint.audience === "partner"
          ? errorEnvelopeSchema
          : endpoint.audience === "actions"
            ? actionErrorSchema
            : bareErrorSchema));
  const description =
    status < 300
      ? endpoint.audience === "partner"
        ? "Success (the envelope)"
        : "Success"
      : (STATUS_DESCRIPTIONS[status] ?? "Error");
  return {
    description:
      endpoint.operationId === "getHealth" && status === 503 ? "Degraded: the same checks" : description,
    ...(headers === undefined ? {} : { headers }),
    content:
      status < 300 && endpoint.contentType !== undefined
        ? { [endpoint.contentType]: { schema: schemaOf(components, body, "output") } }
        : {
            ...jsonContent(schemaOf(components, body, "output")),
            ...(status < 300 && endpoint.alternateContent !== undefined
              ? {
                  [endpoint.alternateContent.contentType]: {
                    schema: schemaOf(components, endpoint.alternateContent.schema, "output"),
                  },
                }
              : {}),
          },
  };
}

const AUDIENCE_NOTES: Readonly<Record<EndpointDefinition["audience"], string>> = {
  partner: "",
  public:
    "Keyless; bare body (no envelope). 20 requests / 5 s per client IP. Cache-Control: public, s-maxage=60; Access-Control-Allow-Origin: *.",
  ops: "Keyless; not rate-limited.",
  actions:
    "Solana Actions (blinks): keyless, 20 requests / 5 s per client IP; Access-Control-Allow-Origin: *, X-Action-Version and X-Blockchain-Ids on every response and preflight; errors are { message }.",
};

function operationOf(components: Components, endpoint: EndpointDefinition): JsonObject {
  const description =
    endpoint.scope === null
      ? AUDIENCE_NOTES[endpoint.audience]
      : `Needs a ${endpoint.scope}-scope key${endpoint.scope === "read" ? " (write keys include read)" : ""}.`;
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description,
    security: endpoint.audience === "partner" ? [{ bearer: [] }] : [],
    parameters: [
      ...(endpoint.params === null ? [] : parametersOf(components, endpoint.params, "path")),
      ...(endpoint.query === null ? [] : parametersOf(components, endpoint.query, "query")),
    ],
    ...(endpoint.body === null
      ? {}
      : {
          requestBody: { required: true, content: jsonContent(schemaOf(components, endpoint.body, "input")) },
        }),
    responses: Object.fromEntries(
      endpoint.statuses.map((status) => [String(status), responseOf(components, endpoint, status)]),
    ),
  };
}

/** "/api/vault/:vault_id" → "/api/vault/{vault_id}" */
function openApiPath(pattern: string): string {
  return pattern.replace(/:([a-z_]+)/g, "{$1}");
}

/** The document of these endpoints, one operation each, in their order. */
export function buildOpenApiDocument(endpoints: readonly EndpointDefinition[]): JsonObject {
  const components: Components = {};
  const paths: Record<string, JsonObject> = {};
  for (const endpoint of endpoints) {
    const path = (paths[openApiPath(endpoint.path)] ??= {});
    path[endpoint.method.toLowerCase()] = operationOf(components, endpoint);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Vault transaction-building and public oracle service",
      version: "1.0.0",
      description:
        "Partner endpoints answer in the envelope { success, data } / { success: false, error, details?, code, context?, requestId }: `error` is for people; `context` holds the facts behind `code`, typed per code (the …Context schemas). Raw integer amounts are strings of digits in responses; requests accept an integer or a string. Every response carries X-Request-Id.",
    },
    servers: [{ url: "/" }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "API key: vk_live_… or vk_test_…" },
      },
      schemas: components,
    },
  };
}
