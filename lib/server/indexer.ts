// The indexer of an API context: the advisory lock on PostgreSQL (a connection of its own), the
// in-process claim on embedded PGlite, the run interval and the WebSocket that wakes it (lib/indexer/settings.ts).
import type { ApiContext } from "../api/context";
import { Indexer } from "../indexer/indexer";
import { embeddedLeaderLock, postgresLeaderLock } from "../indexer/leader-lock";
import type { IndexerProgress } from "../indexer/indexer";
import { processMetrics } from "../observability/metrics";
import type { RpcClient } from "../chain/rpc";

/** The indexer's gauges: how far behind the chain its last run was, and what it read of each vault. */
async function recordIndexerRun(rpc: RpcClient, progress: IndexerProgress): Promise<void> {
  const metrics = processMetrics();
  metrics.indexerIndexedSlot.set(progress.slot);
  metrics.indexerLastRun.set(Date.now() / 1000);
  for (const vault of progress.vaults) {
    metrics.vaultNavUpdatedAt.set({ vault: vault.address }, Number(vault.navUpdatedAt));
    metrics.vaultUnfundedShares.set({ vault: vault.address }, Number(vault.unfundedShares));
  }
  const current = await rpc.call<number>("getSlot", [{ commitment: "confirmed" }], { background: true });
  metrics.indexerLag.set(Math.max(0, current - progress.slot));
}

export function createIndexer(
  context: ApiContext,
  options: {
    intervalMs: number;
    schema?: string;
    /** The PubSub endpoint that wakes it (parseIndexerSettings); without one, the interval alone. */
    wsUrl?: string | null;
  },
): Indexer {
  const { config } = context;
  return new Indexer({
    rpc: context.rpc,
    chain: context.chain,
    store: context.store.indexer,
    genesis: context.genesis,
    lock:
      config.databaseUrl === null
        ? embeddedLeaderLock(context.store)
        : postgresLeaderLock(config.databaseUrl, options.schema ?? "public", config.databaseTimeoutMs),
    programId: config.programId,
    protocolId: config.protocolId,
    intervalMs: options.intervalMs,
    wsUrl: options.wsUrl ?? null,
    partnerEvents: {
      symbolOf: context.deps.symbolOf,
      capacityLowBps: context.webhooks.settings.capacityLowBps,
    },
    onDeliveriesQueued: () => context.webhooks.worker.wake(),
    onEventsRecorded: () => {
      // A withdrawal's milestones may have moved: the status reads them anew.
      context.chainData.withdrawalMilestones.clear();
      context.liveEvents.recorded();
    },
    onError: (error) =>
      context.log.log("warn", "indexer run failed", {
        error: error instanceof Error ? error.message : String(error),
      }),
    onNewChain: ({ previous, current }) =>
      context.log.log(
        "warn",
        "indexer: a new chain (its genesis hash changed); the previous chain's rows are deleted and indexing starts over",
        {
          previous,
          current,
        },
      ),
    onLeadership: (leader) => {
      processMetrics().indexerLeader.set(leader ? 1 : 0);
      context.log.log("info", leader ? "indexer: this instance leads" : "indexer: no longer the leader");
    },
    onRun: (progress) => {
      recordIndexerRun(context.rpc, progress).catch(() => undefined);
    },
  });
}
