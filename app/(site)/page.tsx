// / — the vault directory (GET /api/vaults).
import { VaultDirectoryFeature } from "@/components/vault/vault-directory-feature";

export default function VaultDirectoryPage() {
  return <VaultDirectoryFeature />;
}
