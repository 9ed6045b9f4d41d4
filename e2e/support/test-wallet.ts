// A Wallet Standard wallet for the browser tests, in the manner of the Solana templates'
// tests/mock-wallet.ts: a small script injected into every frame registers "E2E Test Wallet"
// (standard:connect/disconnect/events, solana:signTransaction); signing happens here in Node with a
// test keypair, reached through a binding Playwright exposes to the page. Tests can make it refuse
// the next requests as a person would in their wallet.
import { Keypair, VersionedTransaction } from "@solana/web3.js";
import type { BrowserContext } from "playwright";

export const TEST_WALLET_NAME = "E2E Test Wallet";

const ICON =
  "data:image/svg+xml;base64," +
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#0f766e"/><text x="16" y="21" font-size="14" text-anchor="middle" fill="#fff" font-family="sans-serif">E2E</text></svg>',
  ).toString("base64");

interface WalletScriptArgs {
  name: string;
  icon: string;
  address: string;
  publicKey: number[];
}

/** Runs in the page (serialised by Playwright): it may only use what a browser has. */
function registerTestWallet({ name, icon, address, publicKey }: WalletScriptArgs): void {
  type Listener = (properties: { accounts: readonly unknown[] }) => void;
  interface SignInput {
    transaction: Uint8Array;
  }
  const scope = window as unknown as {
    __e2eWalletSign?: (transaction: string) => Promise<string>;
  };
  const chains = ["solana:localnet", "solana:devnet", "solana:testnet", "solana:mainnet"] as const;
  const account = Object.freeze({
    address,
    publicKey: new Uint8Array(publicKey),
    chains,
    features: ["solana:signTransaction"] as const,
    label: name,
  });
  let accounts: readonly (typeof account)[] = [];
  const listeners = new Set<Listener>();
  const emit = (): void => {
    for (const listener of listeners) {
      listener({ accounts });
    }
  };
  const toBase64 = (bytes: Uint8Array): string => {
    let text = "";
    for (const byte of bytes) {
      text += String.fromCharCode(byte);
    }
    return btoa(text);
  };
  const fromBase64 = (text: string): Uint8Array =>
    Uint8Array.from(atob(text), (character) => character.charCodeAt(0));

  const wallet = {
    version: "1.0.0" as const,
    name,
    icon,
    chains,
    get accounts() {
      return accounts;
    },
    features: {
      "standard:connect": {
        version: "1.0.0",
        connect: async () => {
          accounts = [account];
          emit();
          return { accounts };
        },
      },
      "standard:disconnect": {
        version: "1.0.0",
        disconnect: async () => {
          accounts = [];
          emit();
        },
      },
      "standard:events": {
        version: "1.0.0",
        on: (event: string, listener: Listener) => {
          if (event === "change") {
            listeners.add(listener);
          }
          return () => listeners.delete(listener);
        },
      },
      "solana:signTransaction": {
        version: "1.0.0",
        supportedTransactionVersions: ["legacy", 0],
        signTransaction: async (...inputs: SignInput[]) => {
          const sign = scope.__e2eWalletSign;
          if (sign === undefined) {
            throw new Error("The test wallet's signer is not installed");
          }
          const outputs: { signedTransaction: Uint8Array }[] = [];
          for (const input of inputs) {
            try {
              outputs.push({ signedTransaction: fromBase64(await sign(toBase64(input.transaction))) });
            } catch (thrown) {
              const message = thrown instanceof Error ? thrown.message : String(thrown);
              // As Phantom and the wallet-standard wallets report a refusal.
              const error = Object.assign(
                new Error(/rejected/i.test(message) ? "User rejected the request." : message),
                { code: /rejected/i.test(message) ? 4001 : -32603 },
              );
              throw error;
            }
          }
          return outputs;
        },
      },
    },
  };

  const callback = ({ register }: { register(wallet: unknown): unknown }): void => {
    register(wallet);
  };
  try {
    window.dispatchEvent(new CustomEvent("wallet-standard:register-wallet", { detail: callback }));
  } catch {
    // Registration below still happens when the app announces itself.
  }
  try {
    window.addEventListener("wallet-standard:app-ready", (event) => {
      callback((event as CustomEvent<{ register(wallet: unknown): unknown }>).detail);
    });
  } catch {
    // Nothing else to try.
  }
}

export class TestWallet {
  readonly keypair: Keypair;
  /** "reject": the next signature requests are refused as "User rejected the request." */
  mode: "approve" | "reject" = "approve";
  /** The next signature is given only after this long, as a person who walked away would. */
  delayNextMs = 0;
  signatures = 0;
  rejections = 0;

  constructor(keypair: Keypair = Keypair.generate()) {
    this.keypair = keypair;
  }

  get address(): string {
    return this.keypair.publicKey.toBase58();
  }

  /** Injects the wallet into every page and frame of the context, signing through this object. */
  async install(context: BrowserContext): Promise<void> {
    await context.exposeBinding("__e2eWalletSign", (_source, transaction: string) => this.sign(transaction));
    await context.addInitScript(registerTestWallet, {
      name: TEST_WALLET_NAME,
      icon: ICON,
      address: this.address,
      publicKey: [...this.keypair.publicKey.toBytes()],
    });
  }

  private async sign(base64: string): Promise<string> {
    if (this.delayNextMs > 0) {
      const delay = this.delayNextMs;
      this.delayNextMs = 0;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
    if (this.mode === "reject") {
      this.rejections += 1;
      throw new Error("User rejected the request.");
    }
    const transaction = VersionedTransaction.deserialize(Buffer.from(base64, "base64"));
    transaction.sign([this.keypair]);
    this.signatures += 1;
    return Buffer.from(transaction.serialize()).toString("base64");
  }
}
