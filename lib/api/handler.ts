// The shape every endpoint handler has inside lib/api: a request plus the context and the per-request
// facts (id, path parameters) the router found, answering with a plain status, headers and text, or a
// body streamed for as long as the client stays (server-sent events).
import type { ApiContext } from "./context";

/**
 * The parts of an HTTP request the edge reads. A WHATWG Request has them (Next.js route handlers pass
 * theirs); the node:http host passes a lighter object, because building a Request (URL, Headers, an
 * AbortSignal) cost more than a keyless request's whole handler.
 */
export interface ApiRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: { get(name: string): string | null; has(name: string): boolean };
  /** Read only when no `rawBody` is given. */
  readonly body: ReadableStream<Uint8Array> | null;
  /** The socket's remote address, when the host knows it (per-IP limits). */
  readonly socketAddress?: string;
  /** The body, when the host has read it already, or the fact that it went over MAX_BODY_BYTES. */
  readonly rawBody?: Uint8Array | "too-large";
}

/**
 * A response as data: hosts turn it into their own (toWebResponse makes a WHATWG Response; the
 * node:http host writes it to the socket without a Response or its body stream in between).
 */
export interface ApiResponse {
  status: number;
  /** Owned by this response: the router adds X-Request-Id to it. */
  headers: Record<string, string>;
  /** The body text (JSON for our own responses); null for none; a stream written after the head. */
  body: string | StreamBody | null;
}

/**
 * A body written piece by piece after the head (server-sent events): the host calls `run` once with a
 * writer that resolves when the socket takes the chunk (back-pressure), and a signal that aborts when
 * the client leaves or the host shuts down; the body ends when `run` settles. A stream a host will
 * never run (HEAD, a failure before the head) is `discard`ed, so whatever it holds is let go.
 */
export interface StreamBody {
  readonly kind: "stream";
  run(write: (chunk: string) => Promise<void>, signal: AbortSignal): Promise<void>;
  discard(): void;
}

export function isStreamBody(body: ApiResponse["body"]): body is StreamBody {
  return body !== null && typeof body === "object";
}

export interface RequestMeta {
  requestId: string;
  /** The request's URL, parsed once. */
  url: URL;
  params: Readonly<Record<string, string>>;
  /** Key id, when a partner credential was accepted (for the request log). */
  keyId?: string;
  /** Error code, when the response is an error (for the request log). */
  errorCode?: string;
}

export type ApiHandler = (
  request: ApiRequest,
  context: ApiContext,
  meta: RequestMeta,
) => Promise<ApiResponse>;
