// / — the vault directory (read by the server while rendering, then kept fresh by the browser).
import { VaultDirectoryFeature } from "@/components/vault/vault-feature";
import { readVaultsOnServer } from "@/lib/web/server-reads";

export default async function VaultDirectoryPage() {
  return <VaultDirectoryFeature initialVaults={await readVaultsOnServer()} />;
}
