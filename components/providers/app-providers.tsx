"use client";
// Everything a page needs around it: the deployment's settings, react-query, and the wallet (whose
// adapters load after the page has painted).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";

import type { ClientConfig } from "@/lib/web/client-config";
import { isChainStall } from "@/lib/web/errors";
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
            // A chain read that got no answer already waited its timeout (lib/web/chain-reader.ts),
            // and the server's 503 its own: the page says so at once (ChainStallNotice) and asks again.
            retry: (failureCount, error) =>
              failureCount < 2 && error.name !== "VaultNotFoundError" && !isChainStall(error),
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
