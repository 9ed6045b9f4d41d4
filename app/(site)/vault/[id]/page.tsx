// /vault/{id} — one vault: price, chart, caps, deposit, withdraw, the pending withdrawal, activity.
import type { Metadata } from "next";

import { VaultFeature } from "@/components/vault/vault-feature";

export const metadata: Metadata = { title: "Vault" };

export default async function VaultPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <VaultFeature id={id} variant="site" />;
}
