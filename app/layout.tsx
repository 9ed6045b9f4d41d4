// The root layout: the deployment's public settings (the process's configuration, read at run time, so
// one build serves any cluster) handed to the client providers. Reading the request also makes every page dynamic, which
// the per-request CSP nonce set by proxy.ts needs.
import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";

import { AppProviders } from "@/components/providers/app-providers";
import { processConfig } from "@/lib/config";
import { readerLocaleFrom } from "@/lib/web/reader-locale";
import { SESSION_NOTICE_HEADER, parseSessionNotice } from "@/lib/web/session-issue";

import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Vault gateway", template: "%s · Vault gateway" },
  description: "Deposit into and withdraw from the vaults; the partner API lives under /api",
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The nonce is applied by Next.js to its scripts from the CSP request header; reading the headers
  // here keeps the pages out of static prerendering, where no nonce could exist. The proxy also says
  // there when no session could be issued for this visitor (the page then says why and until when).
  const requestHeaders = await headers();
  const sessionNotice = parseSessionNotice(requestHeaders.get(SESSION_NOTICE_HEADER));
  const config = processConfig().web.client;
  // Figures are written as the reader's browser reads them (its Accept-Language, as navigator.language).
  const locale = readerLocaleFrom(requestHeaders.get("accept-language"));
  return (
    <html lang="en">
      <body>
        <AppProviders config={config} sessionNotice={sessionNotice} locale={locale}>
          {children}
        </AppProviders>
      </body>
    </html>
  );
}
