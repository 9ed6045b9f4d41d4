// The client's IP for per-IP limits. A host that knows the socket passes its address with the request;
// the X-Forwarded-For chain is only believed for as many hops as there are trusted proxies in front,
// and only when the entry at that hop is a well-formed IP address (lib/ip-network.ts canonicalIpAddress):
// junk, a hostname or an empty entry counts as the proxy itself, so no text a client writes opens a
// bucket of its own. Per-client limits count the client's network (clientNetwork): an IPv6 client's
// /64, an IPv4 address.
import { boundedMemo } from "../chain/bounded-memo";
import { canonicalIpAddress as canonicalIpAddressOf, clientNetworkOf as networkOf } from "../ip-network";
import type { ApiRequest } from "./handler";

// Both are pure functions of a text, asked on every request with the same few socket addresses.
const canonicalIpAddress = boundedMemo(canonicalIpAddressOf, 10_000);
const clientNetworkOf = boundedMemo(networkOf, 10_000);

/** The entries by position: an empty one stays an entry (that is no address), so hops count as written. */
function forwardedChain(header: string | null | undefined): string[] {
  return header === null || header === undefined ? [] : header.split(",").map((part) => part.trim());
}

function addressIn(entry: string | undefined): string | null {
  return entry === undefined ? null : canonicalIpAddress(entry);
}

/**
 * The client's address as a host that holds the socket sees it: the socket's peer when nothing in front
 * is trusted; behind N trusted proxies, the N-th entry from the end of X-Forwarded-For plus the socket
 * when it is an IP address, else the socket (the nearest proxy). Entries a client wrote itself sit
 * further left and are never reached. Addresses come back in one spelling (canonicalIpAddress).
 */
export function resolveClientAddress(
  socket: string,
  forwardedFor: string | null | undefined,
  trustedProxyCount: number,
): string {
  const proxy = canonicalIpAddress(socket) ?? socket;
  if (trustedProxyCount === 0) {
    return proxy;
  }
  const chain = forwardedChain(forwardedFor);
  return addressIn(chain[Math.max(0, chain.length - trustedProxyCount)]) ?? proxy;
}

export function clientAddress(request: ApiRequest, trustedProxyCount: number): string {
  const forwardedFor = request.headers.get("x-forwarded-for");
  if (request.socketAddress !== undefined) {
    return resolveClientAddress(request.socketAddress, forwardedFor, trustedProxyCount);
  }
  // Without a socket (Next.js route handlers), X-Forwarded-For is all there is. scripts/web.ts rewrites
  // it to the one resolved address before Next.js sees the request; a bare `next start` only fills it
  // when absent, where the last entry is the nearest hop and, behind N trusted proxies, the N-th from
  // the end is the client. An entry that is no address counts as that nearest hop.
  const forwarded = forwardedChain(forwardedFor);
  const hop = forwarded[Math.max(0, forwarded.length - Math.max(1, trustedProxyCount))];
  return addressIn(hop) ?? addressIn(forwarded.at(-1)) ?? "unknown";
}

/**
 * What per-client limits count: the client's network (an IPv6 /64, an IPv4 address; lib/ip-network.ts),
 * so one subscriber's many IPv6 addresses are one client for keyless calls, session issuance, the
 * pages' budget, live event streams and failed authentications.
 */
export function clientNetwork(request: ApiRequest, trustedProxyCount: number): string {
  return clientNetworkOf(clientAddress(request, trustedProxyCount));
}
