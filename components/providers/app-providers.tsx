"use client";
// Everything a page needs around it: the deployment's settings, react-query, and the wallet (whose
// adapters load after the page has painted).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";

import { ChainUnavailableError } from "@/lib/chain/rpc";
import type { ClientConfig } from "@/lib/web/client-config";
import type { SessionNotice } from "@/lib/web/session-issue";
import { WalletStateProvider } from "../wallet/wallet-data-access";
import { ConfigContext, SessionNoticeContext } from "./config-context";

export function AppProviders({
  config,
  sessionNotice,
  children,
}: {
  config: ClientConfig;
  /** Set when the server could not issue this visitor a session (transactions wait; data shows). */
  sessionNotice: SessionNotice | null;
  children: ReactNode;
}) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 2_000,
            // A chain read that got no answer already waited its timeout (lib/web/chain-reader.ts):
            // the page says so at once and the query's own interval asks again.
            retry: (failureCount, error) =>
              failureCount < 2 &&
              error.name !== "VaultNotFoundError" &&
              !(error instanceof ChainUnavailableError),
            refetchOnWindowFocus: true,
          },
        },
      }),
  );
  return (
    <ConfigContext.Provider value={config}>
      <SessionNoticeContext.Provider value={sessionNotice}>
        <QueryClientProvider client={queryClient}>
          <WalletStateProvider config={config}>{children}</WalletStateProvider>
        </QueryClientProvider>
      </SessionNoticeContext.Provider>
    </ConfigContext.Provider>
  );
}
