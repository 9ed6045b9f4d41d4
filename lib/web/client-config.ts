// What the browser is told about the deployment: public values only. The server builds it from its
// environment (lib/web/server-config.ts) on each page render and hands it to the client providers;
// nothing here is inlined at build time, so one build serves any cluster.
import type { ClusterName } from "../cluster";

export type { ClusterName };

export interface AssetLabel {
  mint: string;
  symbol: string;
  decimals: number;
}

export interface ClientConfig {
  cluster: ClusterName;
  /** The RPC endpoint the browser submits and reads through: public by definition. */
  rpcUrl: string;
  wsUrl: string;
  /** The localnet faucet (POST {wallet}), or null on a real cluster. */
  faucetUrl: string | null;
  programId: string;
  /** The protocol whose vaults the pages show (PROTOCOL_ID); null: none configured, so none shown. */
  protocolId: string | null;
  defaultVaultId: string | null;
  /** Symbols of known asset mints; other mints are shown by a short form of their address. */
  assets: AssetLabel[];
}

/** "EPW1…aAnC": how a mint without a known symbol is named. */
export function shortAddress(address: string): string {
  return address.length <= 10 ? address : `${address.slice(0, 4)}…${address.slice(-4)}`;
}

export function symbolOf(config: Pick<ClientConfig, "assets">, mint: string): string {
  return config.assets.find((asset) => asset.mint === mint)?.symbol ?? shortAddress(mint);
}
