// One delivery attempt: resolve and check the target (target.ts), connect to the checked address
// (TLS still verifies the URL's host name), POST the signed body, and read the status. No redirect
// is followed (node:http never does; a 3xx is a failure), and the whole attempt is bounded. What the
// partner reads of a failure is its HTTP status or one of four words (connectionFailure): the error's
// own text would tell a closed port from a service that is not HTTP, which maps a network.
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";

import { signedHeaders } from "./signing";
import { RefusedTargetError, type TargetChecker } from "./target";

export interface DeliveryAttempt {
  url: string;
  secrets: readonly string[];
  messageId: string;
  body: string;
}

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  /** Why it failed, in words for the endpoint's owner; null on success. */
  error: string | null;
}

// Sockets are pooled per address and port, so a kept-alive connection is always to an address that
// was checked when it was opened.
const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 256 });

export type ConnectionFailure = "connection refused" | "timeout" | "TLS error" | "DNS error";

/**
 * The words a partner sees for an attempt that got no HTTP status. Anything that is not a timeout, a
 * TLS or a DNS failure (refused, reset, hung up, not HTTP, unreachable) is "connection refused".
 */
export function connectionFailure(error: unknown): ConnectionFailure {
  const code =
    typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
      ? error.code
      : "";
  if (code === "ETIMEDOUT" || code === "ESOCKETTIMEDOUT") {
    return "timeout";
  }
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_FAIL" || code === "EAI_NONAME") {
    return "DNS error";
  }
  if (
    code === "EPROTO" ||
    /^(ERR_TLS_|ERR_SSL_|CERT_|ERR_OSSL_)/.test(code) ||
    /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code) ||
    (error instanceof Error && "library" in error && error.library === "SSL routines")
  ) {
    return "TLS error";
  }
  return "connection refused";
}

/** Read at most this much of a response: the status is all that counts. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export async function attemptDelivery(
  attempt: DeliveryAttempt,
  checker: TargetChecker,
  timeoutMs: number,
  now: Date = new Date(),
): Promise<AttemptResult> {
  let target;
  try {
    target = await checker.resolve(attempt.url);
  } catch (error) {
    if (error instanceof RefusedTargetError) {
      return { ok: false, statusCode: null, error: `Refused target: ${error.message}` };
    }
    throw error;
  }
  const { url, address } = target;
  const secure = url.protocol === "https:";
  const headers = {
    ...signedHeaders(attempt.secrets, attempt.messageId, now, attempt.body),
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(attempt.body)),
    "user-agent": "vault-gateway-webhooks/1",
    host: url.host,
  };
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult): void => {
      if (!settled) {
        settled = true;
        clearTimeout(deadline);
        resolve(result);
      }
    };
    const request = (secure ? https : http).request(
      {
        method: "POST",
        host: address,
        port: url.port === "" ? (secure ? 443 : 80) : Number(url.port),
        path: `${url.pathname}${url.search}`,
        headers,
        agent: secure ? httpsAgent : httpAgent,
        // SNI carries a name, never an address literal (RFC 6066).
        ...(secure && isIP(url.hostname.replace(/^\[(.*)\]$/, "$1")) === 0
          ? { servername: url.hostname }
          : {}),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let received = 0;
        response.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) {
            response.destroy();
          }
        });
        const done = (): void => {
          const ok = status >= 200 && status < 300;
          finish({
            ok,
            statusCode: status,
            error: ok
              ? null
              : status >= 300 && status < 400
                ? `HTTP ${status}: redirects are not followed`
                : `HTTP ${status}`,
          });
        };
        response.on("end", done);
        response.on("close", done);
        response.on("error", done);
      },
    );
    const deadline = setTimeout(() => {
      request.destroy();
      finish({ ok: false, statusCode: null, error: "timeout" });
    }, timeoutMs);
    request.on("error", (error) => finish({ ok: false, statusCode: null, error: connectionFailure(error) }));
    request.end(attempt.body);
  });
}
