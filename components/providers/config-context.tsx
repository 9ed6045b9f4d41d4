"use client";
// The deployment's public settings (lib/web/client-config.ts), given by the server on each render.
import { createContext, useContext } from "react";

import type { ClientConfig } from "@/lib/web/client-config";
import type { SessionNotice } from "@/lib/web/session-issue";

export const ConfigContext = createContext<ClientConfig | null>(null);

/** Set when this page was served without a session because the issue limit held one back. */
export const SessionNoticeContext = createContext<SessionNotice | null>(null);

export function useSessionNotice(): SessionNotice | null {
  return useContext(SessionNoticeContext);
}

export function useClientConfig(): ClientConfig {
  const config = useContext(ConfigContext);
  if (config === null) {
    throw new Error("useClientConfig must be used inside <AppProviders>");
  }
  return config;
}

/** The reader's locale (lib/web/reader-locale.ts): every figure, date and time is written in it. */
export const LocaleContext = createContext<string>("en-US");

export function useReaderLocale(): string {
  return useContext(LocaleContext);
}

/** The part of every query key that names the chain: data of one cluster never shows on another. */
export function useClusterKey(): readonly [string, string] {
  const config = useClientConfig();
  return [config.cluster, config.rpcUrl] as const;
}
