// The OpenAPI 3.1 document, generated from the same zod schemas that validate requests (their input
// side) and describe responses. Named schemas (`.meta({ id })`) become components.
import { z } from "zod";

import { errorEnvelopeSchema, vaultPathParams } from "./schemas/common";
import { depositRequest, depositResponse } from "./schemas/deposit";
import { historyFeedResponse, historyQuery, historyRecordResponse, historyRequest } from "./schemas/history";
import {
  bareErrorSchema,
  circulatingSupplyBody,
  healthBody,
  oracleBody,
  publicVaultQuery,
} from "./schemas/public";
import { allocationsResponse, portfolioQuery, portfolioResponse } from "./schemas/portfolio";
import {
  MAX_SERIES_POINTS,
  navHistoryQuery,
  navHistoryResponse,
  pnlHistoryResponse,
  portfolioHistoryResponse,
  positionHistoryQuery,
} from "./schemas/position-history";
import { navResponse, statsResponse, vaultResponse, vaultsResponse } from "./schemas/vaults";
import {
  withdrawRequest,
  withdrawResponse,
  withdrawStatusQuery,
  withdrawalStatusResponse,
} from "./schemas/withdraw";

type JsonObject = Record<string, unknown>;

const components: Record<string, unknown> = {};

/** A zod schema as JSON Schema with its named parts moved to components. */
function schemaOf(schema: z.ZodType, io: "input" | "output"): unknown {
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

function parametersOf(schema: z.ZodObject, location: "query" | "path"): unknown[] {
  const json = schemaOf(schema, "input") as { properties?: JsonObject; required?: string[]; $ref?: string };
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

function partnerErrors(codes: number[]): Record<string, unknown> {
  const descriptions: Record<number, string> = {
    400: "Malformed JSON or an invalid or missing field (the message names it)",
    401: "Missing, malformed, unknown or revoked API key",
    403: "The key lacks the scope, or is restricted to other vaults or another wallet",
    404: "Unknown vault",
    409: "State conflict (the message says which)",
    413: "Body over 16 KiB",
    415: "Content-Type is not application/json",
    422: "A rule the request breaks: balance, minimum, capacity, unverifiable transaction",
    429: "Rate limited; see Retry-After",
    503: "The chain or the database is unreachable",
  };
  return Object.fromEntries(
    codes.map((code) => [
      String(code),
      {
        description: descriptions[code] ?? "Error",
        content: jsonContent(schemaOf(errorEnvelopeSchema, "output")),
      },
    ]),
  );
}

const rateLimitHeaders = {
  "X-RateLimit-Limit": { schema: { type: "integer" }, description: "Requests allowed in the window" },
  "X-RateLimit-Remaining": { schema: { type: "integer" }, description: "Requests left in the window" },
  "X-RateLimit-Reset": { schema: { type: "integer" }, description: "Unix time (s) when the window resets" },
};

function partnerOperation(options: {
  summary: string;
  scope: "read" | "write";
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  response: z.ZodType;
  errors: number[];
}): JsonObject {
  return {
    summary: options.summary,
    description: `Needs a ${options.scope}-scope key${options.scope === "read" ? " (write keys include read)" : ""}.`,
    security: [{ bearer: [] }],
    parameters: [
      ...(options.params === undefined ? [] : parametersOf(options.params, "path")),
      ...(options.query === undefined ? [] : parametersOf(options.query, "query")),
    ],
    ...(options.body === undefined
      ? {}
      : { requestBody: { required: true, content: jsonContent(schemaOf(options.body, "input")) } }),
    responses: {
      "200": {
        description: "Success (the envelope)",
        headers: rateLimitHeaders,
        content: jsonContent(schemaOf(options.response, "output")),
      },
      ...partnerErrors([401, 403, 429, 503, ...options.errors]),
    },
  };
}

function publicOperation(summary: string, body: z.ZodType): JsonObject {
  return {
    summary,
    description:
      "Keyless; bare body (no envelope). 20 requests / 5 s per client IP. Cache-Control: public, s-maxage=60; Access-Control-Allow-Origin: *.",
    security: [],
    parameters: parametersOf(publicVaultQuery, "query"),
    responses: {
      "200": { description: "Success", content: jsonContent(schemaOf(body, "output")) },
      "404": { description: "Unknown vault", content: jsonContent(schemaOf(bareErrorSchema, "output")) },
      "429": {
        description: "Rate limited",
        headers: { ...rateLimitHeaders, "Retry-After": { schema: { type: "integer" } } },
        content: jsonContent(schemaOf(bareErrorSchema, "output")),
      },
    },
  };
}

/** Solana Actions routes: their bodies are the Actions specification's (@solana/actions types). */
function actionOperation(summary: string, success: string, body: "account" | "callback" | null): JsonObject {
  const account = { type: "string", description: "The wallet's public key (base58); it pays the fee" };
  const properties =
    body === "callback"
      ? { account, signature: { type: "string", description: "Signature of the confirmed transaction" } }
      : { account };
  return {
    summary,
    description:
      "Solana Actions (blinks): keyless, 20 requests / 5 s per client IP, Access-Control-Allow-Origin: *, X-Action-Version and X-Blockchain-Ids on every response and preflight. Errors answer { message }.",
    security: [],
    ...(body === null
      ? {}
      : {
          requestBody: {
            required: true,
            content: jsonContent({ type: "object", required: Object.keys(properties), properties }),
          },
        }),
    responses: {
      "200": { description: success, content: jsonContent({ type: "object" }) },
      "400": { description: "Invalid account, amount or signature", content: jsonContent(actionErrorSchema) },
      "404": { description: "Unknown vault", content: jsonContent(actionErrorSchema) },
      "409": { description: "The wallet's state does not allow it", content: jsonContent(actionErrorSchema) },
      "422": { description: "A rule the request breaks", content: jsonContent(actionErrorSchema) },
      "429": { description: "Rate limited", content: jsonContent(actionErrorSchema) },
    },
  };
}

const actionErrorSchema = {
  type: "object",
  required: ["message"],
  properties: { message: { type: "string" } },
};

function actionPaths(getSummary: string, postSummary: string): JsonObject {
  return {
    get: actionOperation(getSummary, "ActionGetResponse", null),
    post: actionOperation(
      postSummary,
      "ActionPostResponse: { type: transaction, transaction, message, links.next }",
      "account",
    ),
  };
}

function buildDocument(): JsonObject {
  const withdrawBuild = partnerOperation({
    summary:
      "Initiate a withdrawal or claim a pending one (action detected from on-chain state unless given)",
    scope: "write",
    params: vaultPathParams,
    body: withdrawRequest,
    response: withdrawResponse,
    errors: [400, 404, 409, 413, 415, 422],
  });
  const paths = {
    "/api/vault/{vault_id}/deposit": {
      post: partnerOperation({
        summary: "Build an unsigned deposit transaction",
        scope: "write",
        params: vaultPathParams,
        body: depositRequest,
        response: depositResponse,
        errors: [400, 404, 409, 413, 415, 422],
      }),
    },
    "/api/vault/{vault_id}/withdraw": {
      get: partnerOperation({
        summary: "Withdrawal status for a wallet",
        scope: "read",
        params: vaultPathParams,
        query: withdrawStatusQuery,
        response: withdrawalStatusResponse,
        errors: [400, 404],
      }),
      post: withdrawBuild,
      put: { ...withdrawBuild, summary: "Alias of POST, identical behaviour" },
    },
    "/api/history": {
      post: partnerOperation({
        summary: "Record a confirmed transaction signature (idempotent; a claim before its initiate is 409)",
        scope: "write",
        body: historyRequest,
        response: historyRecordResponse,
        errors: [400, 404, 409, 413, 415, 422],
      }),
      get: partnerOperation({
        summary: "A wallet's recorded activity on a vault, newest first",
        scope: "read",
        query: historyQuery,
        response: historyFeedResponse,
        errors: [400, 404],
      }),
    },
    "/api/vaults": {
      get: partnerOperation({
        summary: "Every vault of the program: tokens, share price, TVL, APY, caps, paused",
        scope: "read",
        response: vaultsResponse,
        errors: [],
      }),
    },
    "/api/vault/{vault_id}": {
      get: partnerOperation({
        summary: "One vault in full, with its withdrawal policy and current limits",
        scope: "read",
        params: vaultPathParams,
        response: vaultResponse,
        errors: [400, 404],
      }),
    },
    "/api/vault/{vault_id}/nav": {
      get: partnerOperation({
        summary: "Share price, total assets and shares, NAV sequence and when it was struck",
        scope: "read",
        params: vaultPathParams,
        response: navResponse,
        errors: [400, 404],
      }),
    },
    "/api/vault/{vault_id}/stats": {
      get: partnerOperation({
        summary: "TVL, depositors, APY over 7 and 30 days (fractions), queue and staging, time to claimable",
        scope: "read",
        params: vaultPathParams,
        response: statsResponse,
        errors: [400, 404],
      }),
    },
    "/api/vault/{vault_id}/allocations": {
      get: partnerOperation({
        summary: "Where the NAV sits: idle reserve, funded for the queue, deployed (amounts and fractions)",
        scope: "read",
        params: vaultPathParams,
        response: allocationsResponse,
        errors: [400, 404],
      }),
    },
    "/api/portfolio": {
      get: partnerOperation({
        summary: "The wallet's positions: shares, value, cost basis, PnL (fractions), pending withdrawal",
        scope: "read",
        query: portfolioQuery,
        response: portfolioResponse,
        errors: [400],
      }),
    },
    "/api/vault/{vault_id}/portfolio-history": {
      get: partnerOperation({
        summary: `The wallet's position in the vault over time: shares, value, cost basis, PnL; pnlPct and sharePriceChangePct in percent (8.24 = 8.24%). Points at from, each UTC hour/day/week boundary and to; at most ${MAX_SERIES_POINTS}`,
        scope: "read",
        params: vaultPathParams,
        query: positionHistoryQuery,
        response: portfolioHistoryResponse,
        errors: [400, 404],
      }),
    },
    "/api/vault/{vault_id}/pnl-history": {
      get: partnerOperation({
        summary: `The wallet's unrealized and realized PnL in the vault over time (asset units) and pnlPct in percent (8.24 = 8.24%); at most ${MAX_SERIES_POINTS} points`,
        scope: "read",
        params: vaultPathParams,
        query: positionHistoryQuery,
        response: pnlHistoryResponse,
        errors: [400, 404],
      }),
    },
    "/api/vault/{vault_id}/nav-history": {
      get: partnerOperation({
        summary: `The share price series from the indexed NAV strikes: at each point the NAV struck at or before it; at most ${MAX_SERIES_POINTS} points`,
        scope: "read",
        params: vaultPathParams,
        query: navHistoryQuery,
        response: navHistoryResponse,
        errors: [400, 404],
      }),
    },
    "/api/circulating-supply": {
      get: publicOperation("Share token supply (human units)", circulatingSupplyBody),
    },
    "/api/oracle": { get: publicOperation("Share price (NAV per share, USD), cached ~10 s", oracleBody) },
    "/api/health": {
      get: {
        summary: "Chain, store and Redis health",
        security: [],
        responses: {
          "200": { description: "Healthy", content: jsonContent(schemaOf(healthBody, "output")) },
          "503": { description: "Degraded" },
        },
      },
    },
    "/api/openapi.json": {
      get: { summary: "This document", security: [], responses: { "200": { description: "OpenAPI 3.1" } } },
    },
    "/actions.json": {
      get: {
        summary: "Solana Actions: which site paths have actions",
        security: [],
        responses: { "200": { description: "ActionsJson" } },
      },
    },
    "/api/actions/vault/{vault_id}/deposit": actionPaths(
      "Deposit action metadata",
      "Unsigned v0 deposit transaction (?amount= in the asset's units)",
    ),
    "/api/actions/vault/{vault_id}/withdraw": actionPaths(
      "Withdraw action metadata",
      "Unsigned v0 withdrawal request (?amount= value in the asset's units, or ?shares=)",
    ),
    "/api/actions/vault/{vault_id}/claim": actionPaths(
      "Claim action metadata",
      "Unsigned v0 claim of the pending withdrawal",
    ),
    "/api/actions/vault/{vault_id}/confirm": {
      post: actionOperation(
        "The actions' chained callback: verifies and records the signature as POST /api/history does",
        "CompletedAction",
        "callback",
      ),
    },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "Vault transaction-building and public oracle service",
      version: "1.0.0",
      description:
        "Partner endpoints answer in the envelope { success, data } / { success: false, error, details?, code, requestId }. Raw integer amounts are strings of digits in responses; requests accept an integer or a string.",
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

let cached: string | null = null;

/** The document as JSON text, built once. */
export function openApiDocument(): string {
  cached ??= JSON.stringify(buildDocument());
  return cached;
}
