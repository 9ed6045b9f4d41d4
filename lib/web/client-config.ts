// What the browser is told about the deployment: public values only. The server builds it from its
// environment (lib/web-config.ts, which defines its type) on each page render and hands it to the
// client providers; nothing here is inlined at build time, so one build serves any cluster.
import type { ClusterName } from "../cluster";
import type { ClientConfig } from "../web-config";

export type { ClusterName };
export type { AssetLabel, ClientConfig } from "../web-config";

/** "EPW1…aAnC": how a mint without a known symbol is named. */
export function shortAddress(address: string): string {
  return address.length <= 10 ? address : `${address.slice(0, 4)}…${address.slice(-4)}`;
}

export function symbolOf(config: Pick<ClientConfig, "assets">, mint: string): string {
  return config.assets.find((asset) => asset.mint === mint)?.symbol ?? shortAddress(mint);
}
