// The site's pages: header with navigation and wallet, the page's one notice of a stalled chain, then
// the page.
import type { ReactNode } from "react";

import { SiteHeader } from "@/components/site/site-header";
import { ChainStallNotice } from "@/components/ui/chain-stall-notice";

export default function SiteLayout({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-screen">
      <SiteHeader />
      <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
        <ChainStallNotice />
        {children}
      </main>
    </div>
  );
}
