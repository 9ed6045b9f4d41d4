// What every blink endpoint of a vault reads: the vault with its 7-day APY, and the keeper's schedule.
import type { PublicKey } from "@solana/web3.js";
import { z } from "zod";
import type { VaultFacts } from "../../actions/vault-actions";
import { configInForce } from "../../vault/model/pending-config";
import { loadVault } from "../../vault/model/vault-state";
import type { ApiContext } from "../context";
import { indexedVaults } from "../vaults/indexed-reads";

export const noParams = z.object({});

export async function vaultFacts(context: ApiContext, address: PublicKey): Promise<VaultFacts> {
  const loaded = await loadVault(context.deps, address, "cached");
  // As the program sees it now: a pause past its end is over, a config past its notice in force.
  const vault = { ...loaded, state: configInForce(loaded.state, context.deps.now()) };
  const id = address.toBase58();
  const indexed = (await indexedVaults(context)).find((entry) => entry.row.vault === id);
  return { vault, apy7d: indexed?.apy.apy7d ?? null };
}

export function schedule(context: ApiContext) {
  return {
    navIntervalSeconds: context.config.navIntervalSeconds,
    stageIntervalSeconds: context.config.stageIntervalSeconds,
  };
}
