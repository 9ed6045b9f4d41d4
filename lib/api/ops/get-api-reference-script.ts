// GET /api/docs/swagger-ui-bundle.js
import { docsAsset, swaggerFile } from "./api-reference";

export const getDocsScript = docsAsset(
  "getApiReferenceScript",
  "/api/docs/swagger-ui-bundle.js",
  "The API reference's renderer (Swagger UI, served from this server)",
  "text/javascript",
  () => swaggerFile("swagger-ui-bundle.js"),
);
