// GET /api/openapi.json — the OpenAPI 3.1 document of this API. The document lists this endpoint too,
// so it is handed in (endpoints.ts composes both) rather than imported, which would close a circle.
import { z } from "zod";

import { opsEndpoint, type EndpointDefinition } from "../endpoint";

/** The endpoint answering `document()`, the document's JSON text. */
export const openApiEndpoint = (document: () => string): EndpointDefinition =>
  opsEndpoint({
    operationId: "getOpenApiDocument",
    method: "GET",
    path: "/api/openapi.json",
    summary: "This document (OpenAPI 3.1)",
    response: z.object({ openapi: z.string() }).catchall(z.unknown()).meta({ id: "OpenApiDocument" }),
    statuses: [200],
    handler: async () => ({
      status: 200,
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Cache-Control": "public, max-age=300",
        "Access-Control-Allow-Origin": "*",
      },
      body: document(),
    }),
  });
