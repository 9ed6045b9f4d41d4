// The web app's own settings, built from the environment as the one schema (lib/env-schema.ts) parsed
// it, plus the public view of the deployment the browser gets. RPC_URL is the server's node and
// may carry a provider key: it reaches the browser only when it is a bare loopback URL (the local
// chain); otherwise the deployment names its public endpoint in PUBLIC_RPC_URL.
import { resolve } from "node:path";

import {
  APP_ROOT,
  ConfigError,
  DEFAULT_ADDRESSES_FILE,
  parseEnv,
  readAddressesFile,
  type Env,
  type EnvValues,
} from "./env-schema";
import { CLUSTER_PRESETS, defaultWebSocketUrl, type ClusterName } from "./cluster";
import { VAULT_PROGRAM_ADDRESS } from "./vault/program/program-id";

const LOCALNET_RPC_URL = "http://127.0.0.1:8899";

export interface AssetLabel {
  mint: string;
  symbol: string;
  decimals: number;
}

/** What the browser is told about the deployment (lib/web/client-config.ts re-exports it to the pages). */
export interface ClientConfig {
  cluster: ClusterName;
  /** The RPC endpoint the browser submits and reads through: public by definition. */
  rpcUrl: string;
  wsUrl: string;
  /** The localnet faucet (POST {wallet}), or null on a real cluster. */
  faucetUrl: string | null;
  programId: string;
  /** The protocol whose vaults the pages show (PROTOCOL_ID); null: none configured, so none shown. */
  protocolId: string | null;
  defaultVaultId: string | null;
  /** Symbols of known asset mints; other mints are shown by a short form of their address. */
  assets: AssetLabel[];
}

/** The first-party session's settings (the API's credential source and the pages' proxy share them). */
export interface SessionSettings {
  /** SESSION_SECRET; null: derived (lib/api/session-token.ts sessionSecret). */
  sessionSecret: string | null;
  /** The server-held write key the pages are served under; null: provisioned in the store. */
  firstPartyApiKey: string | null;
  /** Requests per minute per client IP for the pages. */
  firstPartyRpm: number;
  /** How long a session token is accepted; renewed (same session) past half of it. */
  sessionTtlSeconds: number;
  /** Requests per minute per session, within the per-IP allowance. */
  sessionRpm: number;
  /** New sessions per client IP per issue window. */
  sessionIssueLimit: number;
  sessionIssueWindowSeconds: number;
}

export interface WebConfig {
  client: ClientConfig;
  /** The server's own RPC endpoint (RPC_URL): for server-rendered reads, never sent to a browser. */
  serverRpcUrl: string;
  /** CSP frame-ancestors sources for the embeddable pages. */
  frameAncestors: string[];
  /** Whether frameAncestors came from FRAME_ANCESTORS (else the cluster's default). */
  frameAncestorsConfigured: boolean;
}

/** The session settings; throws ConfigError naming the first bad variable. */
export function parseSessionSettings(env: Env): SessionSettings {
  return sessionSettingsFrom(parseEnv(env));
}

export function sessionSettingsFrom(values: EnvValues): SessionSettings {
  return {
    sessionSecret: values.SESSION_SECRET ?? null,
    firstPartyApiKey: values.FIRST_PARTY_API_KEY ?? null,
    firstPartyRpm: values.FIRST_PARTY_RPM,
    sessionTtlSeconds: values.SESSION_TTL_SECONDS,
    sessionRpm: values.SESSION_RPM,
    sessionIssueLimit: values.SESSION_ISSUE_LIMIT,
    sessionIssueWindowSeconds: values.SESSION_ISSUE_WINDOW_SECONDS,
  };
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

export function isLoopbackUrl(value: string): boolean {
  try {
    return LOOPBACK_HOSTS.has(new URL(value).hostname);
  } catch {
    return false;
  }
}

/** A loopback URL with nothing secret-looking in it (no credentials, query or path): the local chain. */
export function isShareableLocalUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      LOOPBACK_HOSTS.has(url.hostname) &&
      url.username === "" &&
      url.password === "" &&
      url.search === "" &&
      (url.pathname === "/" || url.pathname === "")
    );
  } catch {
    return false;
  }
}

function sameEndpoint(left: string | undefined, right: string): boolean {
  if (left === undefined) {
    return false;
  }
  try {
    return new URL(left).href === new URL(right).href;
  } catch {
    return false;
  }
}

/**
 * Who may frame /embed/… when FRAME_ANCESTORS is unset: anyone on the local chain, where a partner
 * trying the embed on their own dev site should see it work at once (nothing there is worth
 * clickjacking); only the app itself anywhere else, until the deployment names its partners.
 */
export function defaultFrameAncestors(cluster: ClusterName): string[] {
  return cluster === "localnet" ? ["*"] : ["'self'"];
}

/** The start-up log's line on embedding: which origins may frame /embed/…, and why. */
export function describeEmbedFraming(config: WebConfig): string {
  const sources = config.frameAncestors.join(" ");
  const why = config.frameAncestorsConfigured
    ? "FRAME_ANCESTORS"
    : `the default on ${config.client.cluster === "localnet" ? "the local chain" : `cluster ${config.client.cluster}`}; set FRAME_ANCESTORS to list the partners`;
  return `web: /embed/… may be framed by ${sources === "*" ? "any site (*)" : sources} (${why})`;
}

/** Parses the pages' settings; throws ConfigError naming the first bad variable. */
export function parseWebConfig(env: Env, root: string = APP_ROOT): WebConfig {
  return webConfigFrom(parseEnv(env), root);
}

/** The pages' settings from the parsed environment, relative paths resolved against `root`. */
export function webConfigFrom(values: EnvValues, root: string = APP_ROOT): WebConfig {
  // An unreadable or foreign file only means no localnet defaults for the pages.
  const file = readAddressesFile(resolve(root, values.LOCALNET_ADDRESSES_FILE ?? DEFAULT_ADDRESSES_FILE));
  const addresses = file === "invalid" ? null : file;

  // A public cluster's preset endpoint stands in for PUBLIC_RPC_URL (rate-limited: name your own).
  const presetRpcUrl =
    values.CLUSTER === undefined || values.CLUSTER === "localnet"
      ? null
      : CLUSTER_PRESETS[values.CLUSTER].rpcUrl;
  let rpcUrl: string;
  if (values.PUBLIC_RPC_URL !== undefined) {
    rpcUrl = values.PUBLIC_RPC_URL;
  } else if (presetRpcUrl !== null) {
    rpcUrl = presetRpcUrl;
  } else if (values.RPC_URL === undefined) {
    rpcUrl = addresses?.rpcUrl ?? LOCALNET_RPC_URL;
  } else if (isShareableLocalUrl(values.RPC_URL)) {
    rpcUrl = values.RPC_URL;
  } else {
    throw new ConfigError(
      "Invalid configuration: PUBLIC_RPC_URL is required when RPC_URL is a remote node or carries a " +
        "path, query or credentials (RPC_URL is the server's and may hold a provider key; the browser " +
        "submits through PUBLIC_RPC_URL)",
    );
  }
  // The localnet's own endpoints come from its addresses file when the browser talks to that chain.
  const isLocalnet = sameEndpoint(addresses?.rpcUrl, rpcUrl);
  const wsUrl =
    values.PUBLIC_WS_URL ??
    (isLocalnet && addresses?.wsUrl !== undefined ? addresses.wsUrl : defaultWebSocketUrl(rpcUrl));
  const faucetUrl = values.FAUCET_URL ?? (isLocalnet ? (addresses?.faucetUrl ?? null) : null);
  const cluster: ClusterName =
    values.CLUSTER ?? (isLocalnet || isLoopbackUrl(rpcUrl) ? "localnet" : "custom");
  const assets: AssetLabel[] = addresses?.asset === undefined ? [] : [addresses.asset];

  return {
    client: {
      cluster,
      rpcUrl,
      wsUrl,
      faucetUrl,
      programId: VAULT_PROGRAM_ADDRESS,
      protocolId: values.PROTOCOL_ID ?? addresses?.protocolId ?? null,
      defaultVaultId: values.DEFAULT_VAULT_ID ?? addresses?.defaultVaultId ?? null,
      assets,
    },
    serverRpcUrl: values.RPC_URL ?? presetRpcUrl ?? rpcUrl,
    frameAncestors: values.FRAME_ANCESTORS ?? defaultFrameAncestors(cluster),
    frameAncestorsConfigured: values.FRAME_ANCESTORS !== undefined,
  };
}
