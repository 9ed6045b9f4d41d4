// The local chain's own wallet, so anyone can try the dapp without a browser extension: a keypair made
// in this browser and kept in its localStorage (any script of this origin could read it, so it is
// offered only when the app runs against the local test chain, where nothing has real value).
import {
  BaseSignerWalletAdapter,
  WalletNotConnectedError,
  WalletReadyState,
  isVersionedTransaction,
  type WalletName,
} from "@solana/wallet-adapter-base";
import {
  Keypair,
  type Transaction,
  type TransactionVersion,
  type VersionedTransaction,
} from "@solana/web3.js";

export const DEV_WALLET_NAME = "Dev wallet (local chain)" as WalletName<"Dev wallet (local chain)">;
const STORAGE_KEY = "vault-gateway:dev-wallet";

const ICON =
  "data:image/svg+xml;base64," +
  btoa(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#4338ca"/><text x="16" y="21" font-size="12" text-anchor="middle" fill="#fff" font-family="sans-serif">DEV</text></svg>',
  );

/**
 * Where the keypair is kept: this origin's localStorage, or none where the browser refuses it (a
 * partner's frame when third-party storage is blocked, as Safari and Chrome with third-party cookies
 * off do): the keypair then lives as long as the page.
 */
function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

let pageKeypair: Keypair | null = null;

/** The browser's dev keypair, made on first use. A stored value that is no keypair is replaced. */
function storedKeypair(storage: Storage | null): Keypair {
  if (storage === null) {
    pageKeypair ??= Keypair.generate();
    return pageKeypair;
  }
  const text = storage.getItem(STORAGE_KEY);
  if (text !== null) {
    try {
      const bytes: unknown = JSON.parse(text);
      if (Array.isArray(bytes) && bytes.length === 64 && bytes.every((byte) => Number.isInteger(byte))) {
        return Keypair.fromSecretKey(Uint8Array.from(bytes as number[]));
      }
    } catch {
      // Not JSON: made anew below.
    }
  }
  const keypair = Keypair.generate();
  storage.setItem(STORAGE_KEY, JSON.stringify(Array.from(keypair.secretKey)));
  return keypair;
}

export class DevWalletAdapter extends BaseSignerWalletAdapter<typeof DEV_WALLET_NAME> {
  readonly name = DEV_WALLET_NAME;
  readonly url = "https://github.com/anza-xyz/wallet-adapter";
  readonly icon = ICON;
  readonly supportedTransactionVersions: ReadonlySet<TransactionVersion> = new Set(["legacy", 0]);
  private keypair: Keypair | null = null;

  get connecting(): boolean {
    return false;
  }

  get publicKey() {
    return this.keypair?.publicKey ?? null;
  }

  // Loadable: nothing is installed. It is built in, though, so a partner's frame offers it too
  // (WalletOption.builtIn, embed-link-out.tsx).
  get readyState(): WalletReadyState {
    return typeof window === "undefined" ? WalletReadyState.Unsupported : WalletReadyState.Loadable;
  }

  async connect(): Promise<void> {
    this.keypair = storedKeypair(browserStorage());
    this.emit("connect", this.keypair.publicKey);
  }

  async disconnect(): Promise<void> {
    this.keypair = null;
    this.emit("disconnect");
  }

  async signTransaction<T extends Transaction | VersionedTransaction>(transaction: T): Promise<T> {
    const keypair = this.keypair;
    if (keypair === null) {
      throw new WalletNotConnectedError();
    }
    if (isVersionedTransaction(transaction)) {
      transaction.sign([keypair]);
    } else {
      transaction.partialSign(keypair);
    }
    return transaction;
  }
}
