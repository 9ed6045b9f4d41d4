// The directory's reads from the indexer's rows (read from the chain until the indexer has stored
// them), cached a couple of seconds in the context's chainData.directory with single-flight loading, so
// a burst of dashboard reads costs one set of store queries.
import type { PublicKey } from "@solana/web3.js";

import { base58Of } from "../../chain/base58";
import { readVaultRows } from "../../indexer/chain-reads";
import { annualizedYield } from "../../vault/model/apy";
import { navPoints, vaultNav, vaultOfRow, type VaultApy } from "../../vault/reads/directory";
import { loadVault } from "../../vault/model/vault-state";
import { vaultView } from "../../vault/model/vault-view";
import type { IndexedVault } from "../chain-data-cache";
import type { ApiContext } from "../context";
import { ApiError } from "../errors";
import { jsonText } from "../json-text";

const DAY_MS = 86_400_000;
const NO_APY: VaultApy = { apy7d: null, apy30d: null };

export type { IndexedVault } from "../chain-data-cache";

async function apyOf(context: ApiContext, vault: string): Promise<VaultApy> {
  const store = context.store.indexer;
  const latest = await store.latestSnapshot(vault, "event");
  if (latest === null) {
    return { apy7d: null, apy30d: null };
  }
  const end = latest.navUpdatedAt ?? latest.takenAt;
  const over = async (days: number): Promise<number | null> => {
    const start = await store.firstSnapshotSince(vault, "event", new Date(end.getTime() - days * DAY_MS));
    if (start === null || start.slot === latest.slot) {
      return null;
    }
    const [from, to] = navPoints([start, latest]);
    return from === undefined || to === undefined
      ? null
      : annualizedYield(from, to, context.config.apyMinSpanSeconds);
  };
  return { apy7d: await over(7), apy30d: await over(30) };
}

/** Every indexed vault of the deployment's protocol, with its APY. */
export function indexedVaults(context: ApiContext): Promise<IndexedVault[]> {
  return context.chainData.directory.get("all", async () => {
    const store = context.store.indexer;
    const [stored, indexedGenesis, chainGenesis] = await Promise.all([
      store.vaults(),
      store.indexedGenesis(),
      context.genesis.current ?? context.genesis.check().catch(() => null),
    ]);
    // Before the indexer's first run on this chain has stored a vault (a fresh start, or rows read from
    // another chain, which its next run deletes), the directory is what the chain has now: the same
    // rows, read directly, without history (no APY yet).
    const indexedThisChain =
      indexedGenesis !== null && (chainGenesis === null || indexedGenesis === chainGenesis);
    const fromChain = !indexedThisChain || stored.length === 0;
    const rows = !fromChain
      ? stored
      : await readVaultRows(
          context.rpc,
          context.config.programId,
          context.config.protocolId,
          new Date(context.deps.now()),
        );
    // Rows indexed under another PROTOCOL_ID (the indexer keeps only this one's now) are not served.
    const served = rows.flatMap((row) => {
      try {
        return [{ row, vault: vaultOfRow(context.deps, row) }];
      } catch {
        return [];
      }
    });
    return Promise.all(
      served.map(async ({ row, vault }) => {
        const view = vaultView(vault, context.deps.now());
        const apy = fromChain ? NO_APY : await apyOf(context, row.vault);
        return { row, vault, view, apy, nav: jsonText(vaultNav(view)) };
      }),
    );
  });
}

/** One indexed vault; 404 for an address that is no vault, 503 for a vault the indexer has not reached yet. */
export async function indexedVault(context: ApiContext, address: PublicKey): Promise<IndexedVault> {
  // The path's key object is memoized per text (schemas/common.ts), so its base58 is computed once.
  const id = base58Of(address);
  const found = (await indexedVaults(context)).find((entry) => entry.row.vault === id);
  if (found !== undefined) {
    return found;
  }
  await loadVault(context.deps, address, "cached");
  throw new ApiError("STORE_UNAVAILABLE", `Vault ${id} is not indexed yet; retry in a few seconds`);
}

export function keyAllowsVault(vaults: readonly string[] | null, vault: string): boolean {
  return vaults === null || vaults.includes(vault);
}
