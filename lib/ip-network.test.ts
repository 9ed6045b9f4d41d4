// IP addresses as networks: IPv6 in any notation, and the network per-client limits count.
import { describe, expect, it } from "vitest";

import { canonicalIpAddress, clientNetworkOf, ipv6Groups } from "./ip-network";

describe("clientNetworkOf", () => {
  it.each([
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"],
    ["::1", "0:0:0:0::/64"],
    ["fe80::1", "fe80:0:0:0::/64"],
    ["::ffff:198.51.100.7", "198.51.100.7"],
    ["::ffff:c633:6407", "198.51.100.7"],
    ["198.51.100.7", "198.51.100.7"],
    ["unknown", "unknown"],
  ])("counts %s as %s", (address, network) => {
    expect(clientNetworkOf(address)).toBe(network);
  });

  it("puts every address of one /64 in one network and neighbouring /64s in others", () => {
    const networks = new Set(
      Array.from({ length: 100 }, (_, index) =>
        clientNetworkOf(`2a00:1450:4001:81b:${index.toString(16)}::${index}`),
      ),
    );
    expect([...networks]).toEqual(["2a00:1450:4001:81b::/64"]);
    expect(clientNetworkOf("2a00:1450:4001:81c::1")).not.toBe(clientNetworkOf("2a00:1450:4001:81b::1"));
  });
});

describe("ipv6Groups", () => {
  it("reads every notation of one address the same, and refuses what is not IPv6", () => {
    const expected = [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1];
    for (const text of ["::ffff:127.0.0.1", "0:0:0:0:0:FFFF:7F00:0001", "::ffff:7f00:1"]) {
      expect(ipv6Groups(text), text).toEqual(expected);
    }
    expect(ipv6Groups("127.0.0.1")).toBeNull();
    expect(ipv6Groups("1::2::3")).toBeNull();
    expect(ipv6Groups("[::1]")).toBeNull();
  });
});

describe("canonicalIpAddress", () => {
  it.each([
    ["198.51.100.7", "198.51.100.7"],
    ["198.51.100.7:52100", "198.51.100.7"],
    ["2001:DB8::1", "2001:db8::1"],
    ["2001:db8:0:0:0:0:0:1", "2001:db8::1"],
    ["fe80::1%eth0", "fe80::1"],
    ["2001:db8::1%z17", "2001:db8::1"],
    ["[2001:db8::1]", "2001:db8::1"],
    ["[2001:db8::1]:443", "2001:db8::1"],
    ["[fe80::1%25eth0]:443", "fe80::1"],
    ["::ffff:198.51.100.7", "198.51.100.7"],
    ["::FFFF:c633:6407", "198.51.100.7"],
    ["[::ffff:198.51.100.7]:80", "198.51.100.7"],
  ])("reads %s as %s", (text, address) => {
    expect(canonicalIpAddress(text)).toBe(address);
  });

  it.each([
    "",
    "unknown",
    "junk-17",
    "example.com",
    "localhost:80",
    "198.51.100.7:65536",
    "198.51.100.7:",
    "198.51.100",
    "198.051.100.7",
    "0x7f.0.0.1",
    "2130706433",
    "198.51.100.7%eth0",
    "[198.51.100.7]:80",
    "[2001:db8::1]:",
    "[2001:db8::1]x",
    "2001:db8::1::2",
    "::1%",
    "::1%z/64",
    "198.51.100.7, 198.51.100.8",
  ])("refuses %j", (text) => {
    expect(canonicalIpAddress(text)).toBeNull();
  });
});
