// Safe targets: the URL's form, every resolved address, exemptions, and DNS rebinding (the address
// checked is the address connected to, and a name is checked again at every attempt).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { describe, expect, it } from "vitest";

import { attemptDelivery } from "./deliver";
import { RefusedTargetError, TargetChecker, type Lookup } from "./target";

const production = { allowHttp: false, allowedNetworks: [] };
const publicLookup: Lookup = async () => [{ address: "93.184.216.34", family: 4 }];

describe("TargetChecker", () => {
  it("refuses non-https in production, credentials and non-URLs", async () => {
    const checker = new TargetChecker(production, publicLookup);
    await expect(checker.resolve("http://example.com/hook")).rejects.toThrow("url must use https");
    await expect(checker.resolve("https://a:b@example.com/")).rejects.toThrow("credentials");
    await expect(checker.resolve("example.com")).rejects.toThrow("valid absolute URL");
    await expect(checker.resolve("https://example.com/hook")).resolves.toMatchObject({
      address: "93.184.216.34",
    });
  });

  it.each([
    "127.0.0.1",
    "10.0.0.5",
    "172.16.3.4",
    "192.168.0.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "::1",
    "fe80::1",
    "fd00:ec2::254",
    "::ffff:127.0.0.1",
    "::ffff:a9fe:a9fe",
    "64:ff9b::a00:1",
  ])("refuses %s, literal or resolved", async (address) => {
    const checker = new TargetChecker(production, async () => [
      { address, family: address.includes(":") ? 6 : 4 },
    ]);
    await expect(checker.resolve("https://hooks.example.com/")).rejects.toThrow(RefusedTargetError);
    const literal = address.includes(":") ? `[${address}]` : address;
    await expect(new TargetChecker(production).resolve(`https://${literal}/`)).rejects.toThrow(
      /loopback, private, link-local or reserved/,
    );
  });

  it("refuses a name when any of its addresses is private", async () => {
    const checker = new TargetChecker(production, async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "10.0.0.1", family: 4 },
    ]);
    await expect(checker.resolve("https://mixed.example.com/")).rejects.toThrow("10.0.0.1");
  });

  it("allows an exempt network and http outside production", async () => {
    const checker = new TargetChecker({ allowHttp: true, allowedNetworks: ["127.0.0.0/8"] });
    await expect(checker.resolve("http://127.0.0.1:9/hook")).resolves.toMatchObject({ address: "127.0.0.1" });
    await expect(checker.resolve("http://10.0.0.1/hook")).rejects.toThrow(RefusedTargetError);
  });

  it("checks at every attempt and connects to the address it checked (DNS rebinding)", async () => {
    const hits: string[] = [];
    const server = createServer((request, response) => {
      hits.push(String(request.headers.host));
      response.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      // The name first resolves to the exempt receiver, then "rebinds" to the metadata address.
      const answers = ["127.0.0.1", "169.254.169.254"];
      const lookup: Lookup = async () => [{ address: answers.shift() ?? "169.254.169.254", family: 4 }];
      const checker = new TargetChecker({ allowHttp: true, allowedNetworks: ["127.0.0.0/8"] }, lookup);
      const attempt = {
        url: `http://rebind.example:${port}/hook`,
        secrets: ["whsec_" + Buffer.alloc(32, 1).toString("base64")],
        messageId: "evt_test",
        body: "{}",
      };
      const first = await attemptDelivery(attempt, checker, 2_000);
      expect(first).toMatchObject({ ok: true, statusCode: 200 });
      expect(hits).toEqual([`rebind.example:${port}`]);
      const second = await attemptDelivery(attempt, checker, 2_000);
      expect(second.ok).toBe(false);
      expect(second.error).toMatch(/^Refused target: .*169\.254\.169\.254/);
      expect(hits).toHaveLength(1);
    } finally {
      server.close();
    }
  });

  it("does not follow redirects", async () => {
    const server = createServer((_request, response) => {
      response.writeHead(302, { location: "http://169.254.169.254/" }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const checker = new TargetChecker({ allowHttp: true, allowedNetworks: ["127.0.0.0/8"] });
      const result = await attemptDelivery(
        {
          url: `http://127.0.0.1:${port}/`,
          secrets: ["whsec_" + Buffer.alloc(32).toString("base64")],
          messageId: "m",
          body: "{}",
        },
        checker,
        2_000,
      );
      expect(result).toEqual({ ok: false, statusCode: 302, error: "HTTP 302: redirects are not followed" });
    } finally {
      server.close();
    }
  });
});
