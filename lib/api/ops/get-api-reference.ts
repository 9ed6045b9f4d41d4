// GET /api/docs
import { docsAsset, PAGE } from "./api-reference";

export const getDocs = docsAsset(
  "getApiReference",
  "/api/docs",
  "The API reference (Swagger UI over /api/openapi.json)",
  "text/html",
  async () => PAGE,
);
