import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { ConfigError, checkProcessConfig, createProcessConfig, parseConfig } from "./config";

const VAULT = Keypair.generate().publicKey.toBase58();
const PROTOCOL = Keypair.generate().publicKey.toBase58();
const directory = mkdtempSync(join(tmpdir(), "config-test-"));

function withStrategies(contents: string): ReturnType<typeof parseConfig> {
  const path = join(directory, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, contents);
  return parseConfig({
    DEFAULT_VAULT_ID: VAULT,
    PROTOCOL_ID: PROTOCOL,
    LOCALNET_ADDRESSES_FILE: join(directory, "absent.json"),
    STRATEGIES_FILE: path,
  });
}

describe("STRATEGIES_FILE", () => {
  it("declares each vault's strategies; none without the file", () => {
    const config = withStrategies(
      JSON.stringify({
        [VAULT]: [
          { name: " Treasury bills ", bps: 6_000 },
          { name: "Lending", bps: 4_000 },
        ],
      }),
    );
    expect(config.strategies.get(VAULT)).toEqual([
      { name: "Treasury bills", bps: 6_000 },
      { name: "Lending", bps: 4_000 },
    ]);
    const plain = parseConfig({
      DEFAULT_VAULT_ID: VAULT,
      PROTOCOL_ID: PROTOCOL,
      LOCALNET_ADDRESSES_FILE: join(directory, "absent.json"),
    });
    expect(plain.strategies.size).toBe(0);
  });

  it.each([
    ["{ not json", /cannot be read as JSON/],
    [
      JSON.stringify({ [VAULT]: [{ name: "Lending", bps: 9_000 }] }),
      new RegExp(`${VAULT} weights \\(bps\\) must add up to 10000`),
    ],
    [
      JSON.stringify({ "not-a-vault": [{ name: "Lending", bps: 10_000 }] }),
      /not-a-vault is not a vault address/,
    ],
    [JSON.stringify({ [VAULT]: [{ name: "", bps: 10_000 }] }), new RegExp(`${VAULT}\\.0\\.name`)],
    [JSON.stringify({ [VAULT]: [{ name: "Lending", bps: 10_000, apy: 0.1 }] }), /apy/],
    [JSON.stringify({ [VAULT]: [] }), new RegExp(`${VAULT} `)],
  ])("refuses %s at boot, naming the problem", (contents, message) => {
    expect(() => withStrategies(contents)).toThrow(ConfigError);
    expect(() => withStrategies(contents)).toThrow(message);
  });
});

describe("PROTOCOL_ID", () => {
  const addresses = (contents: object): string => {
    const path = join(directory, `${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(path, JSON.stringify(contents));
    return path;
  };

  it("comes from the variable, else the localnet's addresses file", () => {
    const file = addresses({ defaultVaultId: VAULT, protocolId: PROTOCOL });
    expect(parseConfig({ LOCALNET_ADDRESSES_FILE: file }).protocolId.toBase58()).toBe(PROTOCOL);
    const other = Keypair.generate().publicKey.toBase58();
    expect(parseConfig({ LOCALNET_ADDRESSES_FILE: file, PROTOCOL_ID: other }).protocolId.toBase58()).toBe(
      other,
    );
  });

  it("is required, and must be an address", () => {
    const none = addresses({ defaultVaultId: VAULT, protocolId: null });
    expect(() => parseConfig({ LOCALNET_ADDRESSES_FILE: none })).toThrow(
      /PROTOCOL_ID is not set and .* names no protocol/,
    );
    expect(() => parseConfig({ LOCALNET_ADDRESSES_FILE: none, PROTOCOL_ID: "nope" })).toThrow(
      /PROTOCOL_ID must be a base58 public key/,
    );
    const bad = addresses({ defaultVaultId: VAULT, protocolId: "nope" });
    expect(() => parseConfig({ LOCALNET_ADDRESSES_FILE: bad })).toThrow(/protocolId that is not a base58/);
  });
});

describe("the process's configuration", () => {
  const base = {
    DEFAULT_VAULT_ID: VAULT,
    PROTOCOL_ID: PROTOCOL,
    LOCALNET_ADDRESSES_FILE: join(directory, "absent.json"),
  };

  it("builds every part's slice from one parse of the environment", () => {
    const config = checkProcessConfig(
      createProcessConfig({
        ...base,
        RPC_URL: "http://127.0.0.1:8899",
        INDEXER_INTERVAL_SECONDS: "30",
        WEBHOOK_CAPACITY_LOW_BPS: "500",
        SESSION_RPM: "60",
        METRICS_TOKEN: "scrape-me",
        NODE_ENV: "development",
      }),
    );
    expect(config.api.protocolId.toBase58()).toBe(PROTOCOL);
    expect(config.web.client.defaultVaultId).toBe(VAULT);
    expect(config.web.serverRpcUrl).toBe("http://127.0.0.1:8899");
    // The indexer is woken over the node's PubSub endpoint: the RPC port + 1, as web3.js assumes.
    expect(config.indexer).toEqual({ enabled: true, intervalMs: 30_000, wsUrl: "ws://127.0.0.1:8900" });
    expect(config.webhooks.capacityLowBps).toBe(500);
    // Outside production http is allowed, but no private network is exempt unless listed, even against
    // a chain on loopback.
    expect(config.webhooks.target).toEqual({ allowHttp: true, allowedNetworks: [] });
    expect(config.session.sessionRpm).toBe(60);
    expect(config.metricsToken).toBe("scrape-me");
    expect(config.development).toBe(true);
    const listed = checkProcessConfig(
      createProcessConfig({
        ...base,
        NODE_ENV: "production",
        WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1/32, ::1/128",
      }),
    );
    expect(listed.webhooks.target).toEqual({
      allowHttp: false,
      allowedNetworks: ["127.0.0.1/32", "::1/128"],
    });
    const none = checkProcessConfig(createProcessConfig({ ...base, WEBHOOK_ALLOWED_NETWORKS: "" }));
    expect(none.webhooks.target.allowedNetworks).toEqual([]);
  });

  it("logs each request at debug in development and at info otherwise, unless REQUEST_LOG_LEVEL says", () => {
    const level = (env: Record<string, string>): string =>
      createProcessConfig({ ...base, ...env }).api.requestLogLevel;
    expect(level({ NODE_ENV: "development" })).toBe("debug");
    expect(level({ NODE_ENV: "production" })).toBe("info");
    expect(level({})).toBe("info");
    expect(level({ NODE_ENV: "development", REQUEST_LOG_LEVEL: "info" })).toBe("info");
    expect(level({ NODE_ENV: "production", REQUEST_LOG_LEVEL: "debug" })).toBe("debug");
  });

  it.each([
    [{ INDEXER_INTERVAL_SECONDS: "0" }, "INDEXER_INTERVAL_SECONDS"],
    [{ WEBHOOK_ALLOWED_NETWORKS: "10.0.0.0/33" }, "WEBHOOK_ALLOWED_NETWORKS"],
    [{ RPC_URL: "https://rpc.provider.example/?api-key=k" }, "PUBLIC_RPC_URL"],
    [{ PROGRAM_ID: PROTOCOL }, "PROGRAM_ID"],
    [{ SESSION_SECRET: "short" }, "SESSION_SECRET"],
  ])("fails at boot with a ConfigError naming the variable: %o", (bad, name) => {
    let thrown: unknown = null;
    try {
      checkProcessConfig(createProcessConfig({ ...base, ...bad }));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).message).toContain(`Invalid configuration: ${name} `);
  });
});
