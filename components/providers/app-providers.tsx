"use client";
// Everything a page needs around it: the deployment's settings, react-query, and the wallet (whose
// adapters load after the page has painted).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";

import type { ClientConfig } from "@/lib/web/client-config";
import { WalletStateProvider } from "../wallet/wallet-data-access";
import { ConfigContext } from "./config-context";

export function AppProviders({ config, children }: { config: ClientConfig; children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 2_000,
            retry: (failureCount, error) => failureCount < 2 && error.name !== "VaultNotFoundError",
            refetchOnWindowFocus: true,
          },
        },
      }),
  );
  return (
    <ConfigContext.Provider value={config}>
      <QueryClientProvider client={queryClient}>
        <WalletStateProvider config={config}>{children}</WalletStateProvider>
      </QueryClientProvider>
    </ConfigContext.Provider>
  );
}
