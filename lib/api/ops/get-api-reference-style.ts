// GET /api/docs/swagger-ui.css
import { docsAsset, swaggerFile } from "./api-reference";

export const getDocsStyle = docsAsset(
  "getApiReferenceStyle",
  "/api/docs/swagger-ui.css",
  "The API reference's style sheet",
  "text/css",
  () => swaggerFile("swagger-ui.css"),
);
