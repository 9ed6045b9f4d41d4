// GET /api/openapi.json — the OpenAPI 3.1 document of this API.
import type { ApiHandler } from "../handler";
import { openApiDocument } from "../openapi";

export const getOpenApi: ApiHandler = async () => ({
  status: 200,
  headers: {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "public, max-age=300",
    "Access-Control-Allow-Origin": "*",
  },
  body: openApiDocument(),
});
