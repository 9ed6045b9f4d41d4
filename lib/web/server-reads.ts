// Reads the server makes while rendering a page, so its HTML already shows the vault (the page's
// largest content paints with the HTML instead of after the chain reader loads in the browser). Same
// chain reader as the browser, through the server's own RPC_URL; bounded, and a miss (slow or
// unreachable chain) just leaves the browser to read it. The chain saying no such vault exists is the
// page's 404 (notFound()); a miss is not, since a slow chain cannot say either way.
import { cache } from "react";

import { processConfig } from "../config";
import type { VaultView } from "../vault/model/vault-view";
import { isKeyId, type EmbedPartnerRead } from "./embed-partner";

const READ_TIMEOUT_MS = 600;

/**
 * The page's own path, set by proxy.ts on every page request (never the browser's): a not-found page,
 * which gets no params, names the address it was asked for from it.
 */
export const PAGE_PATH_HEADER = "x-page-path";

/** The last segment of a page path (`/vault/<id>`, `/embed/vault/<id>`): the address it names. */
export function lastPathSegment(path: string | null): string {
  const segment =
    path
      ?.split("/")
      .filter((part) => part !== "")
      .at(-1) ?? "";
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** What the server's read says: the vault, that none exists at the address, or nothing in time. */
export type ServerVaultRead =
  { status: "found"; vault: VaultView } | { status: "missing" } | { status: "unknown" };

/** The value, or null when it fails or takes longer than `ms`. */
function withinOrNull<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(null);
      },
    );
  });
}

async function reader() {
  const config = processConfig().web;
  const module = await import("./chain-reader");
  const connection = module.connectionFor({ rpcUrl: config.serverRpcUrl, wsUrl: config.client.wsUrl });
  return { module, connection, config };
}

/** The vault for this render (one read per request however many components ask). */
export const readVaultOnServer = cache(async (id: string): Promise<ServerVaultRead> => {
  const { module, connection, config } = await reader();
  const read = module.readVault(connection, config.client, id).then(
    (vault): ServerVaultRead => ({ status: "found", vault }),
    (error: unknown): ServerVaultRead => ({
      status: error instanceof module.VaultNotFoundError ? "missing" : "unknown",
    }),
  );
  return (await withinOrNull(read, READ_TIMEOUT_MS)) ?? { status: "unknown" };
});

/** What a shared link's card says beyond the vault's account: its APY from the indexer, if known. */
export interface VaultCardFacts {
  apy7d: number | null;
}

/** The vault's indexed facts from this process's API (its directory cache), or null within the bound. */
export const readVaultFactsOnServer = cache(async (id: string): Promise<VaultCardFacts | null> => {
  const [{ defaultApiContext }, { indexedVaults }] = await Promise.all([
    import("../api/default-context"),
    import("../api/vaults/indexed-reads"),
  ]);
  const read = indexedVaults(defaultApiContext()).then((entries) => {
    const entry = entries.find((candidate) => candidate.row.vault === id);
    return entry === undefined ? null : { apy7d: entry.apy.apy7d };
  });
  return withinOrNull(read, READ_TIMEOUT_MS);
});

/**
 * The partner an embed names (`?partner=<key id>`): an active key's partner terms from this process's
 * key store; "unknown" for a malformed id, a key without a partner or a revoked one, or no answer in time.
 */
export const readEmbedPartnerOnServer = cache(async (named: string | null): Promise<EmbedPartnerRead> => {
  if (named === null) {
    return { status: "none" };
  }
  if (!isKeyId(named)) {
    return { status: "unknown", named };
  }
  const { defaultApiContext } = await import("../api/default-context");
  const partner = await withinOrNull(
    defaultApiContext().store.keys.activePartnerOf(named),
    READ_TIMEOUT_MS * 5,
  );
  return partner === null
    ? { status: "unknown", named }
    : { status: "found", partner: { keyId: named, wallet: partner.wallet, feeBps: partner.feeBps } };
});
