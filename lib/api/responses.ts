// JSON responses: the spec's envelope for partner endpoints, bare bodies for the keyless ones.
import { errorBody, type ApiError } from "./errors";

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
  });
}

export function envelope(data: unknown, headers: Record<string, string> = {}): Response {
  return json(200, { success: true, data }, headers);
}

export function envelopeError(
  error: ApiError,
  requestId: string,
  headers: Record<string, string> = {},
): Response {
  return json(error.status, errorBody(error, requestId), { ...error.headers, ...headers });
}

/** Keyless endpoints have no envelope, for errors either: `{ error, code, requestId }`. */
export function bareError(
  error: ApiError,
  requestId: string,
  headers: Record<string, string> = {},
): Response {
  return json(
    error.status,
    { error: error.message, code: error.code, requestId },
    { ...error.headers, ...headers },
  );
}

/** A copy of `response` with extra headers (Response headers may be immutable). */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  const merged = new Headers(response.headers);
  for (const [name, value] of Object.entries(headers)) {
    merged.set(name, value);
  }
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers: merged,
  });
}
