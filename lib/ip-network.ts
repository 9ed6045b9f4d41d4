// IP addresses as networks: an IPv6 address's groups in any notation, a client's address in one
// spelling (canonicalIpAddress), and the network a client is counted by. One IPv6 subscriber gets a
// whole /64 (RFC 6177) and picks addresses in it at will, so per-client limits count a /64 as one
// client; an IPv4 address (also written IPv4-mapped) is itself.
import { isIP } from "node:net";

/**
 * An IPv6 address's eight 16-bit groups, or null when the text is not one. The text is first put in
 * the WHATWG URL parser's canonical form (lower case, hexadecimal, `::` for the longest zero run,
 * an embedded dotted quad as two groups), so every notation of one address reads the same.
 */
export function ipv6Groups(address: string): number[] | null {
  const canonical = canonicalIpv6(address);
  if (canonical === null) {
    return null;
  }
  const [head = "", tail] = canonical.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array<string>(zeros).fill("0"), ...right].map((group) => parseInt(group, 16));
  return groups.length === 8 && groups.every((group) => Number.isInteger(group)) ? groups : null;
}

/** An IPv6 address (no zone id) in the URL parser's canonical form, or null when the text is not one. */
function canonicalIpv6(address: string): string | null {
  if (isIP(address) !== 6) {
    return null;
  }
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
}

// A port after an address, in the two spellings proxies append one (`a.b.c.d:port`, `[v6]:port`).
const IPV4_WITH_PORT = /^([0-9.]+):([0-9]{1,5})$/;
const BRACKETED_IPV6 = /^\[([^\]]+)\](?::([0-9]{1,5}))?$/;

function isPort(text: string | undefined): boolean {
  return text === undefined || Number(text) <= 65_535;
}

/**
 * A client's IP address in one spelling, or null when the text is none: an IPv4 address as it is
 * (node:net refuses leading zeros and other odd notations), an IPv6 address in canonical form with its
 * zone id dropped (`fe80::1%eth0` names an interface of the host that received it, not another client),
 * an IPv4-mapped IPv6 address as the IPv4 address. A port is read only in the spellings proxies append
 * (`a.b.c.d:port`, `[ipv6]:port`) and dropped; a hostname, junk or an empty text is null.
 */
export function canonicalIpAddress(text: string): string | null {
  const ipv4WithPort = IPV4_WITH_PORT.exec(text);
  if (ipv4WithPort !== null) {
    const [, address = "", port] = ipv4WithPort;
    return isPort(port) && isIP(address) === 4 ? address : null;
  }
  const bracketed = BRACKETED_IPV6.exec(text);
  if (bracketed !== null) {
    const [, address = "", port] = bracketed;
    return isPort(port) && isIP(address) === 6 ? canonicalIpAddress(address) : null;
  }
  if (isIP(text) === 4) {
    return text;
  }
  const address = isIP(text) === 6 ? (text.split("%", 1)[0] ?? "") : "";
  const groups = ipv6Groups(address);
  return groups === null ? null : (mappedIpv4(groups) ?? canonicalIpv6(address));
}

/** The dotted IPv4 address of two 16-bit groups. */
export function ipv4OfGroups(high: number, low: number): string {
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** The IPv4 address an IPv4-mapped IPv6 address (::ffff:a.b.c.d, however written) stands for. */
export function mappedIpv4(groups: readonly number[]): string | null {
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  return g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff
    ? ipv4OfGroups(g6, g7)
    : null;
}

/**
 * The network a client address is counted by: an IPv6 address's /64 (`2001:db8:1:2::/64`), the IPv4
 * address of an IPv4-mapped one, and anything else (IPv4, or a text that is no address) as it is.
 */
export function clientNetworkOf(address: string): string {
  const groups = ipv6Groups(address);
  if (groups === null) {
    return address;
  }
  const mapped = mappedIpv4(groups);
  if (mapped !== null) {
    return mapped;
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}
