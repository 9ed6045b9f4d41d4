// The vault pages' query keys (each carries the cluster, and the wallet where the data is the wallet's),
// and the modules their queries load on first use: the chain reader, the /api client, the transaction flow.

export const loadReader = () => import("@/lib/web/chain-reader");

export const loadApi = () => import("@/lib/web/api-client");

export const loadFlow = () => import("@/lib/web/transaction-flow");

export const vaultKeys = {
  directory: (cluster: readonly string[]) => ["directory", ...cluster] as const,
  stats: (cluster: readonly string[], id: string) => ["stats", ...cluster, id] as const,
  indexedNav: (cluster: readonly string[], id: string) => ["indexed-nav", ...cluster, id] as const,
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
