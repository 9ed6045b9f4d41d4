// /vault/{id} — one vault: price, chart, caps, deposit, withdraw, the pending withdrawal, activity.
// The server reads the vault while rendering, so the page's numbers arrive with its HTML; an address
// the chain says holds no vault of this deployment answers 404.
import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { VaultFeature } from "@/components/vault/vault-feature";
import { readVaultOnServer } from "@/lib/web/server-reads";

interface Props {
  params: Promise<{ id: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const read = await readVaultOnServer(id);
  return { title: read.status === "found" ? read.vault.name : "Vault" };
}

export default async function VaultPage({ params }: Props) {
  const { id } = await params;
  const read = await readVaultOnServer(id);
  if (read.status === "missing") {
    notFound();
  }
  return <VaultFeature id={id} variant="site" initialVault={read.status === "found" ? read.vault : null} />;
}
