// Safe targets: the URL's form, every resolved address, exemptions, and DNS rebinding (the address
// checked is the address connected to, and a name is checked again at every attempt).
import { createServer } from "node:http";
import { createServer as createNetServer, type AddressInfo, type Socket } from "node:net";

import { describe, expect, it } from "vitest";

import { attemptDelivery, connectionFailure } from "./deliver";
import { parseWebhookSettings } from "./settings";
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
    "0:0:0:0:0:ffff:7f00:1",
    "::ffff:0:7f00:1",
    "::7f00:1",
    "::127.0.0.1",
    "2002:7f00:1::1",
    "2002:a9fe:a9fe::",
    "64:ff9b::a00:1",
    "2001:db8::1",
    "2001::1",
    "fec0::1",
    "ff02::1",
    "100.100.100.200",
    "192.0.0.170",
    "255.255.255.255",
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

  it.each([
    "0x7f.1",
    "0x7f000001",
    "2130706433",
    "127.1",
    "017700000001",
    "0177.0.0.1",
    "0",
    "[::ffff:127.0.0.1]",
    "[0:0:0:0:0:FFFF:7F00:0001]",
    "[::127.0.0.1]",
    "0xa9.0xfe.0xa9.0xfe",
    "2852039166",
  ])("reads the odd notation %s as the address it means, and refuses it in every mode", async (host) => {
    for (const policy of [production, { allowHttp: true, allowedNetworks: [] }]) {
      const checker = new TargetChecker(policy, async () => {
        throw new Error("a literal is never looked up");
      });
      await expect(checker.resolve(`https://${host}/hook`)).rejects.toThrow(
        /is a loopback, private, link-local or reserved address/,
      );
    }
  });

  it("accepts public addresses, IPv4 and IPv6, and 6to4 of a public one", async () => {
    const checker = new TargetChecker(production);
    for (const host of [
      "93.184.216.34",
      "[2606:2800:220:1::1]",
      "[2002:5db8:d822::1]",
      "[::ffff:93.184.216.34]",
    ]) {
      await expect(checker.resolve(`https://${host}/`), host).resolves.toMatchObject({
        url: expect.any(URL),
      });
    }
  });

  it("refuses a name when any of its addresses is private, without naming the address", async () => {
    const checker = new TargetChecker(production, async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "10.0.0.1", family: 4 },
    ]);
    const refusal = checker.resolve("https://mixed.example.com/");
    await expect(refusal).rejects.toThrow(
      "url's host mixed.example.com resolves to a loopback, private, link-local or reserved address",
    );
    await expect(refusal).rejects.not.toThrow("10.0.0.1");
  });

  it("exempts only the networks listed: 127.0.0.1/32 lets a local receiver in, in any notation, and nothing else", async () => {
    const checker = new TargetChecker({ allowHttp: false, allowedNetworks: ["127.0.0.1/32"] });
    for (const host of ["127.0.0.1", "0x7f.1", "2130706433", "127.1", "[::ffff:127.0.0.1]"]) {
      await expect(checker.resolve(`https://${host}:9/`), host).resolves.toMatchObject({
        url: expect.any(URL),
      });
    }
    for (const host of ["127.0.0.2", "[::1]", "10.0.0.1", "169.254.169.254"]) {
      await expect(checker.resolve(`https://${host}:9/`), host).rejects.toThrow(RefusedTargetError);
    }
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
      expect(second.error).toBe(
        "Refused target: url's host rebind.example resolves to a loopback, private, link-local or reserved address",
      );
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

describe("the settings' target policy", () => {
  it.each(["production", "development", "test", undefined])(
    "refuses a loopback receiver with NODE_ENV=%s unless WEBHOOK_ALLOWED_NETWORKS lists it",
    async (nodeEnv) => {
      const env = { NODE_ENV: nodeEnv, RPC_URL: "http://127.0.0.1:8899" };
      const scheme = nodeEnv === "production" ? "https" : "http";
      const strict = new TargetChecker(parseWebhookSettings(env).target);
      await expect(strict.resolve(`${scheme}://127.0.0.1:9/hook`)).rejects.toThrow(/loopback, private/);
      await expect(strict.resolve(`${scheme}://[::1]:9/hook`)).rejects.toThrow(/loopback, private/);
      const exempt = new TargetChecker(
        parseWebhookSettings({ ...env, WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1/32" }).target,
      );
      await expect(exempt.resolve(`${scheme}://127.0.0.1:9/hook`)).resolves.toMatchObject({
        address: "127.0.0.1",
      });
    },
  );
});

describe("a failed connection, as the partner reads it", () => {
  const attemptTo = (url: string, timeoutMs = 2_000) =>
    attemptDelivery(
      { url, secrets: ["whsec_" + Buffer.alloc(32).toString("base64")], messageId: "m", body: "{}" },
      new TargetChecker({ allowHttp: true, allowedNetworks: ["127.0.0.1/32"] }),
      timeoutMs,
    );

  async function listening(onConnection: (socket: Socket) => void): Promise<{ port: number; close(): void }> {
    const server = createNetServer(onConnection);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return { port, close: () => server.close() };
  }

  it("says only 'connection refused' for a closed port, a reset, a hang-up and a service that is not HTTP", async () => {
    const closed = await listening(() => undefined);
    closed.close();
    const reset = await listening((socket) => socket.resetAndDestroy());
    const hangUp = await listening((socket) => socket.end());
    // What Redis answers to an HTTP request line.
    const notHttp = await listening((socket) => socket.end("-ERR unknown command 'POST'\r\n"));
    try {
      for (const port of [closed.port, reset.port, hangUp.port, notHttp.port]) {
        expect(await attemptTo(`http://127.0.0.1:${port}/`), String(port)).toEqual({
          ok: false,
          statusCode: null,
          error: "connection refused",
        });
      }
    } finally {
      for (const server of [reset, hangUp, notHttp]) {
        server.close();
      }
    }
  });

  it("says 'timeout' for a silent server and 'TLS error' for a handshake that fails", async () => {
    const sockets: Socket[] = [];
    const silent = await listening((socket) => sockets.push(socket));
    const plain = createServer((_request, response) => response.end("ok"));
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
    try {
      expect(await attemptTo(`http://127.0.0.1:${silent.port}/`, 300)).toEqual({
        ok: false,
        statusCode: null,
        error: "timeout",
      });
      // https to a server that speaks plain HTTP: the TLS handshake fails.
      const { port } = plain.address() as AddressInfo;
      expect(await attemptTo(`https://127.0.0.1:${port}/`)).toEqual({
        ok: false,
        statusCode: null,
        error: "TLS error",
      });
    } finally {
      for (const socket of sockets) {
        socket.destroy();
      }
      silent.close();
      plain.close();
    }
  });

  it("classifies by code, never by the message", () => {
    const withCode = (code: string) => Object.assign(new Error(`secret detail ${code}`), { code });
    expect(connectionFailure(withCode("ECONNREFUSED"))).toBe("connection refused");
    expect(connectionFailure(withCode("ECONNRESET"))).toBe("connection refused");
    expect(connectionFailure(withCode("HPE_INVALID_CONSTANT"))).toBe("connection refused");
    expect(connectionFailure(withCode("EHOSTUNREACH"))).toBe("connection refused");
    expect(connectionFailure(withCode("ETIMEDOUT"))).toBe("timeout");
    expect(connectionFailure(withCode("ENOTFOUND"))).toBe("DNS error");
    expect(connectionFailure(withCode("DEPTH_ZERO_SELF_SIGNED_CERT"))).toBe("TLS error");
    expect(connectionFailure(withCode("EPROTO"))).toBe("TLS error");
    expect(connectionFailure(withCode("ERR_TLS_CERT_ALTNAME_INVALID"))).toBe("TLS error");
    expect(connectionFailure("a string")).toBe("connection refused");
  });
});
