// Untyped input parsed once at the edge: the JSON body (content type, size, syntax), the query string
// and path parameters, each through its zod schema; every failure is a 4xx naming the field.
import type { z } from "zod";

import { ApiError, isApiError } from "./errors";
import type { ApiRequest } from "./handler";

export const MAX_BODY_BYTES = 16 * 1024;

const UTF8 = new TextDecoder("utf-8", { fatal: true });

function tooLarge(): ApiError {
  return new ApiError("PAYLOAD_TOO_LARGE", `The body is larger than ${MAX_BODY_BYTES} bytes`);
}

// A host that has already read the body (lib/api/node-host.ts) passes the bytes, or the fact that
// they went over the limit, as `rawBody`; otherwise the request's stream is read here.
async function readLimited(request: ApiRequest): Promise<string> {
  const registered = request.rawBody;
  if (registered === "too-large") {
    throw tooLarge();
  }
  if (registered !== undefined) {
    return UTF8.decode(registered);
  }
  const declared = request.headers.get("content-length");
  if (declared !== null && (!/^\d+$/.test(declared) || Number(declared) > MAX_BODY_BYTES)) {
    throw tooLarge();
  }
  if (request.body === null) {
    return "";
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return UTF8.decode(Buffer.concat(chunks));
}

export async function readJsonBody(request: ApiRequest): Promise<unknown> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(contentType.trim())) {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json");
  }
  let text: string;
  try {
    text = await readLimited(request);
  } catch (error) {
    if (isApiError(error)) {
      throw error;
    }
    throw new ApiError("INVALID_JSON", "The body is not valid UTF-8 JSON");
  }
  if (text.trim() === "") {
    throw new ApiError("INVALID_JSON", "The body is empty; send a JSON object");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("INVALID_JSON", "The body is not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ApiError("INVALID_REQUEST", "body: must be a JSON object");
  }
  return value;
}

/** The query string as an object; a parameter given twice is refused rather than guessed at. */
export function readQuery(request: ApiRequest, url: URL = new URL(request.url)): Record<string, string> {
  const params = url.searchParams;
  const query: Record<string, string> = {};
  for (const [name, value] of params) {
    if (Object.hasOwn(query, name)) {
      throw new ApiError("INVALID_REQUEST", `${name}: must be given once`);
    }
    query[name] = value;
  }
  return query;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (typeof current !== "object" || current === null) {
      return undefined;
    }
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

// C0 controls (NUL included), DEL and C1 controls. No field of the API carries them (ids, keys,
// signatures, amounts, URLs, free text), and PostgreSQL refuses NUL in text outright.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** The path of the first string (key or value) holding a control character, or null. */
function controlCharacterAt(
  input: unknown,
  path: readonly PropertyKey[] = [],
): readonly PropertyKey[] | null {
  if (typeof input === "string") {
    return CONTROL_CHARACTER.test(input) ? path : null;
  }
  if (typeof input !== "object" || input === null) {
    return null;
  }
  for (const [key, value] of Object.entries(input)) {
    const at = [...path, Array.isArray(input) ? Number(key) : key];
    if (CONTROL_CHARACTER.test(key)) {
      return at;
    }
    const found = controlCharacterAt(value, at);
    if (found !== null) {
      return found;
    }
  }
  return null;
}

/**
 * Parses with the schema; the first issue becomes a 400 naming its field. A control character in any
 * string of the input (body, query or path parameter) is refused first, whatever the schema.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const control = controlCharacterAt(input);
  if (control !== null) {
    const field = control.length === 0 ? "body" : control.map(String).join(".");
    throw new ApiError("INVALID_REQUEST", `${field}: must not contain control characters`);
  }
  const result = schema.safeParse(input);
  if (result.success) {
    return result.data;
  }
  const issue = result.error.issues[0];
  const path = issue?.path ?? [];
  const field = path.length === 0 ? "body" : path.map(String).join(".");
  const missing = path.length > 0 && valueAt(input, path) === undefined && issue?.code === "invalid_type";
  throw new ApiError(
    "INVALID_REQUEST",
    `${field}: ${missing ? "is required" : (issue?.message ?? "is invalid")}`,
  );
}

const parsedOnce = new WeakMap<z.ZodType, WeakMap<object, unknown>>();

/**
 * parseInput of what `read` reads from `source`, remembered per schema while `source` lives. The router
 * shares one URL and one path-parameter object between requests of the same URL text (router.ts
 * createApiHandler), so a repeated read (a vault's NAV, the oracle) validates its query and path once;
 * a source made per request (a Next.js route file's) is parsed every time. The schemas are pure, and
 * what they return is shared between requests: read only, as the URL and parameters are. Failures are
 * not remembered (each request gets its own error).
 */
export function parseInputOnce<Schema extends z.ZodType>(
  schema: Schema,
  source: object,
  read: () => unknown,
): z.output<Schema> {
  let bySource = parsedOnce.get(schema);
  if (bySource === undefined) {
    bySource = new WeakMap();
    parsedOnce.set(schema, bySource);
  }
  if (bySource.has(source)) {
    return bySource.get(source) as z.output<Schema>;
  }
  const parsed = parseInput(schema, read());
  // Shared between requests: frozen, so a handler that tried to change it would fail at once, not
  // change the next request's input.
  if (typeof parsed === "object" && parsed !== null) {
    Object.freeze(parsed);
  }
  bySource.set(source, parsed);
  return parsed;
}
