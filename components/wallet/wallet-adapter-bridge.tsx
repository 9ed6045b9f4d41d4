"use client";
// Loaded after the first paint: the wallet adapter's providers and the adapters, publishing the wallet's
// state to WalletStateProvider. Wallet Standard wallets (Phantom, Solflare, Backpack, test wallets) are
// discovered by the provider itself; the listed adapters cover wallets that do not speak the standard.
import { ConnectionProvider, WalletProvider, useWallet } from "@solana/wallet-adapter-react";
import {
  CoinbaseWalletAdapter,
  LedgerWalletAdapter,
  SolflareWalletAdapter,
  TrustWalletAdapter,
} from "@solana/wallet-adapter-wallets";
import type { WalletError, WalletName } from "@solana/wallet-adapter-base";
import { useEffect, useMemo, useState } from "react";

import { DEV_WALLET_NAME, DevWalletAdapter } from "./dev-wallet";
import type { WalletState } from "./wallet-data-access";

interface BridgeProps {
  rpcUrl: string;
  wsUrl: string;
  /** On the local test chain: offer the browser's own dev wallet (dev-wallet.ts). */
  devWallet: boolean;
  onState(state: WalletState): void;
}

function Publisher({
  onState,
  connectError,
}: {
  onState: BridgeProps["onState"];
  connectError: string | null;
}) {
  const wallet = useWallet();
  const { wallets, select, disconnect, publicKey, connecting, signTransaction } = wallet;
  const current = wallet.wallet;
  const address = publicKey?.toBase58() ?? null;
  useEffect(() => {
    onState({
      status: "ready",
      publicKey: address,
      connecting,
      walletName: current?.adapter.name ?? null,
      walletIcon: current?.adapter.icon ?? null,
      options: wallets.map((entry) => ({
        name: entry.adapter.name,
        icon: entry.adapter.icon,
        url: entry.adapter.url,
        readyState: entry.readyState,
        builtIn: entry.adapter.name === DEV_WALLET_NAME,
      })),
      connectError,
      connect: (name) => select(name as WalletName),
      disconnect,
      signTransaction: signTransaction ?? null,
    });
  }, [onState, address, connecting, current, wallets, select, disconnect, signTransaction, connectError]);
  return null;
}

export default function WalletAdapterBridge({ rpcUrl, wsUrl, devWallet, onState }: BridgeProps) {
  const [connectError, setConnectError] = useState<string | null>(null);
  const adapters = useMemo(
    () => [
      ...(devWallet ? [new DevWalletAdapter()] : []),
      new SolflareWalletAdapter(),
      new CoinbaseWalletAdapter(),
      new TrustWalletAdapter(),
      new LedgerWalletAdapter(),
    ],
    [devWallet],
  );
  const config = useMemo(() => ({ commitment: "confirmed" as const, wsEndpoint: wsUrl }), [wsUrl]);
  return (
    <ConnectionProvider endpoint={rpcUrl} config={config}>
      <WalletProvider
        wallets={adapters}
        autoConnect
        // Signing errors are shown by the form that asked; connection errors by the wallet dialog.
        onError={(error: WalletError) => {
          if (error.name === "WalletConnectionError" || error.name === "WalletNotReadyError") {
            setConnectError(error.message || error.name);
          }
        }}
      >
        <Publisher onState={onState} connectError={connectError} />
      </WalletProvider>
    </ConnectionProvider>
  );
}
