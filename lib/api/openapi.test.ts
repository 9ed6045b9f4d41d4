// What the OpenAPI document promises, checked on the document itself: an operationId on every
// operation, formats on every base58 field, every status each endpoint can answer, and the rate-limit
// headers on every partner response with Retry-After on each 429.
import { describe, expect, it } from "vitest";

import { ENDPOINTS, openApiDocument } from "./endpoints";

interface Operation {
  operationId?: string;
  parameters?: { name: string; schema: Record<string, unknown> }[];
  responses: Record<string, { headers?: Record<string, unknown> }>;
}

const document = JSON.parse(openApiDocument()) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, Record<string, unknown>> }> };
};
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ name: `${method} ${path}`, operation })),
);

describe("the OpenAPI document", () => {
  it("names every operation once", () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids.every((id) => typeof id === "string" && id !== "")).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operations).toHaveLength(ENDPOINTS.length);
  });

  it("gives every base58 field a pattern and lengths", () => {
    const fields = [
      ...operations.flatMap(({ operation }) =>
        (operation.parameters ?? []).map((parameter) => [parameter.name, parameter.schema] as const),
      ),
      ...Object.values(document.components.schemas).flatMap((schema) =>
        Object.entries(schema.properties ?? {}),
      ),
    ].filter(([name]) => ["wallet", "vault_id", "signature"].includes(name));
    expect(fields.length).toBeGreaterThan(10);
    for (const [name, schema] of fields) {
      if (schema.$ref !== undefined || schema.type !== "string") {
        continue;
      }
      expect(schema, name).toMatchObject({
        pattern: expect.any(String),
        minLength: expect.any(Number),
        maxLength: expect.any(Number),
      });
    }
  });

  it("lists each endpoint's statuses, 405 everywhere and 400 on the keyless reads", () => {
    for (const endpoint of ENDPOINTS) {
      const path = endpoint.path.replace(/:([a-z_]+)/g, "{$1}");
      const operation = document.paths[path]?.[endpoint.method.toLowerCase()];
      expect(Object.keys(operation?.responses ?? {}).map(Number), endpoint.operationId).toEqual(
        endpoint.statuses,
      );
      expect(endpoint.statuses, endpoint.operationId).toContain(405);
      if (endpoint.audience !== "ops") {
        expect(endpoint.statuses, endpoint.operationId).toContain(400);
      }
    }
  });

  it("documents the rate-limit headers on every partner response and Retry-After on 429", () => {
    for (const endpoint of ENDPOINTS.filter((entry) => entry.audience === "partner")) {
      const path = endpoint.path.replace(/:([a-z_]+)/g, "{$1}");
      const responses = document.paths[path]?.[endpoint.method.toLowerCase()]?.responses ?? {};
      for (const [status, response] of Object.entries(responses)) {
        expect(Object.keys(response.headers ?? {}), `${endpoint.operationId} ${status}`).toEqual(
          expect.arrayContaining(["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]),
        );
      }
      expect(Object.keys(responses["429"]?.headers ?? {})).toContain("Retry-After");
      expect(Object.keys(responses["401"]?.headers ?? {})).toContain("WWW-Authenticate");
    }
  });
});
