// GET /api/health, the OpenAPI document, unknown paths and the request id every response carries.
import { describe, expect, it } from "vitest";

import { dataOf } from "../harness";
import { endpointSuite, errorBody, expectError } from "./setup";

const api = endpointSuite();

describe("operations", () => {
  it("serves health with the chain's slot and lag, the store and Redis", async () => {
    const health = await api.harness.request("GET", "/api/health");
    expect(health.status).toBe(200);
    expect(dataOf(health)).toMatchObject({
      status: "ok",
      chain: { ok: true },
      store: { ok: true },
      redis: { ok: true },
    });
  });

  it("serves the OpenAPI document and a request id on every response", async () => {
    const document = await api.harness.request("GET", "/api/openapi.json");
    expect((document.body as { openapi: string }).openapi).toBe("3.1.0");
    expect(document.headers.get("x-request-id")).toMatch(/^req_/);
    const missing = await api.harness.request("GET", "/api/nope");
    expectError(missing, errorBody(404, "NOT_FOUND", "No such endpoint"));
    expect(missing.headers.get("x-request-id")).toBe((missing.body as { requestId: string }).requestId);
  });
});
