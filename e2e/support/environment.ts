// What the global setup hands the browser tests: where the app, the chain and the partner's page are.

/** A partner's API key in the app's store (made by `npm run keys`), for the embed's `?partner=<key id>`. */
export interface E2ePartner {
  keyId: string;
  /** The wallet its fee is paid to, and that wallet's USDC associated token account (open). */
  wallet: string;
  tokenAccount: string;
  feeBps: number;
}

export interface E2eEnvironment {
  /** The app (pages and /api), e.g. http://localhost:41234. */
  appUrl: string;
  /** A partner's page on another origin that frames the embed (its origin is in FRAME_ANCESTORS). */
  partnerUrl: string;
  /** A page on an origin that is not allowed to frame the app. */
  strangerUrl: string;
  /** The public RPC endpoint the browser uses (the pausable proxy in front of the chain's). */
  rpcUrl: string;
  /** Pauses and resumes the chain as the app and the browser see it (e2e/support/chain.ts). */
  chainControlUrl: string;
  faucetUrl: string;
  primeVaultId: string;
  flexVaultId: string;
  partner: E2ePartner;
  /** Seconds between the keeper's NAV strikes. */
  navIntervalSeconds: number;
  /** The localnet's slot length: a blockhash lives 150 slots. */
  slotMs: number;
  /** Values that must never reach a browser: the server's private RPC URL, the session secret. */
  secrets: string[];
  /** The build directory whose static output was scanned. */
  distDir: string;
  /**
   * How the app was started and the variables it was given, but for its store's directory (PGLITE_DIR
   * here is :memory:): a test may start another beside it, with its own store.
   */
  appMode: "start" | "dev";
  appValues: Record<string, string>;
}

declare module "vitest" {
  export interface ProvidedContext {
    e2e: E2eEnvironment;
  }
}
