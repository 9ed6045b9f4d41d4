// Cluster presets (CLUSTER=localnet|devnet|testnet|mainnet-beta) and links to the Solana Explorer for
// that cluster. A local chain (or any custom RPC) is linked through the explorer's custom-URL mode,
// which reads that RPC from the browser. Pure: the pages, the API and the operator commands share it.
export const CLUSTER_NAMES = ["localnet", "devnet", "testnet", "mainnet-beta", "custom"] as const;
export type ClusterName = (typeof CLUSTER_NAMES)[number];

export interface ClusterPreset {
  /** The public RPC endpoint a preset starts from (rate-limited; production names its own). */
  rpcUrl: string | null;
}

export const CLUSTER_PRESETS: Readonly<Record<ClusterName, ClusterPreset>> = {
  localnet: { rpcUrl: "http://127.0.0.1:8899" },
  devnet: { rpcUrl: "https://api.devnet.solana.com" },
  testnet: { rpcUrl: "https://api.testnet.solana.com" },
  "mainnet-beta": { rpcUrl: "https://api.mainnet-beta.solana.com" },
  custom: { rpcUrl: null },
};

const EXPLORER = "https://explorer.solana.com";

export function isClusterName(value: string): value is ClusterName {
  return (CLUSTER_NAMES as readonly string[]).includes(value);
}

/** The explorer's query for a cluster: none for mainnet, a name, or the custom RPC URL. */
function explorerQuery(cluster: ClusterName, rpcUrl: string): string {
  switch (cluster) {
    case "mainnet-beta":
      return "";
    case "devnet":
    case "testnet":
      return `?cluster=${cluster}`;
    case "localnet":
    case "custom":
      return `?cluster=custom&customUrl=${encodeURIComponent(rpcUrl)}`;
  }
}

export type ExplorerTarget = { signature: string } | { address: string };

/** A link to a transaction or an account on the explorer of `cluster` (reached at `rpcUrl`). */
export function explorerUrl(target: ExplorerTarget, cluster: ClusterName, rpcUrl: string): string {
  const path =
    "signature" in target
      ? `/tx/${encodeURIComponent(target.signature)}`
      : `/address/${encodeURIComponent(target.address)}`;
  return `${EXPLORER}${path}${explorerQuery(cluster, rpcUrl)}`;
}

/** The cluster an RPC URL most likely belongs to, for links when CLUSTER is not set. */
export function clusterOfRpcUrl(rpcUrl: string): ClusterName {
  let host: string;
  try {
    host = new URL(rpcUrl).hostname;
  } catch {
    return "custom";
  }
  if (host === "127.0.0.1" || host === "localhost" || host === "[::1]" || host === "::1") {
    return "localnet";
  }
  for (const name of ["devnet", "testnet", "mainnet-beta"] as const) {
    const preset = CLUSTER_PRESETS[name].rpcUrl;
    if (preset !== null && new URL(preset).hostname === host) {
      return name;
    }
  }
  return "custom";
}

/** web3.js's default: the PubSub endpoint is the RPC port + 1 over ws(s). */
export function defaultWebSocketUrl(rpcUrl: string): string {
  const url = new URL(rpcUrl);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  if (url.port !== "") {
    url.port = String(Number(url.port) + 1);
  }
  return url.toString().replace(/\/$/, "");
}
