// GET /api/docs/start.js
import { docsAsset, START } from "./api-reference";

export const getDocsStart = docsAsset(
  "getApiReferenceStart",
  "/api/docs/start.js",
  "The API reference's start-up script",
  "text/javascript",
  async () => START,
);
