// CLUSTER presets and explorer links: each cluster's link form, the custom-URL link for the local
// chain, and the presets reaching the API's and the pages' RPC endpoints.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { clusterOfRpcUrl, explorerUrl } from "./cluster";
import { ConfigError, parseConfig } from "./config";
import { parseWebConfig } from "./web-config";

const SIGNATURE = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW";
const ADDRESS = "4eZ1RNBKAGZY9ptCQh1TqcCAnxHW7CHL4xF99J6MWpVB";
const absent = join(mkdtempSync(join(tmpdir(), "cluster-test-")), "absent.json");

describe("explorerUrl", () => {
  it.each([
    ["mainnet-beta", `https://explorer.solana.com/tx/${SIGNATURE}`],
    ["devnet", `https://explorer.solana.com/tx/${SIGNATURE}?cluster=devnet`],
    ["testnet", `https://explorer.solana.com/tx/${SIGNATURE}?cluster=testnet`],
    [
      "localnet",
      `https://explorer.solana.com/tx/${SIGNATURE}?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A8899`,
    ],
  ] as const)("links a signature on %s", (cluster, url) => {
    expect(explorerUrl({ signature: SIGNATURE }, cluster, "http://127.0.0.1:8899")).toBe(url);
  });

  it("links an address, and a custom cluster through its RPC URL", () => {
    expect(explorerUrl({ address: ADDRESS }, "custom", "https://rpc.example/x?y=1")).toBe(
      `https://explorer.solana.com/address/${ADDRESS}?cluster=custom&customUrl=https%3A%2F%2Frpc.example%2Fx%3Fy%3D1`,
    );
  });

  it("guesses the cluster of an RPC URL", () => {
    expect(clusterOfRpcUrl("http://127.0.0.1:18500")).toBe("localnet");
    expect(clusterOfRpcUrl("https://api.devnet.solana.com")).toBe("devnet");
    expect(clusterOfRpcUrl("https://api.mainnet-beta.solana.com/")).toBe("mainnet-beta");
    expect(clusterOfRpcUrl("https://my-node.example")).toBe("custom");
  });
});

describe("CLUSTER presets", () => {
  const vault = Keypair.generate().publicKey.toBase58();

  it("give the API its RPC URL unless RPC_URL names one", () => {
    const base = { DEFAULT_VAULT_ID: vault, PROTOCOL_ID: vault, LOCALNET_ADDRESSES_FILE: absent };
    expect(parseConfig({ ...base, CLUSTER: "devnet" })).toMatchObject({
      cluster: "devnet",
      rpcUrl: "https://api.devnet.solana.com",
    });
    expect(
      parseConfig({ ...base, CLUSTER: "mainnet-beta", RPC_URL: "https://my-node.example" }),
    ).toMatchObject({
      cluster: "mainnet-beta",
      rpcUrl: "https://my-node.example",
    });
    expect(parseConfig(base)).toMatchObject({ cluster: "localnet", rpcUrl: "http://127.0.0.1:8899" });
    expect(() => parseConfig({ ...base, CLUSTER: "moon" })).toThrow(ConfigError);
  });

  it("give the pages the preset's public endpoint while the server keeps its own", () => {
    const config = parseWebConfig({
      LOCALNET_ADDRESSES_FILE: absent,
      CLUSTER: "devnet",
      RPC_URL: "https://rpc.provider.example/?api-key=secret",
    });
    expect(config.client.cluster).toBe("devnet");
    expect(config.client.rpcUrl).toBe("https://api.devnet.solana.com");
    expect(config.serverRpcUrl).toBe("https://rpc.provider.example/?api-key=secret");
  });
});
