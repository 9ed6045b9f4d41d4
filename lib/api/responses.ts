// JSON responses: the spec's envelope for partner endpoints, bare bodies for the keyless ones.
import { errorBody, type ApiError } from "./errors";

// The serialized body of each JSON response this module makes, so a host that writes responses itself
// (lib/api/node-host.ts) sends the text instead of draining the Response's stream, which costs more
// than the handler. Framework hosts read the standard body and never see this.
const bodyTexts = new WeakMap<Response, string>();

export function bodyTextOf(response: Response): string | undefined {
  return bodyTexts.get(response);
}

/**
 * A Response whose body stream is only made when something reads it. Making the stream up front costs
 * more than a whole keyless request; the node:http host never reads it (it writes the text), and a
 * framework host reading `body` or `text()` gets a stream or text as usual.
 */
class JsonResponse extends Response {
  private materialized: Response | null = null;

  constructor(
    private readonly bodyText: string,
    init: ResponseInit,
  ) {
    super(null, init);
  }

  materialize(): Response {
    this.materialized ??= new Response(this.bodyText, { status: this.status, statusText: this.statusText });
    return this.materialized;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.materialize().arrayBuffer();
  }

  override blob(): Promise<Blob> {
    return this.materialize().blob();
  }

  override json(): Promise<unknown> {
    return this.materialize().json();
  }

  override text(): Promise<string> {
    return this.materialize().text();
  }

  override clone(): Response {
    return new JsonResponse(this.bodyText, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
    });
  }
}

// `body` and `bodyUsed` are accessors on Response.prototype; TypeScript types them as properties, so
// they are redefined here rather than overridden in the class.
Object.defineProperties(JsonResponse.prototype, {
  body: {
    get(this: JsonResponse) {
      return this.materialize().body;
    },
  },
  bodyUsed: {
    get(this: JsonResponse) {
      return this.materialize().bodyUsed;
    },
  },
});

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  const response = new JsonResponse(text, {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
  });
  bodyTexts.set(response, text);
  return response;
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
