"use client";
// Data access for the vault pages. From /api: the directory (GET /api/vaults), the vault's statistics
// and APY (GET /api/vault/{id}/stats), its share price series for the chart (GET
// /api/vault/{id}/nav-history), the portfolio (GET /api/portfolio), the withdrawal status and the
// activity. From the chain through lib/web/chain-reader.ts: the vault's live state (the indexer behind
// the read endpoints trails the chain by up to INDEXER_INTERVAL_SECONDS, and the forms quote against
// what the program will see) and the wallet's own balances — each queryFn is the one line to switch.
// Writes: build via /api → the wallet signs → submit → confirm → POST /api/history → invalidate.
// Query keys carry the cluster and the wallet.
import { useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";

import { UnexpectedActionError, WalletUnavailableError } from "@/lib/web/errors";
import { chartWindow, strikesOf, type NavPoint } from "@/lib/web/nav-history";
import type { WithdrawalStatusData } from "@/lib/web/api-client";
import type { FlowStage } from "@/lib/web/transaction-flow";
import type { VaultView } from "@/lib/web/vault-view";
import { useClientConfig, useClusterKey } from "../providers/config-context";
import { useWalletState, type WalletState } from "../wallet/wallet-data-access";

const loadReader = () => import("@/lib/web/chain-reader");
const loadApi = () => import("@/lib/web/api-client");
const loadFlow = () => import("@/lib/web/transaction-flow");

export const vaultKeys = {
  directory: (cluster: readonly string[]) => ["directory", ...cluster] as const,
  stats: (cluster: readonly string[], id: string) => ["stats", ...cluster, id] as const,
  vault: (cluster: readonly string[], id: string) => ["vault", ...cluster, id] as const,
  navHistory: (cluster: readonly string[], id: string, firstNavAt: string | null) =>
    ["nav-history", ...cluster, id, firstNavAt] as const,
  position: (cluster: readonly string[], id: string, wallet: string | null) =>
    ["position", ...cluster, id, wallet] as const,
  withdrawalStatus: (cluster: readonly string[], id: string, wallet: string | null) =>
    ["withdrawal-status", ...cluster, id, wallet] as const,
  activity: (cluster: readonly string[], id: string, wallet: string | null) =>
    ["activity", ...cluster, id, wallet] as const,
  portfolio: (cluster: readonly string[], wallet: string | null) =>
    ["portfolio", ...cluster, wallet] as const,
};

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

/** The partner events that change what the vault page shows of a wallet, and which queries they touch. */
const EVENT_REFRESHES = {
  "deposit.confirmed": ["position", "activity", "vault"],
  "withdrawal.requested": ["withdrawalStatus", "position", "activity", "vault"],
  "withdrawal.claimable": ["withdrawalStatus", "position"],
  "withdrawal.claimed": ["withdrawalStatus", "position", "activity", "vault"],
  "vault.nav_updated": ["withdrawalStatus", "position", "vault", "stats"],
  "vault.paused": ["vault"],
  "vault.resumed": ["vault"],
} as const;

/**
 * The vault page listening to the chain (GET /api/events/stream, server-sent events through the page
 * session): each event refetches the queries it changes, and withdrawal.claimable turns the pending
 * withdrawal ready at once, without waiting for the status poll. Connecting refetches the status too,
 * for whatever happened while the page was not listening. The browser reconnects by itself, resuming
 * after the last event it had. `live` says whether the stream is open.
 */
export function useVaultEvents(vaultId: string): { live: boolean } {
  const queryClient = useQueryClient();
  // The key's parts, not the key: a new array each render would reopen the stream each render.
  const [clusterName, rpcUrl] = useClusterKey();
  const { publicKey } = useWalletState();
  const [live, setLive] = useState(false);
  useEffect(() => {
    const cluster = [clusterName, rpcUrl] as const;
    if (typeof EventSource === "undefined") {
      return undefined;
    }
    const params = new URLSearchParams({ vault: vaultId });
    if (publicKey !== null) {
      params.set("wallet", publicKey);
    }
    const source = new EventSource(`/api/events/stream?${params.toString()}`);
    const keys = {
      withdrawalStatus: vaultKeys.withdrawalStatus(cluster, vaultId, publicKey),
      position: vaultKeys.position(cluster, vaultId, publicKey),
      activity: vaultKeys.activity(cluster, vaultId, publicKey),
      vault: vaultKeys.vault(cluster, vaultId),
      stats: vaultKeys.stats(cluster, vaultId),
    };
    source.onopen = () => {
      setLive(true);
      void queryClient.invalidateQueries({ queryKey: keys.withdrawalStatus });
    };
    // EventSource retries on its own (the server's `retry:`); the poll carries on meanwhile.
    source.onerror = () => setLive(false);
    for (const [type, touched] of Object.entries(EVENT_REFRESHES)) {
      source.addEventListener(type, () => {
        if (type === "withdrawal.claimable") {
          // The event is the chain's word that this wallet's request is claimable (the stream sends
          // this wallet's events only): shown at once; the refetch below brings the exact figures.
          queryClient.setQueryData<WithdrawalStatusData>(keys.withdrawalStatus, (status) =>
            status?.hasPendingWithdrawal === true
              ? { ...status, canClaimNow: true, estimate: { kind: "ready", band: null } }
              : status,
          );
        }
        for (const name of touched) {
          void queryClient.invalidateQueries({ queryKey: keys[name] });
        }
      });
    }
    return () => {
      source.close();
      setLive(false);
    };
  }, [queryClient, clusterName, rpcUrl, vaultId, publicKey]);
  return { live };
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

/** The localnet faucet: test SOL and USDC for the connected wallet. */
export function useFaucet() {
  const config = useClientConfig();
  const cluster = useClusterKey();
  const { publicKey } = useWalletState();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      if (config.faucetUrl === null || publicKey === null) {
        throw new WalletUnavailableError("Connect a wallet to get test funds");
      }
      let response: Response;
      try {
        response = await fetch(config.faucetUrl, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ wallet: publicKey }),
        });
      } catch (error) {
        // The faucet is the local chain's: not answering means the chain is down.
        const { ChainUnavailableError } = await import("@/lib/chain/rpc");
        throw new ChainUnavailableError(`faucet: ${error instanceof Error ? error.message : String(error)}`);
      }
      const body = (await response.json().catch(() => null)) as {
        signature?: string;
        error?: unknown;
      } | null;
      if (!response.ok || typeof body?.signature !== "string") {
        const { ApiRequestError } = await import("@/lib/web/errors");
        const retryAfter = Number(response.headers.get("retry-after"));
        throw new ApiRequestError(
          response.status,
          response.status === 429 ? "RATE_LIMITED" : "FAUCET_FAILED",
          typeof body?.error === "string" ? body.error : "The faucet refused",
          null,
          Number.isFinite(retryAfter) ? retryAfter : null,
        );
      }
      const reader = await loadReader();
      await reader.connectionFor(config).confirmTransaction(body.signature, "confirmed");
      return body.signature;
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ["position", ...cluster] });
      void queryClient.invalidateQueries({ queryKey: ["balances", ...cluster] });
    },
  });
}

export interface TransactionProgress {
  stage: FlowStage | null;
  /** The blockhash expired once: the transaction was rebuilt and the wallet asked again. */
  rebuilt: boolean;
}

interface ConnectedWallet {
  publicKey: string;
  signTransaction: NonNullable<WalletState["signTransaction"]>;
}

function requireWallet(wallet: WalletState): ConnectedWallet {
  if (wallet.publicKey === null || wallet.signTransaction === null) {
    throw new WalletUnavailableError("Connect a wallet that can sign transactions first.");
  }
  return { publicKey: wallet.publicKey, signTransaction: wallet.signTransaction };
}

/** The flow's stage and rebuild notice for one form, plus the callbacks the flow reports through. */
function useTransactionProgress() {
  const [progress, setProgress] = useState<TransactionProgress>({ stage: null, rebuilt: false });
  const events = {
    stage: (stage: FlowStage) => setProgress((current) => ({ ...current, stage })),
    rebuilt: () => setProgress((current) => ({ ...current, rebuilt: true })),
  };
  const reset = useCallback(() => setProgress({ stage: null, rebuilt: false }), []);
  const finish = useCallback(() => setProgress((current) => ({ ...current, stage: null })), []);
  return { progress, events, reset, finish };
}

function useInvalidateVault(vaultId: string) {
  const queryClient = useQueryClient();
  const cluster = useClusterKey();
  return () =>
    Promise.all(
      [
        vaultKeys.vault(cluster, vaultId),
        ["position", ...cluster, vaultId],
        ["withdrawal-status", ...cluster, vaultId],
        ["activity", ...cluster, vaultId],
        ["portfolio", ...cluster],
        ["balances", ...cluster],
        vaultKeys.directory(cluster),
        vaultKeys.stats(cluster, vaultId),
      ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    );
}

export function useDeposit(vault: VaultView) {
  const config = useClientConfig();
  const wallet = useWalletState();
  const { progress, events, reset, finish } = useTransactionProgress();
  const invalidate = useInvalidateVault(vault.id);
  const mutation = useMutation({
    mutationFn: async ({ amount }: { amount: bigint }) => {
      const connected = requireWallet(wallet);
      const [reader, api, flow] = await Promise.all([loadReader(), loadApi(), loadFlow()]);
      return flow.runVaultTransaction(
        { connection: reader.connectionFor(config), signTransaction: connected.signTransaction, events },
        () => api.buildDeposit(vault.id, connected.publicKey, amount),
        (signature) => api.recordHistory(vault.id, connected.publicKey, signature),
      );
    },
    onMutate: reset,
    onSettled: async () => {
      finish();
      await invalidate();
    },
  });
  return { mutation, progress };
}

export function useRequestWithdrawal(vault: VaultView) {
  const config = useClientConfig();
  const wallet = useWalletState();
  const { progress, events, reset, finish } = useTransactionProgress();
  const invalidate = useInvalidateVault(vault.id);
  const mutation = useMutation({
    mutationFn: async ({ shares }: { shares: bigint }) => {
      const connected = requireWallet(wallet);
      const [reader, api, flow] = await Promise.all([loadReader(), loadApi(), loadFlow()]);
      return flow.runVaultTransaction(
        { connection: reader.connectionFor(config), signTransaction: connected.signTransaction, events },
        () => api.buildWithdraw(vault.id, connected.publicKey, shares),
        (signature) => api.recordHistory(vault.id, connected.publicKey, signature),
        (prepared) => {
          if (prepared.action !== "initiate") {
            throw new UnexpectedActionError("initiate", prepared.action);
          }
        },
      );
    },
    onMutate: reset,
    onSettled: async () => {
      finish();
      await invalidate();
    },
  });
  return { mutation, progress };
}

export function useClaimWithdrawal(vault: VaultView) {
  const config = useClientConfig();
  const wallet = useWalletState();
  const { progress, events, reset, finish } = useTransactionProgress();
  const invalidate = useInvalidateVault(vault.id);
  const mutation = useMutation({
    mutationFn: async () => {
      const connected = requireWallet(wallet);
      const [reader, api, flow] = await Promise.all([loadReader(), loadApi(), loadFlow()]);
      return flow.runVaultTransaction(
        { connection: reader.connectionFor(config), signTransaction: connected.signTransaction, events },
        // The spec's auto-detected action: with a withdrawal pending, the API prepares its claim.
        () => api.buildWithdraw(vault.id, connected.publicKey, null),
        (signature) => api.recordHistory(vault.id, connected.publicKey, signature),
        (prepared) => {
          if (prepared.action !== "claim") {
            throw new UnexpectedActionError("claim", prepared.action);
          }
        },
      );
    },
    onMutate: reset,
    onSettled: async () => {
      finish();
      await invalidate();
    },
  });
  return { mutation, progress };
}
