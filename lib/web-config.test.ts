import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { ConfigError } from "./config";
import { describeEmbedFraming, parseSessionSettings, parseWebConfig } from "./web-config";
import { defaultWebSocketUrl } from "./cluster";

const directory = mkdtempSync(join(tmpdir(), "web-config-"));
const addressesFile = join(directory, "addresses.json");
writeFileSync(
  addressesFile,
  JSON.stringify({
    rpcUrl: "http://127.0.0.1:8899",
    wsUrl: "ws://127.0.0.1:8900",
    faucetUrl: "http://127.0.0.1:8899/faucet",
    asset: { mint: "EPW1hKi3ZEw172GQeDr6kpzp4DZuF15JxB9JHUdjaAnC", symbol: "USDC", decimals: 6 },
    defaultVaultId: "5wmiQyQXVpAVrfsVoQAqiHnkNZTW6n6998Rq56hs5DXS",
    protocolId: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
  }),
);
const local = { LOCALNET_ADDRESSES_FILE: addressesFile };

describe("the browser's view of the deployment", () => {
  it("on the local chain: its endpoints, faucet and asset from the addresses file", () => {
    const config = parseWebConfig(local, directory);
    expect(config.client).toEqual({
      cluster: "localnet",
      rpcUrl: "http://127.0.0.1:8899",
      wsUrl: "ws://127.0.0.1:8900",
      faucetUrl: "http://127.0.0.1:8899/faucet",
      programId: "4eZ1RNBKAGZY9ptCQh1TqcCAnxHW7CHL4xF99J6MWpVB",
      protocolId: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
      defaultVaultId: "5wmiQyQXVpAVrfsVoQAqiHnkNZTW6n6998Rq56hs5DXS",
      assets: [{ mint: "EPW1hKi3ZEw172GQeDr6kpzp4DZuF15JxB9JHUdjaAnC", symbol: "USDC", decimals: 6 }],
    });
    // Any site may frame the embed on the local chain, so a partner's dev site just works.
    expect(config.frameAncestors).toEqual(["*"]);
    expect(describeEmbedFraming(config)).toBe(
      "web: /embed/… may be framed by any site (*) (the default on the local chain; set FRAME_ANCESTORS to list the partners)",
    );
  });

  it("never hands the browser the server's RPC URL when it may carry a key", () => {
    expect(() =>
      parseWebConfig({ ...local, RPC_URL: "https://rpc.provider.example/?api-key=secret" }),
    ).toThrow(/PUBLIC_RPC_URL is required/);
    expect(() => parseWebConfig({ ...local, RPC_URL: "http://127.0.0.1:8899/?api-key=secret" })).toThrow(
      ConfigError,
    );
    const config = parseWebConfig({
      ...local,
      RPC_URL: "https://rpc.provider.example/?api-key=secret",
      PUBLIC_RPC_URL: "https://api.devnet.solana.com",
      CLUSTER: "devnet",
    });
    expect(JSON.stringify(config.client)).not.toContain("secret");
    // Off the local chain only the app frames its embed until FRAME_ANCESTORS names the partners.
    expect(config.frameAncestors).toEqual(["'self'"]);
    expect(describeEmbedFraming(config)).toBe(
      "web: /embed/… may be framed by 'self' (the default on cluster devnet; set FRAME_ANCESTORS to list the partners)",
    );
    expect(config.serverRpcUrl).toBe("https://rpc.provider.example/?api-key=secret");
    expect(config.client).toMatchObject({
      cluster: "devnet",
      rpcUrl: "https://api.devnet.solana.com",
      wsUrl: "wss://api.devnet.solana.com",
      faucetUrl: null,
    });
  });

  it("names the bad variable", () => {
    expect(() => parseWebConfig({ ...local, FRAME_ANCESTORS: "'self'; script-src *" })).toThrow(
      /FRAME_ANCESTORS has an invalid source/,
    );
    expect(() => parseWebConfig({ ...local, PUBLIC_RPC_URL: "ftp://x" })).toThrow(
      /PUBLIC_RPC_URL must be a URL/,
    );
    expect(() => parseSessionSettings({ SESSION_SECRET: "short" })).toThrow(
      /SESSION_SECRET must be at least 32/,
    );
    expect(() => parseSessionSettings({ FIRST_PARTY_API_KEY: "nope" })).toThrow(/FIRST_PARTY_API_KEY/);
  });

  it("parses frame ancestors and the first-party limits", () => {
    // FRAME_ANCESTORS wins on the local chain too: production's refusal can be tried there.
    const partners = parseWebConfig({ ...local, FRAME_ANCESTORS: "'self' https://partner.example" });
    expect(partners.frameAncestors).toEqual(["'self'", "https://partner.example"]);
    expect(describeEmbedFraming(partners)).toBe(
      "web: /embed/… may be framed by 'self' https://partner.example (FRAME_ANCESTORS)",
    );
    expect(parseSessionSettings({})).toEqual({
      sessionSecret: null,
      firstPartyApiKey: null,
      firstPartyRpm: 300,
      sessionTtlSeconds: 1_800,
      sessionRpm: 120,
      sessionIssueLimit: 300,
      sessionIssueWindowSeconds: 600,
    });
    expect(parseSessionSettings({ FIRST_PARTY_RPM: "60" }).firstPartyRpm).toBe(60);
    expect(
      parseSessionSettings({
        SESSION_TTL_SECONDS: "900",
        SESSION_RPM: "30",
        SESSION_ISSUE_LIMIT: "5",
        SESSION_ISSUE_WINDOW_SECONDS: "3600",
      }),
    ).toMatchObject({
      sessionTtlSeconds: 900,
      sessionRpm: 30,
      sessionIssueLimit: 5,
      sessionIssueWindowSeconds: 3600,
    });
    expect(() => parseSessionSettings({ SESSION_TTL_SECONDS: "10" })).toThrow(/SESSION_TTL_SECONDS/);
  });

  it("derives the PubSub endpoint as web3.js does", () => {
    expect(defaultWebSocketUrl("http://127.0.0.1:8899")).toBe("ws://127.0.0.1:8900");
    expect(defaultWebSocketUrl("https://rpc.example")).toBe("wss://rpc.example");
  });
});
