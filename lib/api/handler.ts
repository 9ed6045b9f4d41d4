// The shape every endpoint handler has inside lib/api: a Web-standard request plus the context and the
// per-request facts (id, path parameters) the router found.
import type { ApiContext } from "./context";

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

export type ApiHandler = (request: Request, context: ApiContext, meta: RequestMeta) => Promise<Response>;
