// GET /api/openapi.json — the OpenAPI 3.1 document of this API.
import { z } from "zod";

import { opsEndpoint } from "../endpoint";
import { openApiDocument } from "../openapi";

export const getOpenApi = opsEndpoint({
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
    body: openApiDocument(),
  }),
});
