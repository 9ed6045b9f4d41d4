// JSON responses: the spec's envelope for partner endpoints, bare bodies for the keyless ones. They are
// plain data (ApiResponse) until a host writes them: the node:http host sends the text as it is, and
// framework hosts get a WHATWG Response from toWebResponse.
import { errorBody, type ApiError } from "./errors";
import { isStreamBody, type ApiResponse, type StreamBody } from "./handler";
import { JsonText } from "./json-text";
import { TextBody } from "./text-body";

export function json(status: number, body: unknown, headers: Record<string, string> = {}): ApiResponse {
  return {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
    body: JSON.stringify(body),
  };
}

export function envelope(data: unknown, headers: Record<string, string> = {}): ApiResponse {
  if (data instanceof TextBody) {
    return { status: 200, headers: { "Content-Type": data.contentType, ...headers }, body: data.text };
  }
  if (!(data instanceof JsonText)) {
    return json(200, { success: true, data }, headers);
  }
  // The bytes JSON.stringify({ success: true, data }) would write.
  return {
    status: 200,
    headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
    body: `{"success":true,"data":${data.text}}`,
  };
}

/**
 * Seconds a client is told to wait after a 503 (the chain or the database unreachable): the health
 * check that notices their return runs every second, and an outage that lasts is better retried
 * gently than hammered.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** An error's own headers, and Retry-After on every 503 that does not name its own. */
function errorHeaders(error: ApiError, headers: Record<string, string>): Record<string, string> {
  const merged = { ...error.headers, ...headers };
  if (error.status === 503 && !Object.keys(merged).some((name) => name.toLowerCase() === "retry-after")) {
    merged["Retry-After"] = String(UNAVAILABLE_RETRY_AFTER_SECONDS);
  }
  return merged;
}

export function envelopeError(
  error: ApiError,
  requestId: string,
  headers: Record<string, string> = {},
): ApiResponse {
  return json(error.status, errorBody(error, requestId), errorHeaders(error, headers));
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
    errorHeaders(error, headers),
  );
}

/** A streamed body as a WHATWG stream: cancelling it (the client left) aborts the body's writer. */
function readableOf(stream: StreamBody): ReadableStream<Uint8Array> {
  const left = new AbortController();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const write = async (chunk: string): Promise<void> => {
        if (!left.signal.aborted) {
          controller.enqueue(encoder.encode(chunk));
        }
      };
      stream.run(write, left.signal).then(
        () => {
          if (!left.signal.aborted) {
            controller.close();
          }
        },
        (error: unknown) => controller.error(error),
      );
    },
    cancel() {
      left.abort();
    },
  });
}

/** The WHATWG Response of an ApiResponse, for hosts that speak Request → Response (Next.js). */
export function toWebResponse(response: ApiResponse): Response {
  const { body } = response;
  if (isStreamBody(body) && response.status === 204) {
    body.discard();
  }
  return new Response(
    response.status === 204 || body === null ? null : isStreamBody(body) ? readableOf(body) : body,
    { status: response.status, headers: response.headers },
  );
}
