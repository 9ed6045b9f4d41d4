// The shape every endpoint handler has inside lib/api: a request plus the context and the per-request
// facts (id, path parameters) the router found, answering with a plain status, headers and text, or a
// body streamed for as long as the client stays (server-sent events). The types are in types.ts.
import type { ApiResponse, StreamBody } from "./types";

export type { ApiHandler, ApiRequest, ApiResponse, RequestMeta, StreamBody } from "./types";

export function isStreamBody(body: ApiResponse["body"]): body is StreamBody {
  return body !== null && typeof body === "object";
}
