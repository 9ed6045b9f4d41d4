// The client's IP for per-IP limits. A host that knows the socket registers it for the request; the
// X-Forwarded-For chain is only believed for as many hops as there are trusted proxies in front.
const socketAddresses = new WeakMap<Request, string>();

/** Called by a host (lib/api/node-host.ts) with the socket's remote address. */
export function registerSocketAddress(request: Request, address: string): void {
  socketAddresses.set(request, address);
}

function forwardedChain(request: Request): string[] {
  const header = request.headers.get("x-forwarded-for");
  return header === null
    ? []
    : header
        .split(",")
        .map((part) => part.trim())
        .filter((part) => part !== "");
}

export function clientAddress(request: Request, trustedProxyCount: number): string {
  const socket = socketAddresses.get(request);
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
