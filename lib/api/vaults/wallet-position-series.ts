// What portfolio-history and pnl-history share: the wallet's events in the vault and, per point, the
// NAV strike before it — two queries whatever the window — replayed into positions, then shaped by
// each endpoint into its points (read scope, the key's vault and wallet restrictions).
import type { PublicKey } from "@solana/web3.js";
import type { z } from "zod";

import { positionSeries, type PositionPoint } from "../../vault/reads/position-history";
import type { LoadedVault } from "../../vault/model/vault-state";
import type { ApiContext } from "../context";
import type { SampleRequest } from "../endpoint";
import { vaultPathParams } from "../schemas/common";
import { positionHistoryQuery } from "../schemas/position-history";
import type { PartnerCall } from "../with-partner-key";
import { indexedVault, type IndexedVault } from "./indexed-reads";
import { resolveSeriesWindow, seriesFields, type SeriesWindow } from "./series-window";

export async function walletPositionSeries(
  context: ApiContext,
  entry: IndexedVault,
  wallet: PublicKey,
  window: SeriesWindow,
): Promise<PositionPoint[]> {
  const store = context.store.indexer;
  const vault = entry.row.vault;
  const events = await store.events(vault, { owner: wallet.toBase58() });
  const navAt = await store.navAt(
    vault,
    window.timestamps.map((ms) => new Date(ms)),
  );
  return positionSeries(events, navAt, window.timestamps);
}

/** What both series endpoints share in their definitions: path parameter, query, key checks, sample. */
export const walletSeriesOptions = {
  method: "GET",
  scope: "read",
  params: vaultPathParams,
  input: { from: "query", schema: positionHistoryQuery },
  statuses: [404],
  names: "vault-and-wallet",
  target: (input: { wallet: PublicKey }, params: { vault_id: PublicKey }) => ({
    vault: params.vault_id,
    wallet: input.wallet,
  }),
} as const;

export function walletSeriesSample(path: string): SampleRequest {
  return ({ vault, wallet }) => ({
    path: `${path.replace(":vault_id", vault)}?wallet=${wallet}&interval=week`,
  });
}

/** A wallet-series response whose points are `toPoints` of the wallet's positions over the window. */
export async function walletSeries<Point>(
  {
    input,
    params,
    context,
  }: PartnerCall<z.output<typeof positionHistoryQuery>, z.output<typeof vaultPathParams>>,
  toPoints: (vault: LoadedVault, points: readonly PositionPoint[]) => Point[],
) {
  const window = resolveSeriesWindow(input, context.deps.now());
  const entry = await indexedVault(context, params.vault_id);
  const points = await walletPositionSeries(context, entry, input.wallet, window);
  return {
    ...seriesFields(entry.row.vault, window),
    wallet: input.wallet.toBase58(),
    points: toPoints(entry.vault, points),
  };
}
