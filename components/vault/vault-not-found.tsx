// An address that holds no vault of this app: named, with the network it was looked up on, so a
// person can tell a mistyped address from a vault of another network (HTTP 404 when the server saw it:
// the not-found pages render it there; the vault page when the browser's read says so).
import Link from "next/link";

import type { ClusterName } from "@/lib/cluster";
import { Card } from "../ui/primitives";

const NETWORK_NAMES: Record<ClusterName, string> = {
  localnet: "localnet, the local test chain",
  devnet: "devnet",
  testnet: "testnet",
  "mainnet-beta": "mainnet-beta",
  custom: "this app's network",
};

export function VaultNotFound({ id, cluster, embed }: { id: string; cluster: ClusterName; embed: boolean }) {
  return (
    <Card>
      <h1 className="text-xl font-semibold" data-testid="vault-not-found">
        No vault at this address
      </h1>
      <p className="mt-2 text-sm text-muted">
        <code className="font-mono break-all text-fg">{id}</code> is not a vault of this app on{" "}
        <span data-testid="vault-not-found-network">{NETWORK_NAMES[cluster]}</span>. Check the address, and
        that the link was made for this network.{" "}
        {embed ? null : (
          <Link href="/" className="text-accent-text underline">
            See all vaults
          </Link>
        )}
      </p>
    </Card>
  );
}
