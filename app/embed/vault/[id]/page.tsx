// /embed/vault/{id}?theme=light|dark&accent=<hex>&background=transparent&partner=<key id> — the vault
// page for a partner's iframe: no site chrome, the partner's theme and accent (as link text only where
// it reads), the partner's fee on deposits (its key's terms from our store, shown before signing),
// a link-out when no wallet can be reached in the frame, and messages to the host page (its height,
// transactions, a withdrawal become claimable).
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { CSSProperties } from "react";

import { EmbedMessenger } from "@/components/embed/embed-messenger";
import { EmbedPartnerProvider } from "@/components/embed/embed-partner-context";
import { ChainStallNotice } from "@/components/ui/chain-stall-notice";
import { VaultFeature } from "@/components/vault/vault-feature";
import { parseEmbedTheme } from "@/lib/web/embed-theme";
import { namedPartner } from "@/lib/web/embed-partner";
import { readEmbedPartnerOnServer, readVaultOnServer } from "@/lib/web/server-reads";

export const metadata: Metadata = { title: "Vault", robots: { index: false } };

export default async function EmbedVaultPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ id }, query] = await Promise.all([params, searchParams]);
  const look = parseEmbedTheme(query);
  const [read, partner] = await Promise.all([
    readVaultOnServer(id),
    readEmbedPartnerOnServer(namedPartner(query.partner)),
  ]);
  if (read.status === "missing") {
    notFound();
  }
  const initialVault = read.status === "found" ? read.vault : null;
  const style: Record<string, string> = {};
  if (look.accent !== null && look.accentForeground !== null) {
    style["--accent"] = look.accent;
    style["--accent-fg"] = look.accentForeground;
  }
  if (look.accentText !== null) {
    style["--accent-text-light"] = look.accentText.light;
    style["--accent-text-dark"] = look.accentText.dark;
  }
  return (
    <div
      data-theme={look.theme ?? undefined}
      data-accent-text={look.accentText === null ? undefined : ""}
      data-transparent={look.transparent ? "" : undefined}
      data-testid="embed-root"
      style={style as CSSProperties}
      className={`px-3 py-4 text-fg sm:px-5 ${look.transparent ? "bg-transparent" : "min-h-screen bg-page"}`}
    >
      <EmbedMessenger vault={id} />
      <main id="main" className="mx-auto max-w-5xl">
        <ChainStallNotice />
        {partner.status === "unknown" ? (
          <p
            className="mb-3 rounded-lg bg-soft px-3 py-2 text-sm text-bad"
            data-testid="embed-partner-unknown"
          >
            This page names a partner ({partner.named}) that is not an active partner of this app; deposits
            here pay no partner fee.
          </p>
        ) : null}
        <EmbedPartnerProvider partner={partner.status === "found" ? partner.partner : null}>
          <VaultFeature id={id} variant="embed" initialVault={initialVault} />
        </EmbedPartnerProvider>
      </main>
    </div>
  );
}
