// Where a webhook may be sent. A URL must be https (http only outside production), carry no
// credentials, and resolve only to public addresses: loopback, private, link-local (cloud metadata
// lives there), carrier-grade NAT, multicast, reserved and the IPv6 equivalents (IPv4-mapped and 6to4
// addresses judged as the IPv4 address they carry) are refused on every host and in every NODE_ENV,
// unless the deployment exempts a network (WEBHOOK_ALLOWED_NETWORKS, e.g. 127.0.0.1/32 for a local
// receiver). Odd IPv4 notations (0x7f.1, 2130706433, 127.1) are read by the URL parser as the address
// they mean. The check runs on the resolved addresses at every attempt, and the attempt connects to
// the very address checked, so a name that resolves elsewhere a second later (DNS rebinding) gains
// nothing.
import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

import { ipv4OfGroups, ipv6Groups, mappedIpv4 } from "../ip-network";

export class RefusedTargetError extends Error {}

export interface TargetPolicy {
  allowHttp: boolean;
  /** Networks exempt from the refusal (CIDR), e.g. 127.0.0.0/8 for a local receiver in development. */
  allowedNetworks: readonly string[];
}

export interface ResolvedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

const defaultLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

// The IANA special-purpose registries' ranges that are not globally reachable, plus multicast and the
// cloud metadata addresses (169.254.169.254 is link-local, fd00:ec2::254 unique-local, Alibaba's
// 100.100.100.200 carrier-grade NAT).
const REFUSED_V4 = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.31.196.0", 24],
  ["192.52.193.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["192.175.48.0", 24],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const;

const REFUSED_V6 = [
  // Unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d (all of ::/96).
  ["::", 96],
  // IPv4-translated (RFC 2765) and NAT64 (well-known and local-use): they reach IPv4 hosts.
  ["::ffff:0:0:0", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  // IETF protocol assignments (Teredo, ORCHID, benchmarking, …) and documentation.
  ["2001::", 23],
  ["2001:db8::", 32],
  ["3fff::", 20],
  ["5f00::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const;

const refused = new BlockList();
for (const [network, prefix] of REFUSED_V4) {
  refused.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of REFUSED_V6) {
  refused.addSubnet(network, prefix, "ipv6");
}

function blockListOf(networks: readonly string[]): BlockList {
  const list = new BlockList();
  for (const network of networks) {
    const [address = "", prefix] = network.split("/");
    const family = isIP(address);
    if (family === 0) {
      throw new Error(`${network} is not a network (CIDR, e.g. 127.0.0.0/8)`);
    }
    const bits = prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix);
    if (!Number.isInteger(bits) || bits < 0 || bits > (family === 4 ? 32 : 128)) {
      throw new Error(`${network} has an invalid prefix length`);
    }
    list.addSubnet(address, bits, family === 4 ? "ipv4" : "ipv6");
  }
  return list;
}

/**
 * The IPv4 address an IPv6 one stands for, when it embeds one a packet may reach: IPv4-mapped
 * (::ffff:a.b.c.d, however written) and 6to4 (2002:aabb:ccdd::/48). Those are judged as the IPv4
 * address; other IPv6 addresses as themselves.
 */
function normalized(address: string): { address: string; type: "ipv4" | "ipv6" } {
  if (isIP(address) !== 6) {
    return { address, type: "ipv4" };
  }
  const groups = ipv6Groups(address);
  if (groups === null) {
    return { address, type: "ipv6" };
  }
  const mapped = mappedIpv4(groups);
  if (mapped !== null) {
    return { address: mapped, type: "ipv4" };
  }
  const [g0, g1, g2] = groups;
  if (g0 === 0x2002 && g1 !== undefined && g2 !== undefined) {
    return { address: ipv4OfGroups(g1, g2), type: "ipv4" };
  }
  return { address, type: "ipv6" };
}

export class TargetChecker {
  private readonly allowed: BlockList;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly lookup: Lookup = defaultLookup,
  ) {
    this.allowed = blockListOf(policy.allowedNetworks);
  }

  /** The URL's form alone: scheme, credentials, host. Throws RefusedTargetError saying why. */
  parse(text: string): URL {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new RefusedTargetError("url is not a valid absolute URL");
    }
    if (url.protocol !== "https:" && !(url.protocol === "http:" && this.policy.allowHttp)) {
      throw new RefusedTargetError(
        this.policy.allowHttp ? "url must be http or https" : "url must use https",
      );
    }
    if (url.username !== "" || url.password !== "") {
      throw new RefusedTargetError("url must not carry credentials");
    }
    if (url.hostname === "") {
      throw new RefusedTargetError("url has no host");
    }
    return url;
  }

  /** Whether one address may be reached: refused when in a refused range and in no exempt network. */
  isRefused(address: string): boolean {
    const { address: plain, type } = normalized(address);
    return !this.allowed.check(plain, type) && refused.check(plain, type);
  }

  /**
   * Resolves the URL's host and checks every address; the first one is where to connect. A refusal
   * names the host but not the addresses a name resolved to: the partner learns nothing of the
   * deployment's internal DNS.
   */
  async resolve(text: string): Promise<ResolvedTarget> {
    const url = this.parse(text);
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    const literal = isIP(host) !== 0;
    let addresses: { address: string; family: number }[];
    try {
      addresses = literal ? [{ address: host, family: isIP(host) }] : await this.lookup(host);
    } catch {
      throw new RefusedTargetError(`url's host ${host} does not resolve (DNS error)`);
    }
    const first = addresses[0];
    if (first === undefined) {
      throw new RefusedTargetError(`url's host ${host} does not resolve (DNS error)`);
    }
    if (addresses.some(({ address }) => this.isRefused(address))) {
      throw new RefusedTargetError(
        `url's host ${host} ${literal ? "is" : "resolves to"} a loopback, private, link-local or reserved address`,
      );
    }
    return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
  }
}
