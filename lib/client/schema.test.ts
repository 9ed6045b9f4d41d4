// The checked-in client types are what `npm run client:generate` makes of the document the API serves
// now: regenerated into a temporary directory and compared, so client and server cannot drift.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { openApiDocument } from "../api/endpoints";
import { SCHEMA_FILE, generateSchemaSource } from "./generate";

describe("lib/client/schema.ts", () => {
  it("is up to date with the served OpenAPI document (run `npm run client:generate` if not)", async () => {
    const directory = await mkdtemp(join(tmpdir(), "client-schema-"));
    try {
      const fresh = join(directory, "schema.ts");
      await writeFile(fresh, await generateSchemaSource(openApiDocument()));
      expect(await readFile(SCHEMA_FILE, "utf8")).toBe(await readFile(fresh, "utf8"));
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
