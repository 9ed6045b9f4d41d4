import { describe, expect, it } from "vitest";

import { ConfigError, ENV_SCHEMA, parseEnv } from "./env-schema";

// One bad value per variable the one schema checks; the free-form ones (paths, tokens, the runtime
// mode, the network list checked by the webhook settings) have none.
const BAD: Record<string, string> = {
  CLUSTER: "moon",
  RPC_URL: "ftp://node.example",
  PROGRAM_ID: "not-a-key",
  DEFAULT_VAULT_ID: "0OIl",
  PROTOCOL_ID: "nope",
  ASSET_SYMBOL: "TOO-LONG-SYMBOL",
  DATABASE_URL: "mysql://db.example/app",
  REDIS_URL: "http://cache.example",
  PORT: "65536",
  TRUSTED_PROXY_COUNT: "11",
  LOG_LEVEL: "chatty",
  REQUEST_LOG_LEVEL: "warn",
  RPC_TIMEOUT_MS: "99",
  DATABASE_TIMEOUT_MS: "1.5",
  DEFAULT_KEY_RPM: "0",
  KEY_CACHE_SECONDS: "301",
  PRIORITY_FEE_CAP_MICROLAMPORTS: "-1",
  DEPOSIT_SLIPPAGE_BPS: "5001",
  NAV_INTERVAL_SECONDS: "0",
  APY_MIN_SPAN_SECONDS: "1e3",
  STAGE_INTERVAL_SECONDS: "86401",
  STAGE_MAX_SHARES: "0",
  KEEPER_TICK_SECONDS: "2.5",
  SLOT_MS: "9",
  KEEPER_CHECK_RPC_URL: "ws://127.0.0.1:8900",
  KEEPER_CHECK_MAX_SLOT_LAG: "-1",
  PUBLIC_RPC_URL: "ws://rpc.example",
  PUBLIC_WS_URL: "https://rpc.example",
  FAUCET_URL: "not a url",
  FRAME_ANCESTORS: "'self'; script-src *",
  SESSION_SECRET: "short",
  FIRST_PARTY_API_KEY: "nope",
  FIRST_PARTY_RPM: "0",
  SESSION_TTL_SECONDS: "10",
  SESSION_RPM: "x",
  SESSION_ISSUE_LIMIT: "0",
  SESSION_ISSUE_WINDOW_SECONDS: "86401",
  INDEXER: "maybe",
  INDEXER_INTERVAL_SECONDS: "15.5",
  INDEXER_WS_URL: "https://rpc.example.com",
  WEBHOOKS: "yes",
  WEBHOOK_CAPACITY_LOW_BPS: "10001",
  WEBHOOK_MAX_ENDPOINTS_PER_KEY: "0",
  WEBHOOK_CONCURRENCY: "1001",
  WEBHOOK_TIMEOUT_MS: "999",
  WEBHOOK_RETENTION_DAYS: "0",
};
const FREE_FORM = [
  "LOCALNET_ADDRESSES_FILE",
  "STRATEGIES_FILE",
  "PGLITE_DIR",
  "HOST",
  "WEBHOOK_ALLOWED_NETWORKS",
  "WEBHOOK_SECRET_KEY",
  "WEBHOOK_SECRET_KEY_PREVIOUS",
  "METRICS_TOKEN",
  "NODE_ENV",
];
const SECRETS = ["SESSION_SECRET", "FIRST_PARTY_API_KEY", "DATABASE_URL", "REDIS_URL"];

describe("the one schema of the environment", () => {
  it("has a bad-value case for every variable it checks", () => {
    expect(Object.keys(ENV_SCHEMA.shape).sort()).toEqual([...Object.keys(BAD), ...FREE_FORM].sort());
  });

  it.each(Object.entries(BAD))("refuses a bad %s with a ConfigError naming it", (name, value) => {
    let thrown: unknown = null;
    try {
      parseEnv({ [name]: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const message = (thrown as ConfigError).message;
    expect(message.startsWith(`Invalid configuration: ${name} `)).toBe(true);
    // A secret's value is never repeated; any other value is, to show what was read.
    expect(message.includes(value)).toBe(!SECRETS.includes(name));
  });

  it("gives the defaults when nothing is set, empty counting as unset", () => {
    const values = parseEnv({ PORT: "", INDEXER: "" });
    expect(values).toMatchObject({
      PORT: 3000,
      HOST: "127.0.0.1",
      INDEXER: "on",
      INDEXER_INTERVAL_SECONDS: 15,
      WEBHOOKS: "on",
      WEBHOOK_CAPACITY_LOW_BPS: 1_000,
      FIRST_PARTY_RPM: 300,
      SESSION_TTL_SECONDS: 1_800,
    });
    expect(values.WEBHOOK_ALLOWED_NETWORKS).toBeUndefined();
    // Except the webhook networks, where empty means none exempt.
    expect(parseEnv({ WEBHOOK_ALLOWED_NETWORKS: "" }).WEBHOOK_ALLOWED_NETWORKS).toBe("");
  });
});
