"use client";
// Everything a page needs around it: the deployment's settings, react-query, and the wallet (whose
// adapters load after the page has painted).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";

import type { ClientConfig } from "@/lib/web/client-config";
import { isChainStall } from "@/lib/web/errors";
import type { SessionNotice } from "@/lib/web/session-issue";
import { WalletStateProvider } from "../wallet/wallet-data-access";
import { ConfigContext, LocaleContext, SessionNoticeContext } from "./config-context";

export function AppProviders({
  config,
  sessionNotice,
  locale,
  children,
}: {
  config: ClientConfig;
  /** The reader's locale, from the request's Accept-Language. */
  locale: string;
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
      <LocaleContext.Provider value={locale}>
        <SessionNoticeContext.Provider value={sessionNotice}>
          <QueryClientProvider client={queryClient}>
            <WalletStateProvider config={config}>{children}</WalletStateProvider>
          </QueryClientProvider>
        </SessionNoticeContext.Provider>
      </LocaleContext.Provider>
    </ConfigContext.Provider>
  );
}
