// The indexer's settings, from the one schema (lib/env-schema.ts): whether this instance runs one
// (INDEXER=off leaves it to other instances), its run interval (INDEXER_INTERVAL_SECONDS, default 15)
// and the WebSocket that wakes it when the program's transactions confirm (INDEXER_WS_URL: a ws(s)://
// URL, `off`, or unset for the node's own — the localnet's from its addresses file, else the RPC URL's
// port + 1 over ws(s), as web3.js assumes).
import { resolve } from "node:path";

import { DEFAULT_ADDRESSES_FILE, parseEnv, readAddressesFile, type Env, type EnvValues } from "../env-schema";
import { defaultWebSocketUrl } from "../cluster";

export interface IndexerSettings {
  enabled: boolean;
  intervalMs: number;
  /** The PubSub endpoint that wakes the indexer; null: none (the interval alone). */
  wsUrl: string | null;
}

function sameOrigin(left: string, right: string): boolean {
  try {
    return new URL(left).origin === new URL(right).origin;
  } catch {
    return false;
  }
}

/** The node's PubSub endpoint when INDEXER_WS_URL names none. */
export function defaultIndexerWsUrl(
  values: { readonly LOCALNET_ADDRESSES_FILE?: string | undefined },
  rpcUrl: string,
): string {
  const file = readAddressesFile(resolve(values.LOCALNET_ADDRESSES_FILE || DEFAULT_ADDRESSES_FILE));
  if (file !== null && file !== "invalid" && file.wsUrl !== undefined && file.rpcUrl !== undefined) {
    if (sameOrigin(file.rpcUrl, rpcUrl)) {
      return file.wsUrl;
    }
  }
  return defaultWebSocketUrl(rpcUrl);
}

/** Throws ConfigError naming the first bad variable. `rpcUrl` is the API's resolved RPC_URL. */
export function parseIndexerSettings(env: Env, rpcUrl: string): IndexerSettings {
  return indexerSettingsFrom(parseEnv(env), rpcUrl);
}

export function indexerSettingsFrom(values: EnvValues, rpcUrl: string): IndexerSettings {
  const wsUrl = values.INDEXER_WS_URL;
  return {
    enabled: values.INDEXER === "on",
    intervalMs: values.INDEXER_INTERVAL_SECONDS * 1000,
    wsUrl: wsUrl === "off" ? null : (wsUrl ?? defaultIndexerWsUrl(values, rpcUrl)),
  };
}
