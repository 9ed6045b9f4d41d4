// The store reads behind portfolio-history and pnl-history: the wallet's events in the vault and, per
// point, the NAV strike before it — two queries whatever the window — replayed into positions.
import type { PublicKey } from "@solana/web3.js";

import { indexerStoreOf } from "../../indexer/start";
import { positionSeries, type PositionPoint } from "../../vault/position-history";
import type { ApiContext } from "../context";
import type { IndexedVault } from "./indexed-reads";
import type { SeriesWindow } from "./series-window";

export async function walletPositionSeries(
  context: ApiContext,
  entry: IndexedVault,
  wallet: PublicKey,
  window: SeriesWindow,
): Promise<PositionPoint[]> {
  const store = indexerStoreOf(context);
  const vault = entry.row.vault;
  const events = await store.events(vault, { owner: wallet.toBase58() });
  const navAt = await store.navAt(
    vault,
    window.timestamps.map((ms) => new Date(ms)),
  );
  return positionSeries(events, navAt, window.timestamps);
}
