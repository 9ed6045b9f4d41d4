// The caches of chain data an API context keeps for the directory's reads, each a named member of the
// context (ApiContext.chainData), made with it and emptied by it when its chain changes (a new genesis
// hash), so a restarted local chain is never answered with the previous chain's values.
import type { WithdrawalMilestoneEvents } from "../vault/model/withdrawal-milestones";
import type { DirectoryVault, VaultNav, VaultStatsReads } from "../vault/reads/directory";
import type { HeldPosition } from "../vault/reads/portfolio";
import type { JsonText } from "./json-text";
import { SingleFlightCache } from "./single-flight-cache";

// A couple of seconds: a burst of dashboard reads costs one set of store queries, and the indexer only
// moves every few seconds anyway. The statistics' average moves only when a request becomes claimable,
// and a wallet's portfolio is read with (cached) balances; both live as long as the directory's rows.
const CACHE_MS = 2_000;

/**
 * The directory's entry of a vault: its row, the account decoded, its view (the pages' too), APY and
 * its NAV as GET /api/vault/{id}/nav answers it, serialized once per fill.
 */
export interface IndexedVault extends DirectoryVault {
  nav: JsonText<VaultNav>;
}

export interface ChainDataCaches {
  /** Every indexed vault of the protocol with its view, APY and NAV, under one key ("all"). */
  directory: SingleFlightCache<IndexedVault[]>;
  /** Per vault: the store's 30-day time to claimable and first NAV strike (GET /api/vault/{id}/stats). */
  vaultStats: SingleFlightCache<VaultStatsReads>;
  /** Per wallet: its positions across the indexed vaults (GET /api/portfolio). */
  portfolios: SingleFlightCache<HeldPosition[]>;
  /**
   * Per vault, wallet and request: the indexed events dating a withdrawal (GET withdraw's milestones,
   * four store queries). Emptied as this process's indexer records events; another instance's indexer
   * is seen within CACHE_MS.
   */
  withdrawalMilestones: SingleFlightCache<WithdrawalMilestoneEvents | null>;
}

export function createChainDataCaches(): ChainDataCaches {
  return {
    directory: new SingleFlightCache<IndexedVault[]>(CACHE_MS),
    vaultStats: new SingleFlightCache<VaultStatsReads>(CACHE_MS),
    portfolios: new SingleFlightCache<HeldPosition[]>(CACHE_MS),
    withdrawalMilestones: new SingleFlightCache<WithdrawalMilestoneEvents | null>(CACHE_MS),
  };
}

/** Forgets every value (on a new chain). */
export function clearChainDataCaches(caches: ChainDataCaches): void {
  caches.directory.clear();
  caches.vaultStats.clear();
  caches.portfolios.clear();
  caches.withdrawalMilestones.clear();
}
