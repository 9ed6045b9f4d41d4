// /vault/{id} — one vault: price, chart, caps, deposit, withdraw, the pending withdrawal, activity.
// The server reads the vault while rendering, so the page's numbers arrive with its HTML; an address
// the chain says holds no vault of this deployment answers 404.
import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";

import { VaultFeature } from "@/components/vault/vault-feature";
import { readVaultFactsOnServer, readVaultOnServer } from "@/lib/web/server-reads";
import { vaultCard } from "@/lib/web/vault-card";

interface Props {
  params: Promise<{ id: string }>;
}

/**
 * The link's card in chats and feeds: the vault's name, APY, TVL and fee, and the image beside this
 * file (opengraph-image.tsx). Absolute URLs are made from the host the page was asked for.
 */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const [read, facts, requestHeaders] = await Promise.all([
    readVaultOnServer(id),
    readVaultFactsOnServer(id),
    headers(),
  ]);
  if (read.status !== "found") {
    return { title: "Vault" };
  }
  const { vault } = read;
  const card = vaultCard(vault, facts);
  const host = requestHeaders.get("x-forwarded-host") ?? requestHeaders.get("host");
  const protocol = requestHeaders.get("x-forwarded-proto") ?? "http";
  return {
    title: vault.name,
    description: card.description,
    ...(host === null ? {} : { metadataBase: new URL(`${protocol}://${host}`) }),
    openGraph: { type: "website", title: card.title, description: card.description, url: `/vault/${id}` },
    twitter: { card: "summary_large_image", title: card.title, description: card.description },
  };
}

export default async function VaultPage({ params }: Props) {
  const { id } = await params;
  const read = await readVaultOnServer(id);
  if (read.status === "missing") {
    notFound();
  }
  return <VaultFeature id={id} variant="site" initialVault={read.status === "found" ? read.vault : null} />;
}
