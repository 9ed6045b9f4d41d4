// The types lib/api's parts share: the request and response as the edge sees them, the handler's
// shape, the context every handler gets, and the credential sources that authenticate partners. They
// live here, apart from the modules that build them (context.ts, credentials.ts), so those modules and
// the ones they use import types from one place and no import circle forms between them.
import type { Redis } from "ioredis";

import type { AppConfig } from "../config";
import type { GenesisWatch } from "../chain/genesis-watch";
import type { RpcClient } from "../chain/rpc";
import type { VaultChain } from "../chain/vault-chain";
import type { PartnerEventFeed } from "../events/feed";
import type { KeyScope } from "../store/api-keys";
import type { ApiKeyRecord, KeyPartner } from "../store/api-keys";
import type { Store } from "../store/store";
import type { VaultDeps } from "../vault/model/vault-state";
import type { Webhooks } from "../webhooks/parts";
import type { ChainDataCaches } from "./chain-data-cache";
import type { OpenStreams } from "./events/open-streams";
import type { KeyResolver } from "./keys";
import type { Logger } from "./logger";
import type { RateLimiter } from "./rate-limit";
import type { SingleFlightCache } from "./single-flight-cache";

/**
 * The parts of an HTTP request the edge reads. A WHATWG Request has them (Next.js route handlers pass
 * theirs); the node:http host passes a lighter object, because building a Request (URL, Headers, an
 * AbortSignal) cost more than a keyless request's whole handler.
 */
export interface ApiRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: { get(name: string): string | null; has(name: string): boolean };
  /** Read only when no `rawBody` is given. */
  readonly body: ReadableStream<Uint8Array> | null;
  /** The socket's remote address, when the host knows it (per-IP limits). */
  readonly socketAddress?: string;
  /** The body, when the host has read it already, or the fact that it went over MAX_BODY_BYTES. */
  readonly rawBody?: Uint8Array | "too-large";
}

/**
 * A response as data: hosts turn it into their own (toWebResponse makes a WHATWG Response; the
 * node:http host writes it to the socket without a Response or its body stream in between).
 */
export interface ApiResponse {
  status: number;
  /** Owned by this response: the router adds X-Request-Id to it. */
  headers: Record<string, string>;
  /** The body text (JSON for our own responses); null for none; a stream written after the head. */
  body: string | StreamBody | null;
}

/**
 * A body written piece by piece after the head (server-sent events): the host calls `run` once with a
 * writer that resolves when the socket takes the chunk (back-pressure), and a signal that aborts when
 * the client leaves or the host shuts down; the body ends when `run` settles. A stream a host will
 * never run (HEAD, a failure before the head) is `discard`ed, so whatever it holds is let go.
 */
export interface StreamBody {
  readonly kind: "stream";
  run(write: (chunk: string) => Promise<void>, signal: AbortSignal): Promise<void>;
  discard(): void;
}

export interface RequestMeta {
  requestId: string;
  /** The request's URL, parsed once and shared by requests of the same URL text: read only. */
  url: Readonly<URL>;
  params: Readonly<Record<string, string>>;
  /** Key id, when a partner credential was accepted (for the request log). */
  keyId?: string;
  /** Error code, when the response is an error (for the request log). */
  errorCode?: string;
}

export type ApiHandler = (
  request: ApiRequest,
  context: ApiContext,
  meta: RequestMeta,
) => Promise<ApiResponse>;

export interface ApiContext {
  config: AppConfig;
  rpc: RpcClient;
  chain: VaultChain;
  /**
   * The chain's genesis hash, checked every few seconds once requests come: on a change (a local chain
   * restarted with a fresh ledger) every cache of chain data hanging off the context starts over.
   */
  genesis: GenesisWatch;
  deps: VaultDeps;
  store: Store;
  redis: Redis | null;
  limiter: RateLimiter;
  keys: KeyResolver;
  log: Logger;
  credentialSources: CredentialSource[];
  /**
   * The keyless reads' bodies (GET /api/oracle, /api/circulating-supply), one cache per endpoint, kept
   * ~10 s per vault under its base58 address (base58Of's one string per key, so a lookup builds no key
   * text).
   */
  publicReads(operationId: string): SingleFlightCache<object>;
  /** The directory's, statistics' and portfolios' reads, cached a couple of seconds (chain-data-cache.ts). */
  chainData: ChainDataCaches;
  /**
   * The store's "first-party pages" key as the pages' credential source found or provisioned it, kept
   * a few seconds (first-party-session.ts); unused when FIRST_PARTY_API_KEY names the key.
   */
  firstPartyKey: SingleFlightCache<ApiKeyRecord | null>;
  /**
   * The webhook rows, target checker and delivery worker: made on first use from the process's
   * configuration unless configureWebhooks set them first.
   */
  webhooks: Webhooks;
  /** The live partner-event feed: the event stream subscribes to it, the indexer wakes it. */
  liveEvents: PartnerEventFeed;
  /** The event streams open on this context and their limits (configureEventStream sets them). */
  eventStreams: OpenStreams;
  /** Replaces the keyless per-IP limit (the benchmark raises it so the limiter runs without refusing). */
  publicLimit: { limit: number; windowSeconds: number } | null;
  close(): Promise<void>;
}

export interface Principal {
  /** Rate limits are keyed by this id. */
  keyId: string;
  scope: KeyScope;
  /** Null: every vault. */
  vaults: readonly string[] | null;
  /** Null: any wallet. */
  wallet: string | null;
  rpm: number;
  /** The key's partner: its deposits pay that partner's fee. Absent or null: none. */
  partner?: KeyPartner | null;
  source: string;
  /** A second per-minute budget inside the key's (the pages' per-session one), keyed by `id`. */
  sessionLimit?: { id: string; rpm: number };
  /** Headers every answer to this request carries (the pages' renewed session cookie). */
  responseHeaders?: Record<string, string>;
}

export interface CredentialSource {
  name: string;
  authenticate(request: ApiRequest, context: ApiContext): Promise<Principal | null>;
  /**
   * Who reads public data when no credential was accepted (the pages' visitors without a session,
   * first-party-session.ts); null when this source has none for the request.
   */
  visitor?(request: ApiRequest, context: ApiContext): Principal | null;
}
