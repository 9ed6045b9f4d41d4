// JSON responses: the spec's envelope for partner endpoints, bare bodies for the keyless ones. They are
// plain data (ApiResponse) until a host writes them: the node:http host sends the text as it is, and
// framework hosts get a WHATWG Response from toWebResponse.
import { errorBody, type ApiError } from "./errors";
import type { ApiResponse } from "./handler";

export function json(status: number, body: unknown, headers: Record<string, string> = {}): ApiResponse {
  return {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
    body: JSON.stringify(body),
  };
}

export function envelope(data: unknown, headers: Record<string, string> = {}): ApiResponse {
  return json(200, { success: true, data }, headers);
}

export function envelopeError(
  error: ApiError,
  requestId: string,
  headers: Record<string, string> = {},
): ApiResponse {
  return json(error.status, errorBody(error, requestId), { ...error.headers, ...headers });
}

/** Keyless endpoints have no envelope, for errors either: `{ error, code, requestId }`. */
export function bareError(
  error: ApiError,
  requestId: string,
  headers: Record<string, string> = {},
): ApiResponse {
  return json(
    error.status,
    { error: error.message, code: error.code, requestId },
    { ...error.headers, ...headers },
  );
}

/** The WHATWG Response of an ApiResponse, for hosts that speak Request → Response (Next.js). */
export function toWebResponse(response: ApiResponse): Response {
  return new Response(response.status === 204 ? null : response.body, {
    status: response.status,
    headers: response.headers,
  });
}
