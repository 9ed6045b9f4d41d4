// /vault/{id} — one vault: price, chart, caps, deposit, withdraw, the pending withdrawal, activity.
// The server reads the vault while rendering, so the page's numbers arrive with its HTML.
import type { Metadata } from "next";

import { VaultFeature } from "@/components/vault/vault-feature";
import { readVaultOnServer } from "@/lib/web/server-reads";

interface Props {
  params: Promise<{ id: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const vault = await readVaultOnServer(id);
  return { title: vault?.name ?? "Vault" };
}

export default async function VaultPage({ params }: Props) {
  const { id } = await params;
  const initialVault = await readVaultOnServer(id);
  return <VaultFeature id={id} variant="site" initialVault={initialVault} />;
}
