// What GET /api/docs (the API reference) and its three assets share: the reference is rendered in the browser by Swagger UI from GET /api/openapi.json.
// Swagger UI's script and style come from this server (the swagger-ui-dist package), never a CDN, and
// the page starts it from a script of ours, so its CSP allows scripts from 'self' only.
import { readFile } from "node:fs/promises";
import { join } from "node:path";

import { z } from "zod";

import { APP_ROOT } from "../../env-schema";
import { opsEndpoint, type EndpointDefinition } from "../endpoint";
import { API_REFERENCE_HEADER } from "../first-party-session";

const SWAGGER_UI = join(APP_ROOT, "node_modules", "swagger-ui-dist");

/** Swagger UI draws with inline styles and data: images; everything else comes from this origin. */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join("; ");

export const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Vault gateway API reference</title>
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<noscript>The reference needs JavaScript; the document itself is at <a href="/api/openapi.json">/api/openapi.json</a>.</noscript>
<p id="key-note" style="font-family:sans-serif;max-width:1400px;margin:16px auto 0;padding:0 20px">
"Try it out" calls this API as a partner does: press <strong>Authorize</strong> and enter your API key
(<code>npm run keys -- create</code>). Without one the API answers 401, and so does the curl shown.
</p>
<div id="reference"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/start.js"></script>
</body>
</html>
`;

// "Try it out" sends requests from the reader's browser to this same API with the key they enter, as a
// partner's: without the app's session cookie, and marked so the pages' own credentials do not answer
// them (first-party-session.ts). The curl it prints is then what the request was.
export const START = `window.addEventListener("load", function () {
  window.SwaggerUIBundle({
    url: "/api/openapi.json",
    dom_id: "#reference",
    deepLinking: true,
    docExpansion: "list",
    tryItOutEnabled: false,
    validatorUrl: null,
    persistAuthorization: true,
    requestInterceptor: function (request) {
      request.credentials = "omit";
      request.headers[${JSON.stringify(API_REFERENCE_HEADER)}] = "try-it-out";
      return request;
    },
  });
});
`;

const cachedFiles = new Map<string, Promise<string>>();

/** A file of swagger-ui-dist, read once per process. */
export function swaggerFile(name: string): Promise<string> {
  let file = cachedFiles.get(name);
  if (file === undefined) {
    file = readFile(join(SWAGGER_UI, name), "utf8");
    // A failed read (a broken install) is tried again on the next request, not remembered.
    file.catch(() => cachedFiles.delete(name));
    cachedFiles.set(name, file);
  }
  return file;
}

const textBody = z.string();

export function docsAsset(
  operationId: string,
  path: string,
  summary: string,
  contentType: string,
  body: () => Promise<string>,
): EndpointDefinition {
  return opsEndpoint({
    operationId,
    method: "GET",
    path,
    summary,
    contentType,
    response: textBody,
    statuses: [200],
    handler: async () => ({
      status: 200,
      headers: {
        "Content-Type": `${contentType}; charset=utf-8`,
        "Cache-Control": "public, max-age=3600",
        "Content-Security-Policy": DOCS_CSP,
      },
      body: await body(),
    }),
  });
}
