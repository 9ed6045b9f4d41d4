"use client";
// The vault's reads. From /api: the directory (GET /api/vaults), the vault's statistics and APY (GET
// /api/vault/{id}/stats), its share price series for the chart (GET /api/vault/{id}/nav-history) and the
// wallet's withdrawal status. From the chain through lib/web/chain-reader.ts: the vault's live state (the
// indexer behind the read endpoints trails the chain by up to INDEXER_INTERVAL_SECONDS, and the forms
// quote against what the program will see) — each queryFn is the one line to switch.
import { useQuery } from "@tanstack/react-query";

import { WalletUnavailableError } from "@/lib/web/errors";
import { chartWindow, strikesOf, type NavPoint } from "@/lib/web/nav-history";
import type { VaultView } from "@/lib/vault/model/vault-view";
import { useClientConfig, useClusterKey } from "../providers/config-context";
import { useWalletState } from "../wallet/wallet-data-access";
import { loadApi, loadReader, vaultKeys } from "./vault-query-keys";

/** The directory: GET /api/vaults. */
export function useVaultDirectory() {
  const cluster = useClusterKey();
  return useQuery({
    queryKey: vaultKeys.directory(cluster),
    queryFn: async () => (await loadApi()).getVaults(),
    refetchInterval: 15_000,
  });
}

/** TVL, depositors, APY 7d/30d and the withdrawal queue: GET /api/vault/{id}/stats. */
export function useVaultStats(id: string) {
  const cluster = useClusterKey();
  return useQuery({
    queryKey: vaultKeys.stats(cluster, id),
    queryFn: async () => (await loadApi()).getVaultStats(id),
    refetchInterval: 15_000,
    retry: 1,
  });
}

/**
 * The indexer's last NAV of the vault (GET /api/vault/{id}/nav): asked only while the chain does not
 * answer, so the page still shows figures, marked with when they were struck.
 */
export function useIndexedNav(id: string, enabled: boolean) {
  const cluster = useClusterKey();
  return useQuery({
    queryKey: vaultKeys.indexedNav(cluster, id),
    queryFn: async () => (await loadApi()).getVaultNav(id),
    enabled,
    refetchInterval: enabled ? 15_000 : false,
  });
}

/** `initial`: what the server read while rendering the page (lib/web/server-reads.ts), if anything. */
export function useVault(id: string, initial?: VaultView | null) {
  const config = useClientConfig();
  const cluster = useClusterKey();
  return useQuery({
    queryKey: vaultKeys.vault(cluster, id),
    queryFn: async () => {
      const reader = await loadReader();
      return reader.readVault(reader.connectionFor(config), config, id);
    },
    initialData: initial ?? undefined,
    refetchInterval: 4_000,
  });
}

/**
 * The NAV strikes for the chart: GET /api/vault/{id}/nav-history from the vault's first strike (the
 * stats' `firstNavAt`; undefined while they load) by the interval its age allows (chartWindow), so the
 * window is chosen again at each refetch as the vault grows older. No strike yet: nothing to ask for.
 */
export function useNavHistory(id: string, firstNavAt: string | null | undefined) {
  const cluster = useClusterKey();
  return useQuery({
    queryKey: vaultKeys.navHistory(cluster, id, firstNavAt ?? null),
    queryFn: async (): Promise<NavPoint[]> => {
      if (firstNavAt === null || firstNavAt === undefined) {
        return [];
      }
      const api = await loadApi();
      const series = await api.getNavHistory(id, chartWindow(Date.parse(firstNavAt), Date.now()));
      return strikesOf(series.points);
    },
    enabled: firstNavAt !== undefined,
    staleTime: 15_000,
    refetchInterval: 30_000,
  });
}

export function useWithdrawalStatus(vaultId: string) {
  const cluster = useClusterKey();
  const { publicKey } = useWalletState();
  return useQuery({
    queryKey: vaultKeys.withdrawalStatus(cluster, vaultId, publicKey),
    queryFn: async () => {
      const api = await loadApi();
      if (publicKey === null) {
        throw new WalletUnavailableError("Connect a wallet to see your withdrawal");
      }
      return api.getWithdrawalStatus(vaultId, publicKey);
    },
    enabled: publicKey !== null,
    // Live while something is pending: the band and the queue progress move with the keeper.
    refetchInterval: (query) => (query.state.data?.hasPendingWithdrawal === true ? 2_000 : 15_000),
  });
}
