// Which of the wallets the page found can be used where it runs.

/** Enough of a wallet option (components/wallet/wallet-data-access.tsx) to say where it works. */
export interface WalletReach {
  readyState: "Installed" | "Loadable" | "NotDetected" | "Unsupported";
  /** Built into the page (the local chain's dev wallet): no extension needed. */
  builtIn: boolean;
}

/**
 * Whether a wallet can connect inside a partner's frame: an installed extension (injected into every
 * frame), or the page's own built-in dev wallet. A wallet that would have to be installed or opened
 * elsewhere cannot; the frame links out instead.
 */
export function reachableInFrame(options: readonly WalletReach[]): boolean {
  return options.some((option) => option.readyState === "Installed" || option.builtIn);
}
