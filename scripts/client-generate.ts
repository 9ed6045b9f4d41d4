// npm run client:generate [-- --url http://127.0.0.1:3000/api/openapi.json]: writes lib/client/schema.ts
// from the document a running API serves, or, without --url, from the same function that serves it.
import { writeFile } from "node:fs/promises";

import { parseCommandLineOrExit } from "../lib/cli/args";
import { openApiDocument } from "../lib/api/endpoints";
import { SCHEMA_FILE, generateSchemaSource } from "../lib/client/generate";

const { values } = parseCommandLineOrExit(
  "client:generate",
  "Usage: npm run client:generate [-- --url <openapi.json URL>]",
  process.argv.slice(2),
  { url: { type: "string" } },
);

async function documentText(): Promise<string> {
  if (values.url === undefined) {
    return openApiDocument();
  }
  const response = await fetch(values.url);
  if (!response.ok) {
    throw new Error(`GET ${values.url} answered ${response.status}`);
  }
  return response.text();
}

await writeFile(SCHEMA_FILE, await generateSchemaSource(await documentText()));
console.log(`wrote ${SCHEMA_FILE}`);
