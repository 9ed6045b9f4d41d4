// Reads the server makes while rendering a page, so its HTML already shows the vault (the page's
// largest content paints with the HTML instead of after the chain reader loads in the browser). Same
// chain reader as the browser, through the server's own RPC_URL; bounded, and a miss (slow or
// unreachable chain) just leaves the browser to read it. The chain saying no such vault exists is the
// page's 404 (notFound()); a miss is not, since a slow chain cannot say either way.
import { cache } from "react";

import { processConfig } from "../config";
import type { VaultView } from "../vault/vault-view";

const READ_TIMEOUT_MS = 600;

/** What the server's read says: the vault, that none exists at the address, or nothing in time. */
export type ServerVaultRead =
  { status: "found"; vault: VaultView } | { status: "missing" } | { status: "unknown" };

function settleWithin(
  promise: Promise<VaultView>,
  ms: number,
  isMissing: (error: unknown) => boolean,
): Promise<ServerVaultRead> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ status: "unknown" }), ms);
    promise.then(
      (vault) => {
        clearTimeout(timer);
        resolve({ status: "found", vault });
      },
      (error: unknown) => {
        clearTimeout(timer);
        resolve({ status: isMissing(error) ? "missing" : "unknown" });
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
  return settleWithin(
    module.readVault(connection, config.client, id),
    READ_TIMEOUT_MS,
    (error) => error instanceof module.VaultNotFoundError,
  );
});
