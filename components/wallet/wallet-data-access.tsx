"use client";
// The connected wallet as the pages see it. The wallet adapter (Wallet Standard discovery plus the
// adapters of @solana/wallet-adapter-wallets) is loaded after the first paint by a bridge that renders
// beside the page and publishes its state here, so the pages' first JavaScript does not carry it.
import type { VersionedTransaction } from "@solana/web3.js";
import dynamic from "next/dynamic";
import { createContext, useContext, useState, type ReactNode } from "react";

import type { ClientConfig } from "@/lib/web/client-config";

export type WalletReadiness = "Installed" | "Loadable" | "NotDetected" | "Unsupported";

export interface WalletOption {
  name: string;
  icon: string;
  url: string;
  readyState: WalletReadiness;
  /** The browser's own dev wallet (local chain only): it needs no extension, so it works in any frame. */
  builtIn: boolean;
}

export interface WalletState {
  /** "loading" until the adapter code has loaded and discovered wallets. */
  status: "loading" | "ready";
  publicKey: string | null;
  connecting: boolean;
  walletName: string | null;
  walletIcon: string | null;
  options: WalletOption[];
  /** The last connection error, in the wallet's own words. */
  connectError: string | null;
  /** Selects a wallet and connects to it. */
  connect(name: string): void;
  disconnect(): Promise<void>;
  signTransaction: ((transaction: VersionedTransaction) => Promise<VersionedTransaction>) | null;
}

const LOADING: WalletState = {
  status: "loading",
  publicKey: null,
  connecting: false,
  walletName: null,
  walletIcon: null,
  options: [],
  connectError: null,
  connect: () => undefined,
  disconnect: async () => undefined,
  signTransaction: null,
};

const WalletContext = createContext<WalletState>(LOADING);

export function useWalletState(): WalletState {
  return useContext(WalletContext);
}

const WalletAdapterBridge = dynamic(() => import("./wallet-adapter-bridge"), { ssr: false });

export function WalletStateProvider({ config, children }: { config: ClientConfig; children: ReactNode }) {
  const [state, setState] = useState<WalletState>(LOADING);
  return (
    <WalletContext.Provider value={state}>
      {children}
      <WalletAdapterBridge
        rpcUrl={config.rpcUrl}
        wsUrl={config.wsUrl}
        devWallet={config.cluster === "localnet"}
        onState={setState}
      />
    </WalletContext.Provider>
  );
}
