// The client's IP for per-IP limits. A host that knows the socket passes its address with the request;
// the X-Forwarded-For chain is only believed for as many hops as there are trusted proxies in front.
import type { ApiRequest } from "./handler";

function forwardedChain(request: ApiRequest): string[] {
  const header = request.headers.get("x-forwarded-for");
  return header === null
    ? []
    : header
        .split(",")
        .map((part) => part.trim())
        .filter((part) => part !== "");
}

export function clientAddress(request: ApiRequest, trustedProxyCount: number): string {
  const socket = request.socketAddress;
  const forwarded = forwardedChain(request);
  if (socket !== undefined) {
    if (trustedProxyCount === 0) {
      return socket;
    }
    const chain = [...forwarded, socket];
    return chain[Math.max(0, chain.length - 1 - trustedProxyCount)] ?? socket;
  }
  // Without a socket (a framework host that only fills X-Forwarded-For when it is absent), the last
  // entry is the nearest hop; behind N trusted proxies, the N-th from the end is the client.
  const index = forwarded.length - Math.max(1, trustedProxyCount);
  return forwarded[Math.max(0, index)] ?? "unknown";
}
