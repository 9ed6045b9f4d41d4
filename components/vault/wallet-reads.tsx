"use client";
// The connected wallet's reads: its position in a vault and its SOL and asset balances (from the chain
// through lib/web/chain-reader.ts), its activity (GET /api/history) and its portfolio (GET /api/portfolio).
import { useQueries, useQuery } from "@tanstack/react-query";

import { WalletUnavailableError } from "@/lib/web/errors";
import type { VaultView } from "@/lib/vault/model/vault-view";
import { useClientConfig, useClusterKey } from "../providers/config-context";
import { useWalletState } from "../wallet/wallet-data-access";
import { loadApi, loadReader, vaultKeys } from "./vault-query-keys";

export function useWalletPosition(vault: VaultView | undefined) {
  const config = useClientConfig();
  const cluster = useClusterKey();
  const { publicKey } = useWalletState();
  return useQuery({
    queryKey: vaultKeys.position(cluster, vault?.id ?? "", publicKey),
    queryFn: async () => {
      const reader = await loadReader();
      if (vault === undefined || publicKey === null) {
        throw new WalletUnavailableError("Connect a wallet to see your position");
      }
      return reader.readWalletPosition(reader.connectionFor(config), vault, publicKey);
    },
    enabled: vault !== undefined && publicKey !== null,
    refetchInterval: 5_000,
  });
}

export function useVaultActivity(vaultId: string) {
  const cluster = useClusterKey();
  const { publicKey } = useWalletState();
  return useQuery({
    queryKey: vaultKeys.activity(cluster, vaultId, publicKey),
    queryFn: async () => {
      const api = await loadApi();
      if (publicKey === null) {
        throw new WalletUnavailableError("Connect a wallet to see your activity");
      }
      return api.getHistory(vaultId, publicKey);
    },
    enabled: publicKey !== null,
  });
}

/** The wallet's activity on every vault (GET /api/history per vault until a wallet-wide feed exists). */
export function useActivityAcrossVaults(vaults: readonly { id: string }[] | undefined) {
  const cluster = useClusterKey();
  const { publicKey } = useWalletState();
  return useQueries({
    queries: (vaults ?? []).map((vault) => ({
      queryKey: vaultKeys.activity(cluster, vault.id, publicKey),
      queryFn: async () => {
        const api = await loadApi();
        if (publicKey === null) {
          throw new WalletUnavailableError("Connect a wallet to see your activity");
        }
        return api.getHistory(vault.id, publicKey);
      },
      enabled: publicKey !== null,
    })),
  });
}

/** The wallet's positions, cost basis and PnL across the vaults: GET /api/portfolio?wallet=. */
export function usePortfolio() {
  const cluster = useClusterKey();
  const { publicKey } = useWalletState();
  return useQuery({
    queryKey: vaultKeys.portfolio(cluster, publicKey),
    queryFn: async () => {
      const api = await loadApi();
      if (publicKey === null) {
        throw new WalletUnavailableError("Connect a wallet to see your portfolio");
      }
      return api.getPortfolio(publicKey);
    },
    enabled: publicKey !== null,
    refetchInterval: 10_000,
  });
}

/** The wallet's SOL and asset balances, from the chain. */
export function useWalletBalances() {
  const config = useClientConfig();
  const cluster = useClusterKey();
  const { publicKey } = useWalletState();
  return useQuery({
    queryKey: ["balances", ...cluster, publicKey],
    queryFn: async () => {
      const reader = await loadReader();
      if (publicKey === null) {
        throw new WalletUnavailableError("Connect a wallet to see its balances");
      }
      return reader.readWalletBalances(
        reader.connectionFor(config),
        publicKey,
        config.assets.map((asset) => asset.mint),
      );
    },
    enabled: publicKey !== null,
    refetchInterval: 10_000,
  });
}
