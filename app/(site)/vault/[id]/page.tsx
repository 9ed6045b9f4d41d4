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
 * The link's card in chats and feeds: the vault's name, APY, TVL and fee, and its image
 * (share-card/route.tsx). Absolute URLs are made from the host the page was asked for, under `next dev`
 * too (whatever APP_PORT is).
 */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const [read, facts, requestHeaders] = await Promise.all([
    readVaultOnServer(id),
    readVaultFactsOnServer(id),
    headers(),
  ]);
  const host = requestHeaders.get("x-forwarded-host") ?? requestHeaders.get("host");
  const protocol = requestHeaders.get("x-forwarded-proto") ?? "http";
  const origin = host === null ? null : new URL(`${protocol}://${host}`);
  const image = {
    url: origin === null ? `/vault/${id}/share-card` : new URL(`/vault/${id}/share-card`, origin).toString(),
    width: 1200,
    height: 630,
    alt: "The vault's APY, TVL and withdrawal fee",
    type: "image/png",
  };
  const base = origin === null ? {} : { metadataBase: origin };
  if (read.status === "missing") {
    return { title: "No such vault" };
  }
  if (read.status !== "found") {
    // Not read now (the chain is slow): the card still has its image, the site's plain one.
    return { title: "Vault", ...base, openGraph: { images: [image] }, twitter: { images: [image] } };
  }
  const { vault } = read;
  const card = vaultCard(vault, facts);
  return {
    title: vault.name,
    description: card.description,
    ...base,
    openGraph: {
      type: "website",
      title: card.title,
      description: card.description,
      url: `/vault/${id}`,
      images: [image],
    },
    twitter: {
      card: "summary_large_image",
      title: card.title,
      description: card.description,
      images: [image],
    },
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
