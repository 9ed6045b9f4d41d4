// Where a webhook may be sent. A URL must be https (http only outside production), carry no
// credentials, and resolve only to public addresses: loopback, private, link-local (cloud metadata
// lives there), carrier-grade NAT, multicast, reserved and the IPv6 equivalents are refused unless the
// deployment exempts a network (WEBHOOK_ALLOWED_NETWORKS; the local chain's dev mode exempts
// loopback). The check runs on the resolved addresses at every attempt, and the attempt connects to the
// very address checked, so a name that resolves elsewhere a second later (DNS rebinding) gains nothing.
import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

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

const REFUSED_V4 = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const;

const REFUSED_V6 = [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
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

/** An IPv6 address that embeds an IPv4 one (::ffff:a.b.c.d, ::a.b.c.d) is judged as that IPv4 one. */
function normalized(address: string): { address: string; type: "ipv4" | "ipv6" } {
  const mapped = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] !== undefined) {
    return { address: mapped[1], type: "ipv4" };
  }
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hexMapped?.[1] !== undefined && hexMapped[2] !== undefined) {
    const high = parseInt(hexMapped[1], 16);
    const low = parseInt(hexMapped[2], 16);
    return { address: `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, type: "ipv4" };
  }
  return { address, type: isIP(address) === 6 ? "ipv6" : "ipv4" };
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

  /** Whether one address may be reached; the reason when not. */
  refusalOf(address: string): string | null {
    const { address: plain, type } = normalized(address);
    if (this.allowed.check(plain, type)) {
      return null;
    }
    return refused.check(plain, type)
      ? `${address} is a loopback, private, link-local or reserved address`
      : null;
  }

  /** Resolves the URL's host and checks every address; the first one is where to connect. */
  async resolve(text: string): Promise<ResolvedTarget> {
    const url = this.parse(text);
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    let addresses: { address: string; family: number }[];
    try {
      addresses = isIP(host) === 0 ? await this.lookup(host) : [{ address: host, family: isIP(host) }];
    } catch {
      throw new RefusedTargetError(`url's host ${host} does not resolve`);
    }
    const first = addresses[0];
    if (first === undefined) {
      throw new RefusedTargetError(`url's host ${host} does not resolve`);
    }
    for (const { address } of addresses) {
      const refusal = this.refusalOf(address);
      if (refusal !== null) {
        throw new RefusedTargetError(`url's host ${host} resolves to ${refusal}`);
      }
    }
    return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
  }
}
